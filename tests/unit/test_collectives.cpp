#include <catch2/catch.hpp>

#include "physics/collectives.h"
#include "test_helpers.h"

using namespace scalescope;
using Catch::Matchers::WithinRel;

TEST_CASE("TPU AllGather is V / W_ici on a ring, independent of its size (scaling-book/sharding, collective costs)",
          "[collectives]") {
  const double w_uni = 4.5e10, v = 1e9;
  for (int x : {4, 8, 16}) {
    const TorusAxis ring{x, true};
    const auto c = tpu_collective(Collective::all_gather, v, &ring, 1, w_uni, 1e-6);
    CHECK_THAT(c.bandwidth_s, WithinRel(v / (2 * w_uni), 1e-12));
    CHECK_FALSE(c.latency_bound);
  }
  // ReduceScatter costs the same; AllReduce twice that.
  const TorusAxis ring{16, true};
  CHECK(tpu_collective(Collective::reduce_scatter, v, &ring, 1, w_uni, 1e-6).time_s ==
        tpu_collective(Collective::all_gather, v, &ring, 1, w_uni, 1e-6).time_s);
  CHECK_THAT(tpu_collective(Collective::all_reduce, v, &ring, 1, w_uni, 1e-6).time_s,
             WithinRel(2 * v / (2 * w_uni), 1e-12));
}

TEST_CASE(
    "TPU collectives over more axes get proportionally more bandwidth (scaling-book/sharding, collective "
    "costs)",
    "[collectives]") {
  const TorusAxis three[3] = {{16, true}, {16, true}, {16, true}};
  const double one = tpu_collective(Collective::all_gather, 1e9, three, 1, 9e10, 1e-6).time_s;
  CHECK_THAT(tpu_collective(Collective::all_gather, 1e9, three, 3, 9e10, 1e-6).time_s, WithinRel(one / 3, 1e-12));
}

TEST_CASE("without wraparound an axis moves (X-1)/X of V one way (scaling-book/sharding, collective costs)",
          "[collectives]") {
  const TorusAxis line{4, false};
  const auto c = tpu_collective(Collective::all_gather, 4e6, &line, 1, 4.5e10, 1e-6);
  CHECK_THAT(c.bandwidth_s, WithinRel(3 * (4e6 / 4) / 4.5e10, 1e-12));
  // Roughly twice the wrapped ring.
  const TorusAxis ring{4, true};
  CHECK(c.bandwidth_s > 1.4 * tpu_collective(Collective::all_gather, 4e6, &ring, 1, 4.5e10, 1e-6).bandwidth_s);
}

TEST_CASE("tiny arrays are latency-bound: T_min x hops (scaling-book/sharding, collective costs and Question 3)",
          "[collectives]") {
  // AllGather_X of bf16[128] on a 4-long wrapped axis: 2 hops x 1 us.
  const TorusAxis ring{4, true};
  const auto c = tpu_collective(Collective::all_gather, 256, &ring, 1, 4.5e10, 1e-6);
  CHECK(c.latency_bound);
  CHECK_THAT(c.time_s, WithinRel(2e-6, 1e-12));
}

TEST_CASE(
    "AllToAll is a quarter of AllGather on a bidirectional ring (scaling-book/sharding, collective costs and "
    "Question 10)",
    "[collectives]") {
  const TorusAxis ring{16, true};
  const double ag = tpu_collective(Collective::all_gather, 1e9, &ring, 1, 4.5e10, 0).time_s;
  CHECK_THAT(tpu_collective(Collective::all_to_all, 1e9, &ring, 1, 4.5e10, 0).time_s, WithinRel(ag / 4, 1e-12));
  // Ragged top-k sends a fraction of the traffic.
  CHECK_THAT(tpu_collective(Collective::all_to_all, 1e9, &ring, 1, 4.5e10, 0, 0.25).time_s, WithinRel(ag / 16, 1e-12));
}

