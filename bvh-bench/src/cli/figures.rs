//! `bvh-bench figures`: pictures of contact regions on the shapes `docs/regions.md` describes –
//! each region's intersection curve, contact points and normal over the two meshes, seen from
//! one side, with a table of what each region reports.

use crate::contacts::regions_at;
use bvh_bench::export::REGION_COLOURS;
use bvh_bench::report::{Drawing, Mark, Report};
use bvh_build::generate::MeshBuilder;
use bvh_build::{Hierarchy, Preset};
use bvh_core::{Isometry, Point, TriMesh, Vector};
use bvh_query::{ContactRegion, Surfaces};
use std::path::PathBuf;

const A_COLOUR: [u8; 3] = [150, 150, 150];
const B_COLOUR: [u8; 3] = [70, 120, 220];

/// Two meshes, B at a pose, and what the picture is called.
struct Figure {
    file: &'static str,
    title: &'static str,
    a: TriMesh,
    b: TriMesh,
    pose_b: Isometry,
}

fn figures() -> Vec<Figure> {
    let cube = |x: f32, y: f32, z: f32, half: Vector| TriMesh::cuboid(Point::new(x, y, z), half);
    let joined = |meshes: &[TriMesh]| {
        let mut builder = MeshBuilder::new();
        for mesh in meshes {
            builder.add(mesh, &Isometry::identity());
        }
        builder.finish()
    };
    let along = Vector::new(0.6, 0.5, 0.6).normalize() * 1.4;
    vec![
        Figure {
            file: "regions_boxes.svg",
            title: "A box pressed 0.1 into another's top face",
            a: cube(0.0, 0.0, 0.0, Vector::new(1.0, 1.0, 1.0)),
            b: cube(0.0, 0.0, 0.0, Vector::new(0.5, 0.5, 0.5)),
            pose_b: Isometry::translation(0.3, 0.2, 1.4),
        },
        Figure {
            file: "regions_spheres.svg",
            title: "Spheres of radii 1 and 0.5, centres 1.4 apart",
            a: TriMesh::uv_sphere(Point::origin(), 1.0, 12, 24),
            b: TriMesh::uv_sphere(Point::origin(), 0.5, 12, 24),
            pose_b: Isometry::translation(along.x, along.y, along.z),
        },
        Figure {
            file: "regions_prongs.svg",
            title: "Two prongs pressed 0.05 onto a bar from both sides",
            a: joined(&[
                cube(-0.6, 0.0, 0.0, Vector::new(0.15, 0.5, 0.5)),
                cube(0.6, 0.0, 0.0, Vector::new(0.15, 0.5, 0.5)),
            ]),
            b: cube(0.0, 0.0, 0.0, Vector::new(0.5, 2.0, 0.2)),
            pose_b: Isometry::identity(),
        },
        Figure {
            file: "regions_overhang.svg",
            title: "A box overhanging the edge of the face it presses into",
            a: cube(0.0, 0.0, 0.0, Vector::new(1.0, 1.0, 1.0)),
            b: cube(0.0, 0.0, 0.0, Vector::new(1.0, 1.0, 1.0)),
            pose_b: Isometry::translation(0.5, 0.3, 1.9),
        },
    ]
}

/// `bvh-bench figures`' arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The folder to write.
    #[arg(long, default_value = "bvh-report/figures")]
    out: PathBuf,
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let out = args.out.as_path();
    let mut report = Report::new(out, "Contact regions on the test shapes").map_err(|e| e.to_string())?;
    report.text(concat!(
        "A in grey, B in blue, seen from one side. Each region in a colour of its own: its ",
        "intersection curve, its contact points (dots) and its normal (the arrow, as long as the ",
        "depth or a third of the region's width). Drawn by `bvh-bench figures`."
    ));
    let preset = Preset::co();
    for figure in figures() {
        let a = Hierarchy::build(figure.a.clone(), &preset);
        let b = Hierarchy::build(figure.b.clone(), &preset);
        let regions = regions_at(&a, &b, &figure.pose_b, Surfaces::Closed)?;
        report.drawing(figure.file, figure.title, &drawing(&figure, &regions))?;
        let rows: Vec<Vec<String>> = regions
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let v = |v: &Vector| format!("({:.3}, {:.3}, {:.3})", v.x, v.y, v.z);
                let points: Vec<String> = r.points.iter().map(|p| v(&p.coords)).collect();
                vec![
                    k.to_string(),
                    r.pairs.len().to_string(),
                    v(&r.normal),
                    format!("{:.4}", r.depth),
                    points.join(" "),
                ]
            })
            .collect();
        report.table(&["region", "pairs", "normal", "depth", "points"], &rows);
    }
    let page = report.finish().map_err(|e| e.to_string())?;
    println!("{}", page.display());
    Ok(())
}

/// The meshes' triangles far to near, shaded and half clear, then each region on top.
fn drawing(figure: &Figure, regions: &[ContactRegion]) -> Drawing {
    let eye = Vector::new(0.9, -1.5, 0.8).normalize();
    let right = Vector::z().cross(&eye).normalize();
    let up = eye.cross(&right);
    let flat = |p: &Point| (p.coords.dot(&right) as f64, p.coords.dot(&up) as f64);
    let light = Vector::new(0.3, -0.6, 1.0).normalize();
    let mut faces: Vec<(f32, Mark)> = Vec::new();
    for (mesh, pose, colour) in
        [(&figure.a, Isometry::identity(), A_COLOUR), (&figure.b, figure.pose_b, B_COLOUR)]
    {
        for t in mesh.triangles() {
            let corners = [pose * t.a, pose * t.b, pose * t.c];
            let normal = (corners[1] - corners[0]).cross(&(corners[2] - corners[0]));
            let shade = 0.6 + 0.4 * normal.try_normalize(0.0).map_or(0.0, |n| n.dot(&light).abs());
            let depth = corners.iter().map(|p| p.coords.dot(&eye)).sum::<f32>();
            let colour = colour.map(|c| (c as f32 * shade) as u8);
            faces.push((
                depth,
                Mark::Polygon { points: corners.iter().map(flat).collect(), colour, opacity: 0.3 },
            ));
        }
    }
    faces.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut marks: Vec<Mark> = faces.into_iter().map(|(_, m)| m).collect();
    for (k, region) in regions.iter().enumerate() {
        let colour = REGION_COLOURS[k % REGION_COLOURS.len()];
        for line in &region.curve {
            let points = line.points.iter().map(flat).collect();
            marks.push(Mark::Line { points, colour, width: 3, closed: line.closed });
        }
        marks.extend(region.points.iter().map(|p| Mark::Dot { at: flat(p), colour, radius: 5 }));
        let from = region.centre();
        let width = region.points.iter().map(|p| (p - from).norm()).fold(0.0, f32::max) * 2.0;
        let tip = from + region.normal * region.depth.max(width / 3.0);
        let back = (from - tip) * 0.2;
        let side =
            region.normal.cross(&eye).try_normalize(0.0).unwrap_or_else(Vector::zeros) * back.norm() * 0.5;
        marks.push(Mark::Line {
            points: vec![flat(&from), flat(&tip)],
            colour: [0, 0, 0],
            width: 3,
            closed: false,
        });
        marks.push(Mark::Line {
            points: vec![flat(&(tip + back + side)), flat(&tip), flat(&(tip + back - side))],
            colour: [0, 0, 0],
            width: 3,
            closed: false,
        });
    }
    Drawing { marks }
}
