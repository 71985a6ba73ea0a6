//! Reports write a Markdown page and SVG charts that reference each other.

use bvh_bench::export::Highlights;
use bvh_bench::report::Report;

#[test]
fn a_report_writes_its_page_and_charts() {
    let scratch = tempfile::Builder::new().prefix("bvh-report-test-").tempdir().unwrap();
    let dir = scratch.path();
    let mut report = Report::new(dir, "Test run").unwrap();
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

#[test]
fn contact_frames_export_as_coloured_ply() {
    use bvh_core::{Isometry, Point, TriMesh, Vector};
    let scene = TriMesh::cuboid(Point::origin(), Vector::new(1.0, 1.0, 1.0));
    let far = TriMesh::cuboid(Point::new(50.0, 0.0, 0.0), Vector::new(1.0, 1.0, 1.0));
    let scene = bvh_build::generate::MeshBuilder::new()
        .add(&scene, &Isometry::identity())
        .add(&far, &Isometry::identity())
        .clone()
        .finish();
    let part = TriMesh::uv_sphere(Point::origin(), 0.5, 4, 8);
    let scratch = tempfile::Builder::new().prefix("bvh-export-test-").tempdir().unwrap();
    let path = scratch.path().join("frame.ply");
    let pose = Isometry::translation(1.0, 0.0, 0.0);
    // The near cube's +x face touches the part; only it lies within 0.1 of the part's box.
    let face: Vec<u32> = scene
        .triangles()
        .enumerate()
        .filter(|(_, t)| [t.a, t.b, t.c].iter().all(|p| p.x == 1.0))
        .map(|(i, _)| i as u32)
        .collect();
    assert_eq!(face.len(), 2);
    let touching = [(face[0], 0), (face[1], 1)];
    let faces = bvh_bench::export::write_contact_ply(
        &path,
        &scene,
        &part,
        &pose,
        &Highlights::touching(&touching),
        0.1,
    )
    .unwrap();
    assert_eq!(faces, 2 + part.triangle_count());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("ply\nformat ascii 1.0\n"));
    assert!(text.contains(&format!("element face {faces}")));
    assert_eq!(
        text.lines().filter(|l| l.ends_with(" 230 40 30")).count(),
        4,
        "two scene and two part triangles in red"
    );
}
