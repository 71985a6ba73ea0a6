//! Reports write a Markdown page and SVG charts that reference each other.

use bvh_bench::report::Report;

#[test]
fn a_report_writes_its_page_and_charts() {
    let dir = std::env::temp_dir().join(format!("bvh-report-test-{}", std::process::id()));
    let mut report = Report::new(&dir, "Test run").unwrap();
    report.table(&["preset", "µs"], &[vec!["co".into(), "3.9".into()], vec!["rapid".into(), "23.0".into()]]);
    report
        .bars("bars.svg", "time per configuration", "µs", &[("co".into(), 3.9), ("rapid".into(), 23.0)])
        .unwrap();
    let series = vec![("co".to_string(), vec![(0.0, 1.0), (1.0, 3.0), (2.0, 2.0)])];
    report.lines("lines.svg", "time per frame", ("frame", "µs"), &series).unwrap();
    let page = std::fs::read_to_string(report.finish().unwrap()).unwrap();
    assert!(page.starts_with("# Test run"));
    assert!(page.contains("| co | 3.9 |") && page.contains("](bars.svg)") && page.contains("](lines.svg)"));
    for chart in ["bars.svg", "lines.svg"] {
        let svg = std::fs::read_to_string(dir.join(chart)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{chart} is not an SVG");
        assert!(svg.contains("time per"), "{chart} lacks its title");
    }
    assert!(std::fs::read_to_string(dir.join("bars.svg")).unwrap().contains("rapid"), "bar labels are drawn");
}
