// "Calibrate to my cluster" from one profile (issue 37 item 3): the trace's measured kernels as kernel tables, in
// the format the kernel_fit query reads (docs/api.md `kernel_fit`, the format of tests/kernels/<chip>.json). Each
// GEMM shape a recorded matmul ran at is one row with its median measured time; each collective of one kind, group
// and size likewise. kernel_fit then fits the chip's kernel models to them, each op's error on held-out rows its
// band, and the fitted `kernels` go into a calibration profile as the aiconfigurator tables' do.
#pragma once
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "io/dtype.h"
#include "io/json_reader.h"
#include "physics/collectives.h"

namespace scalescope {

class TraceKernelTables {
 public:
  // One GEMM op instance: batch x [M, K] @ [K, N] in `dtype` (bf16, or fp8 with one scale per tensor), its kernels'
  // summed time. fp32 and int8 GEMMs have no kernel model and are left out.
  void add_gemm(Dtype dtype, double batch, double m, double n, double k, double seconds);
  // One collective kernel: V of scaling-book/gpus, collective costs (the whole array; all-to-all: each rank's buffer,
  // as nccl-tests counts it).
  void add_collective(Collective op, int gpus, double bytes, double seconds);
  // An all-reduce that is not NCCL's ring (symmetric memory's multimem, a custom one-shot): the custom table.
  void add_one_shot_all_reduce(int gpus, double bytes, double seconds);

  bool empty() const { return gemm_.empty() && nccl_.empty() && one_shot_.empty(); }
  // {"schema", "hardware", "source", "tables": [...]}: only the tables with rows. `trace_name` goes into the source.
  Json json(const std::string& hardware_id, const std::string& trace_name) const;

 private:
  std::map<std::tuple<std::string, double, double, double>, std::vector<double>> gemm_;  // dtype, m, n, k
  std::map<std::tuple<int, int, double>, std::vector<double>> nccl_;                     // collective, gpus, bytes
  std::map<std::pair<int, double>, std::vector<double>> one_shot_;                       // gpus, bytes
};

}  // namespace scalescope
