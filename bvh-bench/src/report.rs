//! Reports a run leaves behind: a folder with a Markdown page and SVG charts, named at the end
//! of the run, so results can be looked at and shared rather than scrolled past.

use plotters::coord::ranged1d::{SegmentedCoord, ValueFormatter};
use plotters::coord::types::RangedCoordusize;
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A Markdown report and its charts, written to one folder.
pub struct Report {
    dir: PathBuf,
    markdown: String,
}

/// One line of a line chart: a name and its points.
pub type Series = (String, Vec<(f64, f64)>);

/// A flat picture in its own units (y up), drawn in order and scaled to fit: a 3-D scene seen
/// from one side, far things first.
#[derive(Clone, Debug, Default)]
pub struct Drawing {
    /// What is drawn, first at the back.
    pub marks: Vec<Mark>,
}

/// One thing drawn.
#[derive(Clone, Debug)]
pub enum Mark {
    /// A filled polygon, outlined in its colour darkened.
    Polygon {
        /// The corners in order.
        points: Vec<(f64, f64)>,
        /// `[r, g, b]`.
        colour: [u8; 3],
        /// From 0 (clear) to 1.
        opacity: f64,
    },
    /// A polyline.
    Line {
        /// The points in order.
        points: Vec<(f64, f64)>,
        /// `[r, g, b]`.
        colour: [u8; 3],
        /// In pixels.
        width: u32,
        /// Whether it goes back to its start.
        closed: bool,
    },
    /// A dot outlined in black.
    Dot {
        /// Its centre.
        at: (f64, f64),
        /// `[r, g, b]`.
        colour: [u8; 3],
        /// In pixels.
        radius: u32,
    },
}

