// The hot functions allocate nothing, so a plan search can evaluate millions of plans per second (issue: engine
// foundation; docs/design.md "Performance budgets"). Counts global operator new around each call.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <new>

#include "physics/collectives.h"
#include "physics/roofline.h"
#include "planners/calibrated_serving.h"
#include "planners/calibrated_training.h"
#include "planners/plan_search.h"
#include "planners/serving.h"
#include "planners/training.h"
#include "test_helpers.h"

namespace {
std::atomic<long> g_allocations{0};
}

// GCC 12 sees the library's inlined operator new next to this replacement and warns of a mismatch that is not
// there: both sides below use malloc/free (GCC bug 103993).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

// Every replaceable form, so that no allocation bypasses the counter and every delete matches its new (ASan checks).
namespace {
void* counted_malloc(std::size_t n) {
  ++g_allocations;
  return std::malloc(n ? n : 1);
}
}  // namespace
void* operator new(std::size_t n) {
  if (void* p = counted_malloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  if (void* p = counted_malloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_malloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_malloc(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace scalescope;

namespace {
template <typename F>
long allocations_in(F&& f) {
  const long before = g_allocations.load();
  f();
  return g_allocations.load() - before;
}
}  // namespace

TEST_CASE("primitives and planners allocate nothing", "[performance]") {
  const Hardware v5p = test::hardware("tpu-v5p");
  const Hardware h100 = test::hardware("h100-sxm");
  const ModelConfig llama = test::model("llama-3-70b");
  Diagnostics d;
  const Mesh mesh = parse_mesh(Json{{"shape", {16, 16, 16}}}, "/mesh", v5p, d);
  REQUIRE(d.empty());
  volatile double sink = 0;
  CHECK(allocations_in([&] { sink = sink + roofline(1e12, 1e9, 4.59e14, 2.8e12).lower_bound_s; }) == 0);
  CHECK(allocations_in([&] { sink = sink + matmul_crossover_batch(8192, 28672, MatmulDtypes{}, 4.59e14, 2.8e12); }) ==
        0);
  const TorusAxis axes[2] = {{16, true}, {4, false}};
  CHECK(allocations_in(
            [&] { sink = sink + tpu_collective(Collective::all_reduce, 1e9, axes, 2, 9e10, 1e-6).time_s; }) == 0);
  CHECK(allocations_in(
            [&] { sink = sink + gpu_collective(Collective::all_gather, 1e9, h100, 256, 16, false).time_s; }) == 0);
  CHECK(allocations_in([&] { sink = sink + count_flops(llama, 4e6, 4096, true).training; }) == 0);

  TrainingInput in;
  in.model = &llama;
  in.hw = &v5p;
  in.mesh = &mesh;
  in.batch_tokens = 4e6;
  in.seq_len = 4096;
  in.plan.fsdp = make_axis_group(mesh, {0, 1});
  in.plan.tensor = make_axis_group(mesh, {2});
  CHECK(allocations_in([&] { sink = sink + evaluate_training_step(in).step_s; }) == 0);

  ServingInput s;
  s.model = &llama;
  s.hw = &v5p;
  s.mesh = &mesh;
  s.tensor = in.plan.tensor;
  CHECK(allocations_in([&] { sink = sink + decode_step(s, 64, 8192).step_s + prefill(s, 1, 8192).time_s; }) == 0);

  // The calibrated fidelity (issue: fidelity, "closed form and allocation-free"); the profile is parsed beforehand.
  const CalibrationProfile& profile = *calibration_profile_for(v5p);
  CHECK(allocations_in([&] { sink = sink + evaluate_calibrated_training_step(in, profile).step.step_s; }) == 0);
  CHECK(allocations_in([&] {
          sink = sink + calibrated_decode_step(s, profile, 64, 8192).step_s +
                 calibrated_prefill(s, profile, 1, 8192).time_s;
        }) == 0);
}

TEST_CASE("the plan search allocates per degree combination and per ranked plan, never per plan", "[performance]") {
  const Hardware h100 = test::hardware("h100-sxm");
  const ModelConfig llama = test::model("llama-3-70b");
  const Mesh mesh = test::mesh_of(h100, Json{{"shape", {64}}});
  TrainingInput in;
  in.model = &llama;
  in.hw = &h100;
  in.mesh = &mesh;
  in.batch_tokens = 1048576;
  in.seq_len = 4096;
  const PlanSpace space = build_plan_space(in, SpaceOptions{});
  SearchSettings settings;
  settings.keep = 5;
  PlanSearchState state;
  state.best.reserve(6);
  const long allocations = allocations_in([&] { continue_search(space, settings, state, 0); });
  REQUIRE(state.counts.evaluated > 10000);
  // Knob lists per combination, fingerprints per layout, copies into the best five and the front: far fewer
  // than one allocation per plan.
  CHECK(allocations < state.counts.evaluated / 20);
}
