// Logical mesh axes (issue 9): sub-axis rings, strided groups, layouts of degrees on a torus and a GPU cluster.
#include <catch2/catch.hpp>

#include "physics/layout.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

namespace {
constexpr double kW = 9e10;  // v5p one-way ICI link (scaling-book/tpus, ICI)

long layouts_of(const Mesh& mesh, std::array<int, kLayoutStrategies> degrees) {
  LayoutRules rules;
  rules.degrees = degrees;
  return count_layouts(mesh, rules);
}
}  // namespace

TEST_CASE("a whole torus axis costs exactly what tpu_collective charges", "[layout]") {
  const TorusAxis axes[2] = {{16, true}, {4, false}};
  const TorusRing rings[2] = {{16, true, 1}, {4, false, 1}};
  for (Collective op :
       {Collective::all_gather, Collective::reduce_scatter, Collective::all_reduce, Collective::all_to_all}) {
    const CollectiveCost a = tpu_collective(op, 1.23e8, axes, 2, kW, 1e-6);
    const CollectiveCost b = tpu_ring_collective(op, 1.23e8, rings, 2, kW, 1e-6);
    CHECK(a.time_s == b.time_s);  // bit for bit: golden results must not move
    CHECK(a.latency_s == b.latency_s);
  }
}

TEST_CASE("a 4-chip group inside a 16-long axis is a line; a strided group shares the axis's links", "[layout]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh mesh = test::mesh_of(v5p, Json{{"shape", {16, 16, 16}}});
  REQUIRE(mesh.axes[2].wraps);
  AxisGroup inner, outer;
  add_piece(inner, mesh, AxisPiece{2, 4, 1});
  add_piece(outer, mesh, AxisPiece{2, 4, 4});
  // scaling-book/tpus: no wraparound inside the axis; scaling-book/sharding's no-wraparound rule (X-1)(V/X)/W_uni.
  CHECK_FALSE(inner.rings[0].wraps);
  const double v = 1e9;
  CHECK_THAT(group_collective(v5p, mesh, inner, Collective::all_gather, v).bandwidth_s,
             WithinRel(3.0 * (v / 4) / kW, 1e-12));
  CHECK_THAT(group_collective(v5p, mesh, inner, Collective::all_gather, v).latency_s, WithinRel(3e-6, 1e-12));
  // Members 4 apart cover the whole axis and close through its wraparound, but each link carries the 4
  // interleaved groups: W_ici / 4 each, and every logical hop crosses 4 links.
  CHECK(outer.rings[0].wraps);
  CHECK_THAT(group_collective(v5p, mesh, outer, Collective::all_gather, v).bandwidth_s,
             WithinRel(v / (2 * kW / 4), 1e-12));
  CHECK_THAT(group_collective(v5p, mesh, outer, Collective::all_gather, v).latency_s, WithinRel(8e-6, 1e-12));
  // A group over parts of several axes adds their bandwidths (scaling-book/sharding, "multiple axes"): X whole + Z's
  // outer 4.
  AxisGroup both = make_axis_group(mesh, {0});
  add_piece(both, mesh, AxisPiece{2, 4, 4});
  CHECK(both.ici_axes == 2);
  CHECK(both.degree == 64);
  CHECK_THAT(group_collective(v5p, mesh, both, Collective::all_gather, v).bandwidth_s,
             WithinRel(v / (2 * kW + 2 * kW / 4), 1e-12));
}

TEST_CASE("a GPU group laid as a sub-axis costs what the same group on a factorised mesh costs", "[layout]") {
  const Hardware h100 = test::hardware("h100-sxm");
  const Mesh flat = test::mesh_of(h100, Json{{"shape", {4096}}});
  const Mesh split = test::mesh_of(h100, Json{{"shape", {512, 8}}});
  AxisGroup outer;
  add_piece(outer, flat, AxisPiece{0, 512, 8});
  CHECK(outer.gpu_members == 512);
  CHECK(outer.gpu_span == 4096);
  const AxisGroup whole = make_axis_group(split, {0});
  for (Collective op : {Collective::all_gather, Collective::all_reduce, Collective::all_to_all})
    CHECK(group_collective(h100, flat, outer, op, 1e9).time_s == group_collective(h100, split, whole, op, 1e9).time_s);
  // A pipeline whose stages sit in different NVLink domains sends over the NIC (scaling-book/gpus: 50 GB/s per GPU).
  AxisGroup pp_inner, pp_outer;
  add_piece(pp_inner, flat, AxisPiece{0, 8, 1});
  add_piece(pp_outer, flat, AxisPiece{0, 4, 8});
  CHECK(group_hop_unidir_bytes_per_s(h100, flat, pp_inner) == 450e9);
  CHECK(group_hop_unidir_bytes_per_s(h100, flat, pp_outer) == 50e9);
}