impl Report {
    /// A report titled `title` in `dir` (created).
    pub fn new(dir: &Path, title: &str) -> std::io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        Ok(Self { dir: dir.to_path_buf(), markdown: format!("# {title}\n\n") })
    }

    /// The report's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Appends Markdown text (a paragraph, a table).
    pub fn text(&mut self, markdown: &str) {
        let _ = writeln!(self.markdown, "{markdown}\n");
    }

    /// A Markdown table from a header and rows.
    pub fn table(&mut self, header: &[&str], rows: &[Vec<String>]) {
        let mut t = format!("| {} |\n|{}\n", header.join(" | "), "---|".repeat(header.len()));
        for row in rows {
            let _ = writeln!(t, "| {} |", row.join(" | "));
        }
        self.text(&t);
    }

    /// A bar chart `file` (SVG) of one value per label, linked from the page. Values spanning
    /// more than [`LOG_SPAN`] (a tree a thousand times slower beside the fast ones) go on a log
    /// axis, where the small bars stay readable.
    pub fn bars(
        &mut self,
        file: &str,
        title: &str,
        unit: &str,
        bars: &[(String, f64)],
    ) -> Result<(), String> {
        let path = self.dir.join(file);
        let values: Vec<f64> = bars.iter().map(|b| b.1).collect();
        let labels: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
        {
            let root = canvas(&path)?;
            match bar_axis(&values) {
                BarAxis::Linear { top } => {
                    let chart = frame(&root, title)
                        .build_cartesian_2d((0..bars.len()).into_segmented(), 0.0..top)
                        .map_err(err)?;
                    draw_bars(chart, &labels, unit, &values, 0.0)?;
                }
                BarAxis::Log { floor, top } => {
                    let chart = frame(&root, title)
                        .build_cartesian_2d((0..bars.len()).into_segmented(), (floor..top).log_scale())
                        .map_err(err)?;
                    draw_bars(chart, &labels, &format!("{unit} (log scale)"), &values, floor)?;
                }
            }
            root.present().map_err(err)?;
        }
        self.text(&format!("![{title}]({file})"));
        Ok(())
    }

    /// A line chart `file` (SVG) of several series, linked from the page.
    pub fn lines(
        &mut self,
        file: &str,
        title: &str,
        axes: (&str, &str),
        series: &[Series],
    ) -> Result<(), String> {
        let path = self.dir.join(file);
        let points = series.iter().flat_map(|s| s.1.iter());
        let (x_max, y_max) = points.fold((0.0f64, 0.0f64), |(x, y), p| (x.max(p.0), y.max(p.1)));
        {
            let root = canvas(&path)?;
            let mut chart = frame(&root, title)
                .build_cartesian_2d(0.0..x_max.max(1.0), 0.0..(y_max * 1.1).max(f64::MIN_POSITIVE))
                .map_err(err)?;
            chart.configure_mesh().x_desc(axes.0).y_desc(axes.1).draw().map_err(err)?;
            for (i, (name, points)) in series.iter().enumerate() {
                let colour = Palette99::pick(i);
                chart
                    .draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(2)))
                    .map_err(err)?
                    .label(name.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 18, y)], Palette99::pick(i).stroke_width(2))
                    });
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(err)?;
            root.present().map_err(err)?;
        }
        self.text(&format!("![{title}]({file})"));
        Ok(())
    }

    /// A picture `file` (SVG) of `drawing`, the same scale on both axes, linked from the page.
    pub fn drawing(&mut self, file: &str, title: &str, drawing: &Drawing) -> Result<(), String> {
        let path = self.dir.join(file);
        let points = drawing.marks.iter().flat_map(|m| match m {
            Mark::Polygon { points, .. } | Mark::Line { points, .. } => points.as_slice(),
            Mark::Dot { at, .. } => std::slice::from_ref(at),
        });
        let (mut low, mut high) = ((f64::INFINITY, f64::INFINITY), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        for &(x, y) in points {
            (low, high) = ((low.0.min(x), low.1.min(y)), (high.0.max(x), high.1.max(y)));
        }
        if !(low.0 <= high.0 && low.1 <= high.1) {
            return Err(format!("drawing {file}: nothing to draw"));
        }
        // The wider extent fills the canvas; the other is centred at the same scale.
        let (width, height) = ((high.0 - low.0).max(1e-9), (high.1 - low.1).max(1e-9));
        let half = 0.55 * width.max(height * 760.0 / 420.0);
        let (cx, cy) = ((low.0 + high.0) / 2.0, (low.1 + high.1) / 2.0);
        let x_range = cx - half..cx + half;
        let y_range = cy - half * 420.0 / 760.0..cy + half * 420.0 / 760.0;
        {
            let root = canvas(&path)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(title, ("sans-serif", 18))
                .margin(8)
                .build_cartesian_2d(x_range, y_range)
                .map_err(err)?;
            let rgb = |[r, g, b]: [u8; 3]| RGBColor(r, g, b);
            let dark = |[r, g, b]: [u8; 3]| RGBColor(r / 2, g / 2, b / 2);
            for mark in &drawing.marks {
                match mark {
                    Mark::Polygon { points, colour, opacity } => {
                        let fill = rgb(*colour).mix(*opacity).filled();
                        chart
                            .draw_series(std::iter::once(Polygon::new(points.clone(), fill)))
                            .map_err(err)?;
                        let mut outline = points.clone();
                        outline.extend(points.first());
                        let stroke = dark(*colour).mix(0.6).stroke_width(1);
                        chart.draw_series(std::iter::once(PathElement::new(outline, stroke))).map_err(err)?;
                    }
                    Mark::Line { points, colour, width, closed } => {
                        let mut path = points.clone();
                        if *closed {
                            path.extend(points.first());
                        }
                        let stroke = rgb(*colour).stroke_width(*width);
                        chart.draw_series(std::iter::once(PathElement::new(path, stroke))).map_err(err)?;
                    }
                    Mark::Dot { at, colour, radius } => {
                        let dot = Circle::new(*at, *radius, rgb(*colour).filled());
                        let ring = Circle::new(*at, *radius, BLACK.stroke_width(1));
                        chart.draw_series([dot, ring]).map_err(err)?;
                    }
                }
            }
            root.present().map_err(err)?;
        }
        self.text(&format!("![{title}]({file})"));
        Ok(())
    }

    /// Writes `report.md` and returns its path.
    pub fn finish(self) -> std::io::Result<PathBuf> {
        let path = self.dir.join("report.md");
        std::fs::write(&path, self.markdown)?;
        Ok(path)
    }
}

