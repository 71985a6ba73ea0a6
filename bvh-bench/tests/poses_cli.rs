//! `bvh-bench poses`: a small run prints its JSON line with parry's figures beside ours, and a
//! mesh parry3d refuses or a bad pose file ends in a one-line error, not a panic.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bvh-bench")).args(args).output().expect("the program runs")
}

/// Writes `text` to a file of its own: the tests run in parallel, and a shared path could be read
/// while another test is rewriting it.
fn scratch(name: &str, text: &str) -> PathBuf {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("bvh-poses-cli-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const TRIANGLE: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
/// Two poses: the same triangle turned about x through the first (touching), and far away.
const POSES: &str = "1 0 0 0.2  0 0 -1 0.2  0 1 0 -0.5\n1 0 0 50  0 1 0 0  0 0 1 0\n";

#[test]
fn a_small_run_reports_both_libraries() {
    let (mesh, poses) = (scratch("triangle.obj", TRIANGLE), scratch("poses.txt", POSES));
    let (mesh, poses) = (mesh.to_str().unwrap(), poses.to_str().unwrap());
    let run =
        bench(&["poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--reps", "1", "--vs-parry"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let json = String::from_utf8(run.stdout).unwrap();
    for key in
        ["\"colliding\":1,", "\"front_mean\":", "\"volume_tests_by_kind_mean\":", "\"parry_query_us_mean\":"]
    {
        assert!(json.contains(key), "{key} missing in {json}");
    }
}

#[test]
fn a_mesh_parry_refuses_is_a_one_line_error() {
    // Vertices but no triangles: ours answers "no contact"; parry3d's constructor refuses it.
    let (mesh, poses) = (scratch("points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n"), scratch("poses.txt", POSES));
    let (mesh, poses) = (mesh.to_str().unwrap(), poses.to_str().unwrap());
    let run =
        bench(&["poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--reps", "1", "--vs-parry"]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

#[test]
fn several_presets_print_one_line_each_with_the_same_answers() {
    let (mesh, poses) = (scratch("triangle.obj", TRIANGLE), scratch("poses.txt", POSES));
    let (mesh, poses) = (mesh.to_str().unwrap(), poses.to_str().unwrap());
    let run = bench(&[
        "poses",
        "--scene",
        mesh,
        "--part",
        mesh,
        "--poses",
        poses,
        "--reps",
        "1",
        "--preset",
        "rapid,co,aabb",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8(run.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    for (line, name) in lines.iter().zip(["rapid", "co", "aabb"]) {
        assert!(line.starts_with(&format!("{{\"preset\":\"{name}\"")), "{line}");
        assert!(line.contains("\"colliding\":1,"), "{line}");
    }
    let unknown = bench(&["poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--preset", "co,nope"]);
    assert!(!unknown.status.success());
    assert_eq!(String::from_utf8_lossy(&unknown.stderr).trim(), "error: unknown preset nope");
}

#[test]
fn cache_both_prints_the_uncached_line_then_the_cached_one() {
    let (mesh, poses) = (scratch("triangle.obj", TRIANGLE), scratch("poses.txt", POSES));
    let (mesh, poses) = (mesh.to_str().unwrap(), poses.to_str().unwrap());
    let run = bench(&[
        "poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--reps", "1", "--cache", "both",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8(run.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    for (line, cached) in lines.iter().zip([false, true]) {
        assert!(line.contains(&format!("\"cache\":{cached},")), "{line}");
        assert!(line.contains("\"colliding\":1,"), "{line}");
    }
    let cached =
        bench(&["poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--reps", "1", "--cache"]);
    assert!(String::from_utf8_lossy(&cached.stdout).contains("\"cache\":true,"));
}

#[test]
fn a_bad_pose_file_is_a_one_line_error_naming_the_line() {
    let mesh = scratch("triangle.obj", TRIANGLE);
    let bad = [
        ("too few numbers", "1 0 0 0  0 1 0 0  0 0 1\n"),
        ("not a number", "1 0 0 0  0 1 0 0  0 0 1 x\n"),
        ("NaN", "1 0 0 0  0 1 0 NaN  0 0 1 0\n"),
        ("infinite", "1 0 0 inf  0 1 0 0  0 0 1 0\n"),
        ("a scale", "2 0 0 0  0 2 0 0  0 0 2 0\n"),
        ("a shear", "1 0.5 0 0  0 1 0 0  0 0 1 0\n"),
        ("a mirror", "-1 0 0 0  0 1 0 0  0 0 1 0\n"),
    ];
    for (what, line) in bad {
        // The bad pose follows a good one, so the message must name line 2.
        let poses = scratch("poses.txt", &format!("1 0 0 0  0 1 0 0  0 0 1 0\n{line}"));
        let (mesh, poses) = (mesh.to_str().unwrap(), poses.to_str().unwrap());
        let run = bench(&["poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--reps", "1"]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{what}");
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{what}: {stderr}");
        assert!(stderr.contains("poses.txt:2"), "{what}: {stderr}");
    }
    // A rotation printed to six digits is accepted.
    let poses = scratch("poses.txt", "0.707107 -0.707107 0 0  0.707107 0.707107 0 0  0 0 1 0\n");
    let (mesh, poses) = (mesh.to_str().unwrap(), poses.to_str().unwrap());
    let run = bench(&["poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--reps", "1"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
}

/// `--query distance`: the touching pose at zero, the far one at its distance (the triangles are
/// 49 apart along x), one `--out` line each with the closest points; a limit below that answers
/// `inf` for the far pose; parry's distance query runs beside ours, and where it differs the
/// reference sides with ours (parry's GJK puts the far pose 0.01 too far).
#[test]
fn distance_writes_each_pose_nearest_points() {
    let (mesh, poses) = (scratch("triangle.obj", TRIANGLE), scratch("poses.txt", POSES));
    let out = scratch("distances.txt", "");
    let (mesh, poses, out) = (mesh.to_str().unwrap(), poses.to_str().unwrap(), out.to_str().unwrap());
    let common =
        ["poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--reps", "1", "--query", "distance"];
    let run = bench(&[&common[..], &["--vs-parry", "--out", out]].concat());
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let json = String::from_utf8(run.stdout).unwrap();
    for key in ["\"touching\":1,", "\"farther\":0,", "\"parry_distance_us_mean\":"] {
        assert!(json.contains(key), "{key} missing in {json}");
    }
    let sides_with_ours =
        json.contains("\"ours\":4.900000000e1,") && json.contains("\"reference\":4.900000000e1");
    assert!(json.contains("\"disagreements\":0,") || sides_with_ours, "{json}");
    let lines: Vec<Vec<f32>> = std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0][0], 0.0);
    assert!((lines[1][0] - 49.0).abs() < 1e-4, "{:?}", lines[1]);
    assert!((lines[1][4] - lines[1][1] - 49.0).abs() < 1e-4, "closest points {:?}", lines[1]);
    let limited = bench(&[&common[..], &["--max-distance", "10", "--out", out]].concat());
    assert!(limited.status.success(), "{}", String::from_utf8_lossy(&limited.stderr));
    assert!(String::from_utf8(limited.stdout).unwrap().contains("\"farther\":1,"));
    assert_eq!(std::fs::read_to_string(out).unwrap().lines().nth(1), Some("inf"));
}