TEST_CASE("layouts of degrees: every distinct placement, torus symmetry and DCN order counted once", "[layout]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh cube = test::mesh_of(v5p, Json{{"shape", {16, 16, 16}}});
  // data, fsdp, tensor, pipeline, expert, context
  CHECK(layouts_of(cube, {1, 4096, 1, 1, 1, 1}) == 1);
  // TP 4 on one axis (inner or outer) or 2 x 2 on two axes (inner/inner, inner/outer, outer/outer): 5.
  CHECK(layouts_of(cube, {1, 1024, 4, 1, 1, 1}) == 5);
  CHECK(layouts_of(cube, {1, 1024, 3, 1, 1, 1}) == 0);  // 3 x 1024 is not 4096
  const Mesh two = test::mesh_of(v5p, Json{{"shape", {16, 16, 16}}, {"slices", 4}});
  LayoutRules rules;
  rules.degrees = {2, 8192, 1, 1, 1, 1};
  rules.dcn_strategies = 0b000011;
  // DP 2 x FSDP 2 over the 4 slices and FSDP 4096 on ICI; or FSDP over all 4 slices and DP 2 inside or outside
  // one torus axis (the order on DCN does not count).
  CHECK(count_layouts(two, rules) == 3);
  rules.dcn_strategies = 0b000001;  // data only over DCN: DP 4 across slices, FSDP 4096 on ICI
  rules.degrees = {4, 4096, 1, 1, 1, 1};
  CHECK(count_layouts(two, rules) == 1);
  const Hardware h100 = test::hardware("h100-sxm");
  const Mesh gpus = test::mesh_of(h100, Json{{"shape", {4096}}});
  CHECK(layouts_of(gpus, {1, 128, 8, 4, 1, 1}) == 6);  // GPU order matters: every permutation
  // Explicit sub-axes: fixed factors, free order.
  LayoutRules fixed;
  fixed.degrees = {1, 1024, 4, 1, 1, 1};
  fixed.explicit_strategies = 0b000110;
  fixed.fixed_size[0][1] = 16;
  fixed.fixed_size[1][1] = 16;
  fixed.fixed_size[2][1] = 4;
  fixed.fixed_size[2][2] = 4;
  CHECK(count_layouts(cube, fixed) == 2);
  fixed.fixed_stride[2][2] = 1;  // pinned inner
  CHECK(count_layouts(cube, fixed) == 1);
}

TEST_CASE(
    "the book's decoding of FSDP x TP on 16x16x16 counts the axes each degree touches (scaling-book/training, "
    "the training roofline figure)",
    "[layout]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh cube = test::mesh_of(v5p, Json{{"shape", {16, 16, 16}}});
  const int expected[][4] = {{4096, 1, 3, 0}, {1024, 4, 3, 1}, {512, 8, 3, 1},  {256, 16, 2, 1},
                             {128, 32, 2, 2}, {64, 64, 2, 2},  {16, 256, 1, 2}, {8, 512, 1, 3}};
  for (const auto& e : expected) {
    int axis = 0;
    double used = 1;
    CHECK(place_in_order(e[0], cube, axis, used) == e[2]);
    CHECK(place_in_order(e[1], cube, axis, used) == e[3]);
  }
}

TEST_CASE("degrees that fit a mesh are products of one divisor per axis", "[layout]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh pod = test::mesh_of(v5p, Json{{"shape", {16, 20, 28}}});
  const std::vector<int> fit = degrees_that_fit(pod, false);
  CHECK(std::find(fit.begin(), fit.end(), 35) != fit.end());  // 5 of the 20 x 7 of the 28
  CHECK(std::find(fit.begin(), fit.end(), 25) == fit.end());  // only one axis has a factor 5
  CHECK(fit.back() == 8960);
}