/// A white SVG canvas of the reports' size.
fn canvas(path: &Path) -> Result<DrawingArea<SVGBackend<'_>, plotters::coord::Shift>, String> {
    let root = SVGBackend::new(path, (760, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    Ok(root)
}

/// A chart with a title and room for the axis labels.
fn frame<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    title: &str,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut builder = ChartBuilder::on(root);
    builder.caption(title, ("sans-serif", 20)).margin(12).x_label_area_size(40).y_label_area_size(70);
    builder
}

fn err(e: impl std::fmt::Display) -> String {
    format!("chart: {e}")
}

/// Bar values spanning more than this ratio go on a log axis.
pub const LOG_SPAN: f64 = 100.0;

/// The value axis of a bar chart.
#[derive(Debug, PartialEq)]
enum BarAxis {
    Linear {
        top: f64,
    },
    /// Bars rise from `floor`, below the least positive value.
    Log {
        floor: f64,
        top: f64,
    },
}

/// A linear axis, or a log axis when the positive values span more than [`LOG_SPAN`].
fn bar_axis(values: &[f64]) -> BarAxis {
    let top = values.iter().copied().fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let least = values.iter().copied().filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
    if least.is_finite() && top / least > LOG_SPAN {
        BarAxis::Log { floor: least / 2.0, top: top * 2.0 }
    } else {
        BarAxis::Linear { top: top * 1.15 }
    }
}

/// Draws one bar per value from `base` up, labelled below, on a chart of either axis.
fn draw_bars<Y>(
    mut chart: ChartContext<'_, SVGBackend<'_>, Cartesian2d<SegmentedCoord<RangedCoordusize>, Y>>,
    labels: &[String],
    unit: &str,
    values: &[f64],
    base: f64,
) -> Result<(), String>
where
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc(unit)
        .x_label_formatter(&|x| match x {
            SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .draw()
        .map_err(err)?;
    chart
        .draw_series(values.iter().enumerate().map(|(i, v)| {
            let x0 = SegmentValue::Exact(i);
            let x1 = SegmentValue::Exact(i + 1);
            let mut bar = Rectangle::new([(x0, base), (x1, v.max(base))], Palette99::pick(i).filled());
            bar.set_margin(0, 0, 8, 8);
            bar
        }))
        .map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The main job's configurations span three orders of magnitude (the AABB tree beside CO):
    /// on a linear axis every bar but one was invisible.
    #[test]
    fn bars_spanning_orders_of_magnitude_go_on_a_log_axis() {
        assert_eq!(bar_axis(&[3.4, 5.0, 1873.0]), BarAxis::Log { floor: 1.7, top: 3746.0 });
        assert!(matches!(bar_axis(&[3.4, 5.0, 12.0]), BarAxis::Linear { .. }));
        assert!(matches!(bar_axis(&[0.0, 0.0]), BarAxis::Linear { .. }));
        let scratch = tempfile::Builder::new().prefix("bvh-report-bars-").tempdir().unwrap();
        let dir = scratch.path();
        let mut report = Report::new(dir, "bars").unwrap();
        let bars = [("co".to_string(), 3.4), ("aabb".to_string(), 1873.0)];
        report.bars("log.svg", "per frame", "µs", &bars).unwrap();
        let svg = std::fs::read_to_string(dir.join("log.svg")).unwrap();
        assert!(svg.contains("µs (log scale)"), "the axis says it is logarithmic");
    }
}
