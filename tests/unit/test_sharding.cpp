#include <catch2/catch.hpp>

#include "api.h"
#include "physics/sharded_matmul.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

using test::mesh_of;

TEST_CASE("sharding notation parses and round-trips (scaling-book/sharding, notation)", "[sharding]") {
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

TEST_CASE("sharding notation rejects reused and unknown axes with a path (scaling-book/sharding, notation)",
          "[sharding]") {
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

TEST_CASE(
    "array memory divides by the axes used and replicates over the rest (scaling-book/sharding, the "
    "array memory pop quiz)",
    "[sharding]") {
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

TEST_CASE("the four sharded-matmul cases and their collectives (scaling-book/sharding, sharded matmuls)",
          "[sharding]") {
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
  const auto rs =
      analyse_sharded_matmul("A[I, J_X] * B[J_X, K] -> C[I, K_X]", sizes, Dtype::bf16, v5p, mesh, {}, "", "", d);
  REQUIRE(rs);
  CHECK(rs->plans.front().steps[0].op == Collective::reduce_scatter);
  CHECK(rs->plans.front().output == "C[I, K_X]");

  const auto case4 = analyse("A[I_X, J] * B[J, K_X]");
  CHECK(case4.book_case == 4);
  CHECK(case4.plans.front().steps.front().op == Collective::all_gather);
}

TEST_CASE("a sharded matmul names bad dimensions (scaling-book/sharding, sharded matmuls)", "[sharding]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh mesh = mesh_of(v5p, {{"shape", {4, 4, 4}}});
  Diagnostics d;
  analyse_sharded_matmul("A[I_X, J] * B[J, K]", {{"I", 1022}, {"J", 8}, {"K", 8}}, Dtype::bf16, v5p, mesh, {}, "/q",
                         "/q/dims", d);
  CHECK(test::has_code(d, "not_divisible", "/q/dims/I"));
  d.clear();
  analyse_sharded_matmul("A[I, J] * B[K, L]", {{"I", 8}, {"J", 8}, {"K", 8}, {"L", 8}}, Dtype::bf16, v5p, mesh, {},
                         "/q", "/q/dims", d);
  CHECK(test::has_code(d, "no_contracting_dim"));
  d.clear();
  analyse_sharded_matmul("A[I, J] * B[J, K]", {{"I", 8}, {"J", 8}}, Dtype::bf16, v5p, mesh, {}, "/q", "/q/dims", d);
  CHECK(test::has_code(d, "missing_dim_size"));
}

namespace {
ShardedMatmul analyse_ok(const char* text, const DimSizes& sizes, const Hardware& hw, const Mesh& mesh,
                         Dtype dtype = Dtype::bf16) {
  Diagnostics d;
  auto m = analyse_sharded_matmul(text, sizes, dtype, hw, mesh, {}, "/q", "/q/dims", d);
  INFO(text);
  REQUIRE_FALSE(has_errors(d));
  REQUIRE(m);
  return *m;
}
}  // namespace

TEST_CASE(
    "batch dimensions shared by both operands and kept in the output (scaling-book/transformers, "
    "contraction rule; scaling-book/roofline, Question 4)",
    "[sharding]") {
  const Hardware v5e = test::hardware("tpu-v5e");
  const Mesh mesh = mesh_of(v5e, {{"shape", {4, 4}}});
  const DimSizes sizes{{"B", 128}, {"D", 4096}, {"F", 4096}};
  // Per-example weights: X[B, D] . W[B, D, F] -> Y[B, F]; B is a batch dimension, D the contraction.
  const auto m = analyse_ok("X[B_X, D] * W[B_X, D, F] -> Y[B_X, F]", sizes, v5e, mesh);
  CHECK(m.book_case == 1);
  const MatmulPlan& p = m.plans.front();
  CHECK(p.steps.empty());
  CHECK(p.output == "Y[B_X, F]");
  // FLOPs count the batch once: 2 B D F over the 4 devices that split B (scaling-book/transformers: 2 x product of all
  // dims).
  CHECK(m.total_flops == 2.0 * 128 * 4096 * 4096);
  CHECK(p.flops_per_device == 2.0 * 128 * 4096 * 4096 / 4);
  // A replicated W is sliced locally to match X's batch sharding: still no communication.
  const auto sliced = analyse_ok("X[B_X, D] * W[B, D, F] -> Y[B_X, F]", sizes, v5e, mesh);
  CHECK(sliced.plans.front().steps.empty());
  CHECK(sliced.plans.front().flops_per_device == 2.0 * 128 * 4096 * 4096 / 4);
  // Without '->' every shared dimension is contracted (einsum's rule), and the engine says so.
  Diagnostics d;
  const auto implicit =
      analyse_sharded_matmul("X[B, D] * W[B, D, F]", sizes, Dtype::bf16, v5e, mesh, {}, "/q", "/q/dims", d);
  REQUIRE(implicit);
  CHECK(test::has_code(d, "implicit_contraction", "/q"));
  CHECK(implicit->plans.front().output == "C[F]");
}

TEST_CASE(
    "a sharded matmul has an HBM term: per-example weights are memory-bound (scaling-book/roofline, "
    "Question 4)",
    "[sharding]") {
  const Hardware v5e = test::hardware("tpu-v5e");
  const Mesh mesh = mesh_of(v5e, {{"shape", {4, 4}}});
  const double b = 128, dd = 4096, f = 4096;
  const auto m =
      analyse_ok("X[B_X, D] * W[B_X, D, F] -> Y[B_X, F]", {{"B", b}, {"D", dd}, {"F", f}}, v5e, mesh, Dtype::int8);
  const MatmulPlan& p = m.plans.front();
  // int8: bytes B D + B D F + B F per device's share, intensity ~2 FLOPs/byte: far below 3.94e14 / 8.1e11 = 486.
  const double bytes = (b * dd + b * dd * f + b * f) / 4;
  CHECK_THAT(p.hbm_bytes_per_device, WithinRel(bytes, 1e-12));
  CHECK_THAT(p.memory_s, WithinRel(bytes / 8.1e11, 1e-12));
  CHECK(p.memory_s > p.compute_s);
  CHECK(p.lower_bound_s == p.memory_s);
  CHECK(std::string(p.bound) == "memory");
}

TEST_CASE("with a sharded output the gather plan multiplies only its slice (scaling-book/sharding, case 2)",
          "[sharding]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh mesh = mesh_of(v5p, {{"shape", {4, 4, 4}}});
  const DimSizes sizes{{"I", 1024}, {"J", 8192}, {"K", 16384}};
  const auto m = analyse_ok("A[I, J_X] * B[J, K] -> C[I, K_X]", sizes, v5p, mesh);
  const MatmulPlan* gather = nullptr;
  for (const auto& p : m.plans)
    if (p.name == "gather_then_multiply") gather = &p;
  REQUIRE(gather);
  // AllGather A over X, then slice the replicated B to B[J, K_X] for free: C[I, K_X] directly, 1/4 of the FLOPs.
  CHECK(gather->local_op == "A[I, J] * B[J, K_X] -> C[I, K_X]");
  CHECK(gather->output == "C[I, K_X]");
  CHECK(gather->flops_per_device == 2.0 * 1024 * 8192 * 16384 / 4);
  // A local matmul asked for a sharded output computes just that shard too.
  const auto local = analyse_ok("A[I, J] * B[J, K] -> C[I_Y, K]", sizes, v5p, mesh);
  CHECK(local.plans.front().steps.empty());
  CHECK(local.plans.front().output == "C[I_Y, K]");
  CHECK(local.plans.front().flops_per_device == 2.0 * 1024 * 8192 * 16384 / 4);
}

TEST_CASE("a batch dimension sharded differently in the two inputs is regathered on one side only (issue 22)",
          "[sharding][issue22]") {
  // X[B_X, D] * W[B_Y, D, F] -> Y[B_X, F] (scaling-book/sharding, sharded matmuls, with a batch dimension as in
  // scaling-book/transformers): gathering both inputs, as before, holds all of W on every chip. Either side may be
  // gathered over its own axis and sliced to the other's.
  const Hardware v5e = test::hardware("tpu-v5e");
  const Mesh mesh = mesh_of(v5e, {{"shape", {16, 16}}});
  const DimSizes sizes{{"B", 4096}, {"D", 8192}, {"F", 32768}};
  Diagnostics d;
  const auto m =
      analyse_sharded_matmul("X[B_X, D] * W[B_Y, D, F] -> Y[B_X, F]", sizes, Dtype::bf16, v5e, mesh, {}, "", "", d);
  REQUIRE(m);
  CHECK(m->book_case == 1);
  CHECK(m->description.find("sharded differently") != std::string::npos);
  REQUIRE(m->plans.size() == 2);
  const MatmulPlan& best = m->plans.front();
  // Gather the small X over X (V = 4096 x 8192 bf16 = 64 MiB), multiply on B_YX, gather the output over Y.
  CHECK(best.name == "reshard_batch_A+gather_output");
  REQUIRE(best.steps.size() == 2);
  CHECK(best.steps[0].array == "X");
  CHECK(best.steps[0].bytes == 2.0 * 4096 * 8192);
  CHECK(best.output == "Y[B_X, F]");
  // W stays split 256 ways: D F B / 256 bf16 + X and Y's shards.
  CHECK(best.hbm_bytes_per_device == 2.0 * (4096.0 * 8192 * 32768 / 256 + 4096.0 * 8192 / 256 + 4096.0 * 32768 / 256));
  const MatmulPlan& other = m->plans.back();
  CHECK(other.name == "reshard_batch_B");
  REQUIRE(other.steps.size() == 1);
  CHECK(other.steps[0].array == "W");
  CHECK(other.output == "Y[B_X, F]");
  for (const MatmulPlan& p : m->plans)  // X is never gathered when it already has the output's sharding and W moves
    for (const CommStep& s : p.steps) CHECK_FALSE((p.name == "reshard_batch_B" && s.array == "X"));
  // The plan that gathers W holds 128 GiB of it per 16 GB chip: the query says so.
  const Json answer = Json::parse(evaluate_json(R"({"hardware": {"preset": "tpu-v5e"}, "mesh": {"shape": [16, 16]},
      "query": {"kind": "sharded_matmul", "expression": "X[B_X, D] * W[B_Y, D, F] -> Y[B_X, F]",
                "dims": {"B": 4096, "D": 8192, "F": 32768}}})"));
  REQUIRE(answer["ok"] == true);
  REQUIRE(answer["diagnostics"].size() == 1);
  CHECK(answer["diagnostics"][0]["code"] == "exceeds_hbm");
  CHECK(answer["diagnostics"][0]["message"].get<std::string>().find("reshard_batch_B") != std::string::npos);
}

TEST_CASE("a sharded matmul plan with a reduction is never named local (issue 22)", "[sharding][issue22]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh mesh = mesh_of(v5p, {{"shape", {4, 4, 4}}});
  Diagnostics d;
  const auto m = analyse_sharded_matmul("A[I, J_X] * B[J_X, K]", {{"I", 1024}, {"J", 8192}, {"K", 16384}}, Dtype::bf16,
                                        v5p, mesh, {}, "", "", d);
  REQUIRE(m);
  CHECK(m->book_case == 3);
  for (const MatmulPlan& p : m->plans) {
    CHECK(p.name == (p.steps.empty() ? "local" : "multiply_then_reduce"));
    CHECK_FALSE(p.steps.empty());
  }
}

TEST_CASE("issue 39: case 1 with a result the output wants unsharded names its AllGather", "[sharding]") {
  // The book's case 1 (scaling-book/sharding): no contracting dimension is sharded, so the multiply is local; an output
  // that wants I whole then costs an AllGather of C over X, which the plan names and the description says.
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh mesh = mesh_of(v5p, {{"shape", {4, 4, 4}}});
  Diagnostics d;
  const auto m = analyse_sharded_matmul("A[I_X, J] * B[J, K] -> C[I, K]", {{"I", 1024}, {"J", 8192}, {"K", 16384}},
                                        Dtype::bf16, v5p, mesh, {}, "", "", d);
  REQUIRE(m);
  CHECK(m->book_case == 1);
  INFO(m->description);
  CHECK(m->description.find("no communication") == std::string::npos);
  CHECK(m->description.find("AllGather") != std::string::npos);
  REQUIRE_FALSE(m->plans.empty());
  const MatmulPlan& best = m->plans.front();
  REQUIRE(best.steps.size() == 1);
  CHECK(best.steps.front().op == Collective::all_gather);
  CHECK(best.name == "gather_output");
  // Without the output's request the same multiply is local, with no step and the book's words.
  const auto local = analyse_sharded_matmul("A[I_X, J] * B[J, K]", {{"I", 1024}, {"J", 8192}, {"K", 16384}},
                                            Dtype::bf16, v5p, mesh, {}, "", "", d);
  REQUIRE(local);
  CHECK(local->plans.front().name == "local");
  CHECK(local->description.find("no communication") != std::string::npos);
}

TEST_CASE("issue 39: an AllGather over the major axis of a two-axis split leaves an interleaved split, and says so",
          "[sharding]") {
  // scaling-book/sharding, notation: A[I_YX] splits I over Y, then X within it (the order matters). Gathering Y leaves
  // each shard every |X|-th block of I, not the contiguous quarter C[I_X] would be; gathering the minor X leaves C[I_Y]
  // as written.
  const Hardware v5p = test::hardware("tpu-v5p");
  const Mesh mesh = mesh_of(v5p, {{"shape", {4, 4, 4}}});
  const DimSizes sizes{{"I", 1024}, {"J", 8192}, {"K", 16384}};
  Diagnostics d;
  const auto major =
      analyse_sharded_matmul("A[I_YX, J] * B[J, K] -> C[I_X, K]", sizes, Dtype::bf16, v5p, mesh, {}, "", "", d);
  REQUIRE(major);
  const CommStep& gathered = major->plans.front().steps.back();
  CHECK(gathered.op == Collective::all_gather);
  CHECK(gathered.before == "C[I_YX, K]");
  CHECK(gathered.after == "C[I_X, K] (interleaved)");
  CHECK(gathered.interleaved);
  const auto minor =
      analyse_sharded_matmul("A[I_YX, J] * B[J, K] -> C[I_Y, K]", sizes, Dtype::bf16, v5p, mesh, {}, "", "", d);
  REQUIRE(minor);
  const CommStep& contiguous = minor->plans.front().steps.back();
  CHECK(contiguous.after == "C[I_Y, K]");
  CHECK_FALSE(contiguous.interleaved);
}
