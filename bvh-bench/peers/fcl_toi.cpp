// FCL 0.7's conservative advancement on the motions of a pose file (each pose to the next, the
// scene fixed at the origin): the peer of `bvh-bench poses --query toi`. Built and run by
// scripts/toi_suite.sh against the system FCL (libfcl-dev), with the anchors' OBJ and pose
// readers (../shared/anchors/common).
// usage: fcl-toi A.obj B.obj POSES OUT [--motion linear|screw] [--bv rss|obbrss] [--reps 3]
//                [--solver ca|naive]   (naive: FCL's default sampling of 10 poses, for reference)
// Prints one JSON line; writes OUT, a line per motion: FCL's time of contact (or none) and the
// motion's median time in microseconds.
#include <fcl/fcl.h>

#include <cstring>
#include <iostream>

#include "anchor_common.hpp"

using namespace anchor;

template <class BV>
std::shared_ptr<fcl::BVHModel<BV>> build(const Mesh& m) {
  std::vector<fcl::Vector3d> v;
  for (auto& p : m.v) v.emplace_back(p[0], p[1], p[2]);
  std::vector<fcl::Triangle> t;
  for (auto& f : m.f) t.emplace_back(f[0], f[1], f[2]);
  auto g = std::make_shared<fcl::BVHModel<BV>>();
  g->beginModel(int(t.size()), int(v.size()));
  g->addSubModel(v, t);
  g->endModel();
  g->computeLocalAABB();
  return g;
}

fcl::Transform3d transform(const Pose12& p) {
  fcl::Matrix3d r;
  r << p[0], p[1], p[2], p[4], p[5], p[6], p[8], p[9], p[10];
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  tf.linear() = r;
  tf.translation() = fcl::Vector3d(p[3], p[7], p[11]);
  return tf;
}

template <class BV>
int run(const Mesh& ma, const Mesh& mb, const std::vector<Pose12>& poses, const std::string& out,
        fcl::CCDMotionType motion, fcl::CCDSolverType solver, int reps) {
  auto ga = build<BV>(ma), gb = build<BV>(mb);
  size_t n = poses.size() < 2 ? 0 : poses.size() - 1;
  std::vector<double> toc(n, -1.0);
  std::vector<std::vector<double>> us(n);
  fcl::ContinuousCollisionRequestd request;
  request.ccd_solver_type = solver;
  request.ccd_motion_type = motion;
  request.gjk_solver_type = fcl::GST_LIBCCD;
  const fcl::Transform3d here = fcl::Transform3d::Identity();
  for (int rep = 0; rep < std::max(1, reps); ++rep) {
    for (size_t k = 0; k < n; ++k) {
      fcl::ContinuousCollisionResultd result;
      auto t0 = Clock::now();
      fcl::continuousCollide(ga.get(), here, here, gb.get(), transform(poses[k]), transform(poses[k + 1]), request,
                             result);
      us[k].push_back(ms_since(t0) * 1e3);
      toc[k] = result.is_collide ? result.time_of_contact : -1.0;
    }
  }
  std::vector<double> per(n);
  double sum = 0;
  size_t hits = 0;
  FILE* fh = std::fopen(out.c_str(), "w");
  for (size_t k = 0; k < n; ++k) {
    per[k] = median(us[k]);
    sum += per[k];
    hits += toc[k] >= 0;
    if (toc[k] >= 0) std::fprintf(fh, "%.9f %.3f\n", toc[k], per[k]);
    else std::fprintf(fh, "none %.3f\n", per[k]);
  }
  std::fclose(fh);
  std::sort(per.begin(), per.end());
  std::printf("{\"backend\":\"fcl\",\"version\":\"%s\",\"motions\":%zu,\"hits\":%zu,\"query_us_mean\":%.3f,"
              "\"query_us_median\":%.3f,\"out\":\"%s\"}\n",
              FCL_VERSION, n, hits, n ? sum / double(n) : 0.0, n ? pct(per, 0.5) : 0.0, out.c_str());
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s A.obj B.obj POSES OUT [--motion linear|screw] [--bv rss|obbrss] [--reps 3]\n",
                 argv[0]);
    return 2;
  }
  std::string motion = "linear", bv = "rss", solver = "ca";
  int reps = 3;
  for (int i = 5; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--motion")) motion = argv[i + 1];
    else if (!std::strcmp(argv[i], "--bv")) bv = argv[i + 1];
    else if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--solver")) solver = argv[i + 1];
  }
  Mesh ma = load_obj(argv[1]), mb = load_obj(argv[2]);
  auto poses = load_poses(argv[3]);
  auto kind = motion == "screw" ? fcl::CCDM_SCREW : fcl::CCDM_LINEAR;
  auto how = solver == "naive" ? fcl::CCDC_NAIVE : fcl::CCDC_CONSERVATIVE_ADVANCEMENT;
  if (bv == "obbrss") return run<fcl::OBBRSSd>(ma, mb, poses, argv[4], kind, how, reps);
  return run<fcl::RSSd>(ma, mb, poses, argv[4], kind, how, reps);
}