TEST_CASE("ragged AllToAll fractions (scaling-book/gpus, collective costs)", "[collectives]") {
  CHECK(ragged_all_to_all_fraction(2, 8, false) == 0.25);
  CHECK(ragged_all_to_all_fraction(16, 8, false) == 1.0);
  // Exact expected non-empty fraction is below the approximation.
  CHECK_THAT(ragged_all_to_all_fraction(2, 8, true), WithinRel(1 - (7.0 / 8) * (7.0 / 8), 1e-12));
}

TEST_CASE("GPU collectives inside one NVLink domain (scaling-book/gpus, Quiz 2 Question 3 and Pop Quiz 1)",
          "[collectives]") {
  const Hardware h100 = test::hardware("h100-sxm");
  // AllGather of 512 MiB on 8 H100s: B (N-1) / (N W) = 1.04 ms.
  const auto ag = gpu_collective(Collective::all_gather, 536'870'912.0, h100, 8, 1, false);
  CHECK_THAT(ag.time_s, WithinRel(536'870'912.0 * 7 / (8 * 450e9), 1e-12));
  // AllReduce is twice that, or B / W with SHARP.
  CHECK_THAT(gpu_collective(Collective::all_reduce, 1e9, h100, 8, 1, false).time_s,
             WithinRel(2e9 * 7 / (8 * 450e9), 1e-12));
  CHECK_THAT(gpu_collective(Collective::all_reduce, 1e9, h100, 8, 1, true).time_s, WithinRel(1e9 / 450e9, 1e-12));
  // AllToAll inside the node: B (N-1) / (W N^2).
  CHECK_THAT(gpu_collective(Collective::all_to_all, 1e9, h100, 8, 1, false).time_s,
             WithinRel(1e9 * 7 / (450e9 * 64), 1e-12));
}

TEST_CASE("GPU collectives across nodes take the slowest fat-tree level (scaling-book/gpus, cross-node collectives)",
          "[collectives]") {
  const Hardware h100 = test::hardware("h100-sxm");
  // Two nodes: node level 7B/(8*450e9) beats the cross-node B/(2*400e9)... so the node level binds.
  const double v = 1e9;
  const double two = gpu_collective(Collective::all_gather, v, h100, 16, 1, false).time_s;
  CHECK_THAT(two, WithinRel(v * 7 / (8 * 450e9), 1e-12));
  // A full scalable unit (256 GPUs, 32 nodes): the leaf level binds, B * 31 / (32 * 400e9).
  CHECK_THAT(gpu_collective(Collective::all_gather, v, h100, 256, 1, false).time_s,
             WithinRel(v * 31 / (32 * 400e9), 1e-12));
  // An inner axis of Y = 16 GPUs spanning nodes divides the scale-out term by Y/8 (scaling-book/gpus, Pop Quiz 3): each
  // of the X = 16 members (one per pair of nodes) still needs (16-1)/16 of its group's V over its own NIC.
  CHECK_THAT(gpu_collective(Collective::all_gather, v / 16, h100, 16, 16, false).time_s,
             WithinRel(v * 15 / (16 * 16 * 50e9), 1e-12));
  // Across two nodes AllToAll uses node egress: B (M-1) / (M^2 W_node).
  CHECK_THAT(gpu_collective(Collective::all_to_all, v, h100, 16, 1, false).time_s, WithinRel(v / (4 * 400e9), 1e-12));
}

TEST_CASE("DCN collectives use the slice's aggregate DCN bandwidth (scaling-book/training, multi-pod over DCN)",
          "[collectives]") {
  // 2 slices of 8960 v5p chips at 6.25e9 B/s per chip.
  const auto ar = dcn_collective(Collective::all_reduce, 1e9, 2, 8960, 6.25e9);
  CHECK_THAT(ar.time_s, WithinRel(2e9 / (8960 * 6.25e9), 1e-12));
  CHECK(dcn_collective(Collective::all_gather, 1e9, 1, 8960, 6.25e9).time_s == 0.0);
}

