#include <catch2/catch.hpp>

#include "physics/sharding.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

using test::mesh_of;

TEST_CASE("sharding notation parses and round-trips (spec §2.3)", "[sharding]") {
  const Hardware v5e = test::hardware("tpu-v5e");
  const Mesh mesh = mesh_of(test::hardware("tpu-v5p"), {{"shape", {4, 4, 4}}});
  Diagnostics d;
  const auto a = parse_sharded_array(" A[I_XY , J]{U_Z} ", mesh, "/q", d);
  REQUIRE(a);
  CHECK(a->dims[0].axes == std::vector<int>{0, 1});
  CHECK(a->dims[1].axes.empty());
  CHECK(a->unreduced == std::vector<int>{2});
  CHECK(format_sharded_array(*a, mesh) == "A[I_XY, J]{U_Z}");
  // Multi-letter axis names split by longest match.
  const Mesh named = mesh_of(v5e, {{"shape", {4, 4}}, {"axis_names", {"data", "model"}}});
  const auto b = parse_sharded_array("W[D_datamodel, F]", named, "/q", d);
  REQUIRE(b);
  CHECK(b->dims[0].axes == std::vector<int>{0, 1});
}

TEST_CASE("sharding notation rejects reused and unknown axes with a path (spec §2.3)", "[sharding]") {
  const Mesh mesh = mesh_of(test::hardware("tpu-v5e"), {{"shape", {4, 4}}});
  Diagnostics d;
  CHECK_FALSE(parse_sharded_array("A[I_X, J_X]", mesh, "/query/array", d));
  CHECK(test::has_code(d, "axis_reused", "/query/array"));
  d.clear();
  CHECK_FALSE(parse_sharded_array("A[I_Q, J]", mesh, "/query/array", d));
  CHECK(test::has_code(d, "unknown_mesh_axis"));
  d.clear();
  CHECK_FALSE(parse_sharded_array("A(I, J)", mesh, "/query/array", d));
  CHECK(test::has_code(d, "bad_sharding"));
}

TEST_CASE("array memory divides by the axes used and replicates over the rest (spec §3.3 #19)", "[sharding]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh mesh = mesh_of(v5p, {{"shape", {2, 8, 2}}, {"wraparound", {false, false, false}}});
  Diagnostics d;
  const auto a = parse_sharded_array("A[I_XY, J]", mesh, "", d);
  REQUIRE(a);
  const ArrayMemory m = array_memory(*a, {{"I", 128}, {"J", 2048}}, Dtype::int8, mesh);
  CHECK(m.bytes_per_device == 16384);
  CHECK(m.replication == 2);
  CHECK(m.local_shape == std::vector<double>{8, 2048});
}

TEST_CASE("the four sharded-matmul cases and their collectives (spec §2.4)", "[sharding]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh mesh = mesh_of(v5p, {{"shape", {4, 4, 4}}});
  const DimSizes sizes{{"I", 1024}, {"J", 8192}, {"K", 16384}};
  auto analyse = [&](const char* text) {
    Diagnostics d;
    auto m = analyse_sharded_matmul(text, sizes, Dtype::bf16, v5p, mesh, {}, "/q", "/q/dims", d);
    INFO(text);
    REQUIRE(d.empty());
    REQUIRE(m);
    return *m;
  };
  const auto case1 = analyse("A[I_X, J] * B[J, K_Y]");
  CHECK(case1.book_case == 1);
  CHECK(case1.plans.front().steps.empty());
  CHECK(case1.plans.front().output == "C[I_X, K_Y]");

  const auto case2 = analyse("A[I, J_X] * B[J, K]");
  CHECK(case2.book_case == 2);
  REQUIRE(case2.plans.size() == 2);  // gather-then-multiply and multiply-then-reduce
  for (const auto& p : case2.plans) {
    REQUIRE(p.steps.size() == 1);
    CHECK(p.output == "C[I, K]");
  }

  const auto case3 = analyse("A[I, J_X] * B[J_X, K]");
  CHECK(case3.book_case == 3);
  REQUIRE(case3.plans.front().steps.size() == 1);
  CHECK(case3.plans.front().steps[0].op == Collective::all_reduce);
  // AllReduce of the local bf16[I, K] partial sums: 2V / W_ici.
  CHECK_THAT(case3.plans.front().steps[0].cost.time_s, WithinRel(2.0 * (2.0 * 1024 * 16384) / 1.8e11, 1e-12));

  // Asking for a sharded output turns the AllReduce into a ReduceScatter.
  Diagnostics d;
  const auto rs = analyse_sharded_matmul("A[I, J_X] * B[J_X, K] -> C[I, K_X]", sizes, Dtype::bf16, v5p, mesh, {}, "", "", d);
  REQUIRE(rs);
  CHECK(rs->plans.front().steps[0].op == Collective::reduce_scatter);
  CHECK(rs->plans.front().output == "C[I, K_X]");

  const auto case4 = analyse("A[I_X, J] * B[J, K_X]");
  CHECK(case4.book_case == 4);
  CHECK(case4.plans.front().steps.front().op == Collective::all_gather);
}

TEST_CASE("a sharded matmul names bad dimensions (spec §2.4)", "[sharding]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh mesh = mesh_of(v5p, {{"shape", {4, 4, 4}}});
  Diagnostics d;
  analyse_sharded_matmul("A[I_X, J] * B[J, K]", {{"I", 1022}, {"J", 8}, {"K", 8}}, Dtype::bf16, v5p, mesh, {}, "/q", "/q/dims", d);
  CHECK(test::has_code(d, "not_divisible", "/q/dims/I"));
  d.clear();
  analyse_sharded_matmul("A[I, J] * B[K, L]", {{"I", 8}, {"J", 8}, {"K", 8}, {"L", 8}}, Dtype::bf16, v5p, mesh, {}, "/q", "/q/dims", d);
  CHECK(test::has_code(d, "no_contracting_dim"));
  d.clear();
  analyse_sharded_matmul("A[I, J] * B[J, K]", {{"I", 8}, {"J", 8}}, Dtype::bf16, v5p, mesh, {}, "/q", "/q/dims", d);
  CHECK(test::has_code(d, "missing_dim_size"));
}
