#include <catch2/catch.hpp>

#include "physics/topology.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

namespace {
TpuSlice slice(const Hardware& hw, std::array<int, 3> shape, int dims, Diagnostics& d) {
  return describe_tpu_slice(hw, shape, dims, "/mesh/shape", d);
}
}  // namespace

TEST_CASE("v5p slices wrap only when made of whole 4x4x4 cubes (scaling-book/tpus, wraparound)", "[topology]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  Diagnostics d;
  const TpuSlice cube = slice(v5p, {4, 4, 4}, 3, d);
  CHECK(cube.wraps[0]);
  CHECK(cube.wraps[2]);
  CHECK(cube.chips == 64);
  CHECK(cube.hosts == 16);  // 4 chips per host
  CHECK(cube.cores == 128);
  CHECK_THAT(cube.peak_flops_per_s, WithinRel(64 * 4.59e14, 1e-12));
  const TpuSlice sub = slice(v5p, {2, 2, 4}, 3, d);
  CHECK_FALSE(sub.wraps[2]);  // a 2x2x4 sub-cube has no wraparound even on its 4-long axis
  CHECK(d.empty());
  // The full pod is 16x20x28 = 8960 chips, in any axis order.
  CHECK(slice(v5p, {28, 16, 20}, 3, d).chips == 8960);
  CHECK(d.empty());
  slice(v5p, {32, 16, 16}, 3, d);
  CHECK(test::has_code(d, "slice_too_large", "/mesh/shape"));
}

TEST_CASE("v5e axes wrap on their own, only when 16 long (scaling-book/tpus, wraparound)", "[topology]") {
  const Hardware v5e = test::hardware("tpu-v5e");
  Diagnostics d;
  const TpuSlice s = slice(v5e, {8, 16, 1}, 2, d);
  CHECK_FALSE(s.wraps[0]);
  CHECK(s.wraps[1]);
  CHECK(s.hosts == 16);  // 8 chips per host
  slice(v5e, {4, 4, 4}, 3, d);
  CHECK(test::has_code(d, "too_many_axes"));
}

TEST_CASE("point-to-point transfers: bytes over ports plus hops of latency (scaling-book/tpus, ICI transfers)",
          "[topology]") {
  CHECK_THAT(tpu_transfer_s(4.5e10, 3, 1, 4.5e10, 1e-6), WithinRel(1.0 + 3e-6, 1e-12));
  CHECK_THAT(tpu_transfer_s(4.5e10, 0, 2, 4.5e10, 1e-6), WithinRel(0.5, 1e-12));
  Diagnostics d;
  const TpuSlice ring = slice(test::hardware("tpu-v5p"), {4, 4, 4}, 3, d);
  CHECK(tpu_hops(ring, {0, 0, 0}, {3, 0, 0}) == 1);  // the wraparound link
  const TpuSlice line = slice(test::hardware("tpu-v5p"), {2, 2, 4}, 3, d);
  CHECK(tpu_hops(line, {0, 0, 0}, {0, 0, 3}) == 3);
}

TEST_CASE("a GPU cluster's levels follow the fat tree (scaling-book/gpus, beyond the node level)", "[topology]") {
  const Hardware h100 = test::hardware("h100-sxm");
  const GpuCluster one = describe_gpu_cluster(h100, 8);
  CHECK(one.levels == 1);
  const GpuCluster pod = describe_gpu_cluster(h100, 1024);
  REQUIRE(pod.levels == 3);
  CHECK(pod.domains == 128);
  CHECK(pod.domain_egress_unidir_bytes_per_s == 400e9);
  CHECK(pod.level[1].capacity_gpus == 256);   // scalable unit
  CHECK(pod.level[2].capacity_gpus == 1024);  // SuperPod
  // Past the top of the tree the top level grows rather than shrinking.
  CHECK(describe_gpu_cluster(h100, 16384).level[2].children_per_parent == 64);
}

TEST_CASE("a route that changes two torus axes has two disjoint shortest paths (scaling-book/tpus, Question 5)",
          "[topology]") {
  Diagnostics d;
  const TpuSlice v5e = slice(test::hardware("tpu-v5e"), {4, 4, 1}, 2, d);
  // TPU{0,0} -> TPU{3,3} on a 4x4 without wraparound: half the array right then down, half down then right.
  CHECK(tpu_route_ports(v5e, {0, 0, 0}, {3, 3, 0}) == 2);
  CHECK(tpu_route_ports(v5e, {0, 0, 0}, {3, 0, 0}) == 1);
  CHECK(tpu_route_ports(v5e, {1, 2, 0}, {1, 2, 0}) == 0);
  // Halfway round a ring both directions are shortest.
  const TpuSlice ring = slice(test::hardware("tpu-v5e"), {16, 16, 1}, 2, d);
  CHECK(tpu_route_ports(ring, {0, 0, 0}, {8, 0, 0}) == 2);
  CHECK(tpu_route_ports(ring, {0, 0, 0}, {8, 1, 0}) == 3);
}

TEST_CASE("issue 39: each fat-tree level's AllGather bandwidth, and the slowest sets the cluster's (GPUs chapter)",
          "[topology]") {
  // The H100 SuperPod of the GPUs chapter: T = B max_i (D_i - 1) / (D_i W_i); node 450e9 x 8/7 = 514 GB/s, leaf
  // 400e9 x 32/31 = 413 GB/s, spine 12.8e12 x 4/3 = 17.1 TB/s, so 413 GB/s over 1,024 GPUs.
  const Json a =
      test::run_json({{"hardware", {{"preset", "h100-sxm"}}}, {"query", {{"kind", "topology"}, {"gpus", 1024}}}});
  REQUIRE(a["ok"] == true);
  const Json& levels = a["result"]["levels"];
  REQUIRE(levels.size() == 3);
  CHECK(levels[0]["allgather_bytes_per_s"].get<double>() == Approx(450e9 * 8 / 7));
  CHECK(levels[1]["allgather_bytes_per_s"].get<double>() == Approx(400e9 * 32 / 31));
  CHECK(levels[2]["allgather_bytes_per_s"].get<double>() == Approx(12.8e12 * 4 / 3));
  CHECK(a["result"]["allgather_bytes_per_s"].get<double>() == Approx(400e9 * 32 / 31));
  CHECK(a["result"]["allgather_limited_by"] == "leaf");
  // Inside one node the node level alone sets it.
  const Json node =
      test::run_json({{"hardware", {{"preset", "h100-sxm"}}}, {"query", {{"kind", "topology"}, {"gpus", 8}}}});
  CHECK(node["result"]["allgather_bytes_per_s"].get<double>() == Approx(450e9 * 8 / 7));
}