TEST_CASE(
    "GPU collectives over an outer (strided) axis charge (n-1)/n for the group's n members "
    "(scaling-book/gpus, collectives and rooflines)",
    "[collectives]") {
  const Hardware h100 = test::hardware("h100-sxm");
  const double v = 1e9, w_nic = 50e9;
  // Mesh [2, 16], the outer axis: 2 members 16 GPUs apart, each in its own pair of nodes. Every GPU of a node belongs
  // to a different group, so each exchanges V (n-1)/n = V/2 with its peer over its own 400 Gb/s NIC: 10 ms.
  CHECK_THAT(gpu_collective(Collective::all_gather, v, h100, 2, 16, false).time_s,
             WithinRel(v * 1 / (2 * w_nic), 1e-12));
  CHECK_THAT(gpu_collective(Collective::reduce_scatter, v, h100, 2, 16, false).time_s,
             WithinRel(v / (2 * w_nic), 1e-12));
  // Mesh [2, 1024]: 2-way DP between two 1024-GPU replicas gets the 2x of (X-1)/X = 1/2 (scaling-book/gpus, data
  // parallelism): 2 x 10 ms.
  CHECK_THAT(gpu_collective(Collective::all_reduce, v, h100, 2, 1024, false).time_s,
             WithinRel(2 * v / (2 * w_nic), 1e-12));
  // AllToAll between 2 strided members: each sends V/n x (n-1)/n to its peer over its NIC, V (n-1)/(n^2 w).
  CHECK_THAT(gpu_collective(Collective::all_to_all, v, h100, 2, 16, false).time_s, WithinRel(v / (4 * w_nic), 1e-12));
  // The same 2 members inside one node (stride 4 of [2, 4]) use NVLink: V (n-1)/n / W_GPU.
  CHECK_THAT(gpu_collective(Collective::all_gather, v, h100, 2, 4, false).time_s, WithinRel(v / (2 * 450e9), 1e-12));
}

TEST_CASE("GPU collectives have NCCL's latency floor, and large ones stay bandwidth-bound (issue 22 item 23)",
          "[collectives][issue22]") {
  // The H100 preset's latencies (NCCL tuning.cc ring/LL): launch 3.6 us, 0.47 us per NVLink step, 2.7 us per
  // network step. Before, a 1 kB AllToAll took 0.25 ns with no latency term.
  const Hardware h100 = test::hardware("h100-sxm");
  const double launch = h100.scale_up.launch_latency_s, up = h100.scale_up.step_latency_s,
               out = h100.scale_out.step_latency_s;
  REQUIRE(launch == 3.6e-6);
  REQUIRE(up == 4.7e-7);
  REQUIRE(out == 2.7e-6);
  const auto a2a = gpu_collective(Collective::all_to_all, 1e3, h100, 8, 1, false);
  CHECK(a2a.latency_bound);
  CHECK_THAT(a2a.time_s, WithinRel(launch + up, 1e-12));
  // 64 GPUs in 8 nodes: 63 ring steps, 7 of them between nodes; an AllReduce walks the ring twice.
  const auto ag = gpu_collective(Collective::all_gather, 1e3, h100, 64, 1, false);
  CHECK_THAT(ag.latency_s, WithinRel(launch + 56 * up + 7 * out, 1e-12));
  CHECK_THAT(gpu_collective(Collective::all_reduce, 1e3, h100, 64, 1, false).latency_s,
             WithinRel(launch + 2 * (56 * up + 7 * out), 1e-12));
  // An AllToAll across nodes pays one network step.
  CHECK_THAT(gpu_collective(Collective::all_to_all, 1e3, h100, 64, 1, false).latency_s, WithinRel(launch + out, 1e-12));
  // The book's 8xH100 AllGather of 512 MiB (scaling-book/gpus, Quiz 2 Question 3: 1.04 ms) is untouched: 6.9 us of
  // latency under it.
  const auto big = gpu_collective(Collective::all_gather, 536'870'912.0, h100, 8, 1, false);
  CHECK_FALSE(big.latency_bound);
  CHECK_THAT(big.time_s, WithinRel(536'870'912.0 * 7 / (8 * 450e9), 1e-12));
  // A preset without latencies keeps the book's bandwidth-only model.
  Hardware bare = h100;
  bare.scale_up.launch_latency_s = bare.scale_up.step_latency_s = bare.scale_out.step_latency_s = 0;
  CHECK(gpu_collective(Collective::all_to_all, 1e3, bare, 8, 1, false).latency_s == 0);
}
