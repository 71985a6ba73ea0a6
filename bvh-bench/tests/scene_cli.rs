//! `bvh-bench scene`: the strategies write identical per-step pairs, the JSON line has the
//! promised fields, objects files work, and bad arguments or files end in a one-line error.

use std::path::PathBuf;
use std::process::{Command, Output};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bvh-bench")).args(args).output().expect("the program runs")
}

/// A folder for one test's files, removed when the test drops it.
fn scratch_dir() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("bvh-scene-cli-").tempdir().unwrap()
}

fn scratch(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

#[test]
fn strategies_agree_step_by_step_and_report_json() {
    let dir = scratch_dir();
    let mut written = Vec::new();
    for strategy in ["hierarchical", "grid", "octree", "brute"] {
        let out = scratch(&dir, &format!("pairs-{strategy}.txt"));
        let run = bench(&[
            "scene",
            "--generate",
            "clustered:400",
            "--strategy",
            strategy,
            "--steps",
            "6",
            "--moving",
            "0.3",
            "--preset",
            "co",
            "--pairs-out",
            out.to_str().unwrap(),
        ]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let json = String::from_utf8(run.stdout).unwrap();
        for key in [
            "objects",
            "steps",
            "step_ms_mean",
            "step_ms_median",
            "candidate_pairs_mean",
            "colliding_pairs_mean",
        ] {
            assert!(json.contains(&format!("\"{key}\":")), "{key} missing from {json}");
        }
        assert!(json.contains("\"objects\":400"));
        written.push(std::fs::read_to_string(out).unwrap());
    }
    assert_eq!(written[0].lines().count(), 6);
    assert!(written[0].contains('-'), "the scene should collide: {}", written[0]);
    assert_eq!(written[0], written[1]);
    assert_eq!(written[0], written[2]);
}

#[test]
fn objects_files_place_shared_meshes() {
    let dir = scratch_dir();
    let mesh = scratch(&dir, "cube.obj");
    let cube = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n\
        f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";
    std::fs::write(&mesh, cube).unwrap();
    let objects = scratch(&dir, "objects.txt");
    let identity = "1 0 0 0 0 1 0 0 0 0 1 0";
    let shifted = "1 0 0 0.5 0 1 0 0.5 0 0 1 0.5";
    let far = "1 0 0 9 0 1 0 9 0 0 1 9";
    std::fs::write(
        &objects,
        format!("# mesh motion pose\ncube.obj static {identity}\ncube.obj dynamic {shifted}\ncube.obj static {far}\n"),
    )
    .unwrap();
    let out = scratch(&dir, "objects-pairs.txt");
    let run = bench(&[
        "scene",
        "--objects",
        objects.to_str().unwrap(),
        "--steps",
        "3",
        "--pairs-out",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8(run.stdout).unwrap().contains("\"objects\":3"));
    // The dynamic cube wanders by millimetres: it keeps crossing the first cube's faces.
    let pairs = std::fs::read_to_string(out).unwrap();
    assert!(pairs.lines().all(|line| line == "0-1"), "{pairs}");
}

#[test]
fn bad_arguments_and_files_give_one_line_errors() {
    let dir = scratch_dir();
    let missing = scratch(&dir, "missing.txt");
    let malformed = scratch(&dir, "malformed.txt");
    std::fs::write(&malformed, "cube.obj sometimes 1 0 0 0 0 1 0 0 0 0 1 0\n").unwrap();
    let short = scratch(&dir, "short.txt");
    std::fs::write(&short, "cube.obj static 1 0 0\n").unwrap();
    let nan = scratch(&dir, "nan.txt");
    std::fs::write(&nan, "cube.obj static 1 0 0 NaN 0 1 0 0 0 0 1 0\n").unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["scene", "--generate", "paper004", "--strategy", "quadtree"],
        vec!["scene", "--generate", "paper004", "--moving", "2"],
        vec!["scene", "--generate", "uniform:lots"],
        vec!["scene", "--generate", "uniform:99999999999"],
        vec!["scene", "--generate", "paper004", "--preset", "nope"],
        vec!["scene", "--objects", missing.to_str().unwrap()],
        vec!["scene", "--objects", malformed.to_str().unwrap()],
        vec!["scene", "--objects", short.to_str().unwrap()],
        vec!["scene", "--objects", nan.to_str().unwrap()],
    ];
    for args in cases {
        let run = bench(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{args:?} should fail");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(stderr.trim().starts_with("error"), "{args:?}: {stderr}");
    }
}

#[test]
fn info_json_escapes_part_names() {
    let dir = scratch_dir();
    let mesh = scratch(&dir, "named.obj");
    std::fs::write(&mesh, "o my \"odd\\part\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    let run = bench(&["info", "--json", mesh.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let json = String::from_utf8(run.stdout).unwrap();
    assert!(json.contains(r#""path":"my \"odd\\part""#), "{json}");
    assert!(json.contains(r#""triangles":1"#) && json.trim().starts_with('{') && json.trim().ends_with('}'));
}

#[path = "../../bvh-io/tests/support/mod.rs"]
mod file_writers;

#[test]
fn info_gives_bounds_in_the_files_own_frame() {
    let dir = scratch_dir();
    // A georeferenced OpenFlight triangle: the reader recentres it, `info` must not.
    let corners = [[4.0e6, -3.0e6, 1.0e3], [4.0e6 + 0.001, -3.0e6, 1.0e3], [4.0e6, -3.0e6 + 0.001, 1.0e3]];
    let vertices: Vec<(u16, [f64; 3])> = corners.iter().map(|&p| (68, p)).collect();
    let (mut flt, v) = file_writers::Flt::new(0, &vertices);
    flt.push().object("tile").push().face(0).push().vertex_list(&v).pop().pop().pop();
    let file = scratch(&dir, "georeferenced.flt");
    std::fs::write(&file, &flt.bytes).unwrap();
    let run = bench(&["info", file.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(text.contains("origin [4000000, -3000000, 1000]"), "{text}");
    assert!(
        text.contains("[4000000.0000, -3000000.0000, 1000.0000] – [4000000.0010, -2999999.9990, 1000.0000]"),
        "{text}"
    );
    let run = bench(&["info", "--json", file.to_str().unwrap()]);
    let json = String::from_utf8(run.stdout).unwrap();
    assert!(json.contains(r#""origin":[4000000.0,-3000000.0,1000.0]"#), "{json}");
    assert!(
        json.contains(r#""bounds":[[4000000.0,-3000000.0,1000.0],[4000000.001,-2999999.999,1000.0]]"#),
        "{json}"
    );
}
