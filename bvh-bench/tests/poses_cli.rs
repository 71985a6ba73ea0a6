//! `bvh-bench poses`: a small run prints its JSON line with parry's figures beside ours, and a
//! mesh parry3d refuses or a bad pose file ends in a one-line error, not a panic. `bvh-bench
//! peer-pairs` on the same files: a peer's pairs judged against ours.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bvh-bench")).args(args).output().expect("the program runs")
}

/// A file of its own holding `text`, in a folder removed when it is dropped: the tests run in
/// parallel, and a shared path could be read while another test is rewriting it.
struct Scratch {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

fn scratch(name: &str, text: &str) -> Scratch {
    let dir = tempfile::Builder::new().prefix("bvh-poses-cli-").tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    Scratch { _dir: dir, path }
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
    for key in [
        "\"query\":\"any\",",
        "\"colliding\":1,",
        "\"front_mean\":",
        "\"volume_tests_by_kind_mean\":",
        "\"parry_query_us_mean\":",
    ] {
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
fn parry_is_compared_only_on_queries_it_has() {
    let (mesh, poses) = (scratch("triangle.obj", TRIANGLE), scratch("poses.txt", POSES));
    let (mesh, poses) = (mesh.to_str().unwrap(), poses.to_str().unwrap());
    for query in ["within=0.1", "regions", "toi"] {
        let args = ["poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--reps", "1", "--vs-parry"];
        let run = bench(&[&args[..], &["--query", query]].concat());
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{query}");
        assert!(stderr.starts_with("error: --vs-parry compares any, all and distance"), "{stderr}");
    }
}

/// `bvh-bench poses` on the touching triangle and its two poses, one repetition, with
/// `options` added.
fn triangle_bench(options: &[&str]) -> Output {
    let (mesh, poses) = (scratch("triangle.obj", TRIANGLE), scratch("poses.txt", POSES));
    let (mesh, poses) = (mesh.to_str().unwrap(), poses.to_str().unwrap());
    let mut args = vec!["poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--reps", "1"];
    args.extend_from_slice(options);
    bench(&args)
}

/// The JSON lines of a [`triangle_bench`] run, which must succeed.
fn triangle_run(options: &[&str]) -> Vec<String> {
    let run = triangle_bench(options);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    String::from_utf8(run.stdout).unwrap().lines().map(String::from).collect()
}

#[test]
fn several_presets_print_one_line_each_with_the_same_answers() {
    let lines = triangle_run(&["--preset", "rapid,co,aabb"]);
    assert_eq!(lines.len(), 3, "{lines:?}");
    for (line, name) in lines.iter().zip(["rapid", "co", "aabb"]) {
        assert!(line.starts_with(&format!("{{\"preset\":\"{name}\"")), "{line}");
        assert!(line.contains("\"colliding\":1,"), "{line}");
    }
    let unknown = triangle_bench(&["--preset", "co,nope"]);
    assert!(!unknown.status.success());
    let refused = String::from_utf8_lossy(&unknown.stderr);
    assert!(refused.contains("invalid value 'nope'") && refused.contains("co-binned"), "{refused}");
}

#[test]
fn a_warm_run_says_so_and_answers_alike() {
    for query in ["any", "all"] {
        let (cold, warm) = (triangle_run(&["--query", query]), triangle_run(&["--query", query, "--warm"]));
        assert!(cold[0].contains("\"warm\":false,") && warm[0].contains("\"warm\":true,"), "{warm:?}");
        for line in [&cold[0], &warm[0]] {
            assert!(line.contains("\"colliding\":1,"), "{line}");
        }
    }
    // The untimed run would move a carried cache on to the pose it then times.
    let refused = triangle_bench(&["--warm", "--cache"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cannot be used with"));
}

#[test]
fn cache_both_prints_the_uncached_line_then_the_cached_one() {
    let lines = triangle_run(&["--cache", "both"]);
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (line, cached) in lines.iter().zip([false, true]) {
        assert!(line.contains(&format!("\"cache\":{cached},")), "{line}");
        assert!(line.contains("\"colliding\":1,"), "{line}");
    }
    assert!(triangle_run(&["--cache"])[0].contains("\"cache\":true,"));
}

/// Both toggles both ways: a line for each of the four, the pre-judge varying fastest, all with
/// the same answer; with the pre-judge off no query (time of impact too) gives verdicts.
#[test]
fn prejudge_both_with_cache_both_prints_four_lines() {
    let lines = triangle_run(&["--cache", "both", "--prejudge", "both"]);
    assert_eq!(lines.len(), 4, "{lines:?}");
    let ways = [(false, false), (false, true), (true, false), (true, true)];
    for (line, (cached, prejudge)) in lines.iter().zip(ways) {
        assert!(line.contains(&format!("\"prejudge\":{prejudge},")), "{line}");
        assert!(line.contains(&format!("\"cache\":{cached},")), "{line}");
        assert!(line.contains("\"colliding\":1,"), "{line}");
    }
    let toi = triangle_run(&["--query", "toi", "--prejudge", "off"]);
    assert!(
        toi[0].contains("\"prejudge\":false,") && toi[0].contains("\"prejudge_undecided\":0,"),
        "{toi:?}"
    );
    let off = &triangle_run(&["--prejudge", "off"])[0];
    for key in [
        "\"prejudge\":false,",
        "\"prejudge_overlap\":0,",
        "\"prejudge_disjoint\":0,",
        "\"prejudge_undecided\":0,",
    ] {
        assert!(off.contains(key), "{key} missing in {off}");
    }
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
    let sides_with_ours = json.contains("\"ours\":49.0,") && json.contains("\"reference\":49.0");
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

/// A cube of side 2 about the origin.
const CUBE: &str = "v -1 -1 -1\nv 1 -1 -1\nv -1 1 -1\nv 1 1 -1\nv -1 -1 1\nv 1 -1 1\nv -1 1 1\nv 1 1 1\n\
f 1 3 2\nf 2 3 4\nf 5 6 7\nf 6 8 7\nf 1 2 5\nf 2 6 5\nf 3 7 4\nf 4 7 8\nf 1 5 3\nf 3 5 7\nf 2 4 6\nf 4 8 6\n";

/// `--query toi`: each pose to the next as a motion. The cube coming from x = 10 to 0 meets the
/// other when its face reaches x = 1 (t = 0.8); the next motion starts overlapping (t = 0); the
/// last passes far beside it (none).
#[test]
fn toi_takes_each_pose_to_the_next() {
    let poses = "1 0 0 10  0 1 0 0  0 0 1 0\n1 0 0 0  0 1 0 0  0 0 1 0\n\
                 1 0 0 0  0 1 0 10  0 0 1 0\n1 0 0 20  0 1 0 10  0 0 1 0\n";
    let (mesh, poses) = (scratch("cube.obj", CUBE), scratch("poses.txt", poses));
    let out = scratch("toi.txt", "");
    let (mesh, poses, out) = (mesh.to_str().unwrap(), poses.to_str().unwrap(), out.to_str().unwrap());
    let common =
        ["poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--reps", "1", "--query", "toi"];
    for motion in ["slerp", "screw"] {
        let run = bench(&[&common[..], &["--motion", motion, "--tolerance", "1e-3", "--out", out]].concat());
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let json = String::from_utf8(run.stdout).unwrap();
        for key in ["\"motions\":3,", "\"hits\":2,", "\"touching_at_start\":1,", "\"advances_mean\":"] {
            assert!(json.contains(key), "{key} missing in {json}");
        }
        let lines: Vec<String> = std::fs::read_to_string(out).unwrap().lines().map(String::from).collect();
        let t: f64 = lines[0].parse().unwrap();
        assert!((0.8 - 1e-4..=0.8).contains(&t), "{t}");
        assert_eq!(lines[1..], ["0.000000000", "none"]);
    }
}

/// `bvh-bench toi`: one motion as JSON, the contact's normal pointing from the scene to the part;
/// a tolerance that is no distance is a one-line error.
#[test]
fn toi_answers_one_motion() {
    let mesh = scratch("cube.obj", CUBE);
    let mesh = mesh.to_str().unwrap();
    let one = |extra: &[&str]| {
        let args = ["toi", "--scene", mesh, "--part", mesh, "--from", "1 0 0 10 0 1 0 0 0 0 1 0", "--to"];
        bench(&[&args[..], &["1 0 0 0 0 1 0 0 0 0 1 0"], extra].concat())
    };
    let run = one(&["--json"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let json = String::from_utf8(run.stdout).unwrap();
    assert!(
        json.contains("\"hit\":true,\"t\":0.7999") && json.contains("\"normal\":[1.0,0.0,0.0]"),
        "{json}"
    );
    let text = String::from_utf8(one(&["--motion", "screw"]).stdout).unwrap();
    assert!(text.starts_with("first within 0.001 at t = 0.7999"), "{text}");
    let bad = one(&["--tolerance=-1"]);
    assert!(!bad.status.success());
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        stderr.starts_with("error: the tolerance must be a positive") && !stderr.contains("panicked"),
        "{stderr}"
    );
}

/// `--query toi --verify N`: every preset's answers judged by N + 1 samples of each motion (none
/// late, none missed, none far), and `--out` with the first touching sample and the time.
#[test]
fn toi_verify_judges_every_preset() {
    let poses = "1 0 0 10  0 1 0 0  0 0 1 0\n0 -1 0 0  1 0 0 0.5  0 0 1 0\n1 0 0 0  0 1 0 10  0 0 1 0\n";
    let (mesh, poses) = (scratch("cube.obj", CUBE), scratch("poses.txt", poses));
    let out = scratch("toi.txt", "");
    let (mesh, poses, out) = (mesh.to_str().unwrap(), poses.to_str().unwrap(), out.to_str().unwrap());
    let run = bench(&[
        "poses", "--scene", mesh, "--part", mesh, "--poses", poses, "--reps", "1", "--query", "toi",
        "--preset", "co,aabb", "--verify", "100", "--out", out,
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let json = String::from_utf8(run.stdout).unwrap();
    assert_eq!(json.lines().count(), 2, "{json}");
    for line in json.lines() {
        for key in ["\"sampled_contacts\":2,", "\"late\":0,", "\"missed\":0,", "\"far_at_answer\":0"] {
            assert!(line.contains(key), "{key} missing in {line}");
        }
    }
    let lines: Vec<Vec<String>> = std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect();
    assert_eq!(lines.len(), 2);
    // The first motion meets the other cube a little before the sample that first touches.
    let (t, sample): (f64, f64) = (lines[0][0].parse().unwrap(), lines[0][1].parse().unwrap());
    assert!(t <= sample && sample - t <= 0.011, "{t} {sample}");
    assert_eq!(lines[1][..2], ["0.000000000", "0.000000000"]);
    assert!(lines.iter().all(|l| l.len() == 3 && l[2].parse::<f64>().is_ok()), "{lines:?}");
}

/// `contacts`: the regions at one pose as JSON (a cube pressed 0.1 into another's top face:
/// one region, normal +z, depth 0.1, four points; turned, the pose's first number negative, one
/// region with normal +z);
/// `poses --query regions` counts them per pose.
#[test]
fn contacts_and_regions() {
    let mesh = scratch("cube.obj", CUBE);
    let mesh = mesh.to_str().unwrap();
    let pose = "1 0 0 0  0 1 0 0  0 0 1 1.9";
    let run = bench(&["contacts", "--scene", mesh, "--part", mesh, "--pose", pose, "--json"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let json = String::from_utf8(run.stdout).unwrap();
    assert!(json.starts_with("{\"regions\":[{\"normal\":[0.0,0.0,1.0],\"depth\":0.1000"), "{json}");
    assert_eq!(json.matches("\"normal\"").count(), 1, "{json}");
    // A pose starting with a negative number is a pose, not a flag: the cube turned half round
    // its axis meets the other along the same face (its sides flush with the other's, so the
    // depth is left to rounding, as docs/regions.md says).
    let turned = "-1 0 0 0  0 -1 0 0  0 0 1 1.9";
    let run = bench(&["contacts", "--scene", mesh, "--part", mesh, "--pose", turned, "--json"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let turned_json = String::from_utf8(run.stdout).unwrap();
    assert!(turned_json.starts_with("{\"regions\":[{\"normal\":[0.0,0.0,1.0]"), "{turned_json}");
    assert_eq!(turned_json.matches("\"normal\"").count(), 1, "{turned_json}");
    let poses = scratch("poses.txt", "1 0 0 0  0 1 0 0  0 0 1 1.9\n1 0 0 5  0 1 0 0  0 0 1 0\n");
    let out = scratch("regions.txt", "");
    let run = bench(&[
        "poses",
        "--scene",
        mesh,
        "--part",
        mesh,
        "--poses",
        poses.to_str().unwrap(),
        "--reps",
        "1",
        "--query",
        "regions",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(std::fs::read_to_string(out).unwrap(), "1\n0\n");
}

/// `export`: a cube pressed between two walls makes two regions; the PLY colours each in its
/// own colour (red, orange) on both meshes and draws each normal as two thin triangles.
#[test]
fn export_colours_each_region() {
    let cube = |dx: f32, first: usize| {
        let v: String = CUBE
            .lines()
            .filter(|l| l.starts_with("v "))
            .map(|l| {
                let c: Vec<f32> = l[2..].split_whitespace().map(|x| x.parse().unwrap()).collect();
                format!("v {} {} {}\n", c[0] + dx, c[1], c[2])
            })
            .collect();
        let f: String = CUBE
            .lines()
            .filter(|l| l.starts_with("f "))
            .map(|l| {
                let i: Vec<usize> = l[2..].split_whitespace().map(|x| x.parse().unwrap()).collect();
                format!("f {} {} {}\n", i[0] + first, i[1] + first, i[2] + first)
            })
            .collect();
        (v, f)
    };
    let ((v1, f1), (v2, f2)) = (cube(-1.5, 0), cube(1.5, 8));
    let walls = scratch("walls.obj", &format!("{v1}{v2}{f1}{f2}"));
    let part = scratch("cube.obj", CUBE);
    let ply = scratch("frame.ply", "");
    let run = bench(&[
        "export",
        "--scene",
        walls.to_str().unwrap(),
        "--part",
        part.to_str().unwrap(),
        "--pose",
        "1 0 0 0  0 1 0 0  0 0 1 0",
        "--out",
        ply.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let said = String::from_utf8(run.stdout).unwrap();
    // Of the walls, the ten triangles of each within the margin of the part's box.
    assert!(said.contains(": 36 faces, 2 contact regions"), "{said}");
    let text = std::fs::read_to_string(ply).unwrap();
    let faces: Vec<&str> = text.lines().skip_while(|l| *l != "end_header").skip(1 + 36 * 3).collect();
    assert_eq!(faces.len(), 36);
    let coloured = |rgb: &str| faces.iter().filter(|l| l.ends_with(rgb)).count();
    // Each region: triangles on both meshes, and its arrow's two.
    assert!(coloured(" 230 40 30") > 2 && coloured(" 250 170 20") > 2, "{faces:?}");
    let arrows = &faces[32..];
    assert!(arrows[..2].iter().all(|l| l.ends_with(" 230 40 30")), "{arrows:?}");
    assert!(arrows[2..].iter().all(|l| l.ends_with(" 250 170 20")), "{arrows:?}");
}

/// `figures`: a picture per test shape and a page whose table gives what each region reports
/// (the box pressed 0.1 into the other: normal +z, depth 0.1; the prongs: two regions).
#[test]
fn figures_draw_the_test_shapes() {
    let scratch = scratch("unused", "");
    let dir = scratch.parent().unwrap().join("figures");
    let run = bench(&["figures", "--out", dir.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    for name in ["boxes", "spheres", "prongs", "overhang"] {
        let svg = std::fs::read_to_string(dir.join(format!("regions_{name}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<polygon"), "{name}");
    }
    let page = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(page.contains("| 0 | 10 | (0.000, 0.000, 1.000) | 0.1000 |"), "{page}");
    assert!(page.contains("| 1 | 12 | (-1.000, 0.000, 0.000) | 0.0500 |"), "{page}");
}

/// A peer that reports the touching pair at the far pose too and misses it at the touching one:
/// one pair only it reports, 49 apart, and one only we report, touching.
#[test]
fn peer_pairs_measures_the_pairs_only_one_side_reports() {
    let (mesh, poses) = (scratch("triangle.obj", TRIANGLE), scratch("poses.txt", POSES));
    let peer = scratch("peer.json", r#"{"0": [], "1": [[0, 0]]}"#);
    let (mesh, poses, peer) = (mesh.to_str().unwrap(), poses.to_str().unwrap(), peer.to_str().unwrap());
    let run = bench(&["peer-pairs", "--scene", mesh, "--part", mesh, "--poses", poses, "--pairs", peer]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let lines: Vec<String> = String::from_utf8(run.stdout).unwrap().lines().map(String::from).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with(r#"{"pose":0,"ours":1,"peer":0,"#), "{}", lines[0]);
    assert!(
        lines[0].contains(r#""ours_only":[{"scene":0,"part":0,"distance":0.0,"ulps":0.0}]"#),
        "{}",
        lines[0]
    );
    assert!(lines[1].contains(r#""peer_only":[{"scene":0,"part":0,"distance":49.0,"#), "{}", lines[1]);
    assert!(
        lines[2].starts_with(r#"{"poses":2,"poses_differing":2,"peer_only":1,"ours_only":1,"#),
        "{}",
        lines[2]
    );
    // A pose past the file, or a file that is not the peer's JSON, is a one-line error.
    for bad in [r#"{"2": []}"#, r#"{"0": [[0, 5]]}"#, "[[0, 0]]"] {
        let peer = scratch("peer.json", bad);
        let run = bench(&[
            "peer-pairs",
            "--scene",
            mesh,
            "--part",
            mesh,
            "--poses",
            poses,
            "--pairs",
            peer.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{bad}");
        assert!(!stderr.contains("panicked") && stderr.trim().lines().count() == 1, "{bad}: {stderr}");
    }
}
