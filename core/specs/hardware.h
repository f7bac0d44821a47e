// One chip or system as the engine sees it: plain data in SI units (docs/presets.md has the JSON form).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "io/diagnostics.h"
#include "io/dtype.h"
#include "io/json_reader.h"

namespace scalescope {

enum class ChipKind { tpu, gpu };
// The schema's name of a chip kind (a preset's and a calibration profile's "kind").
constexpr const char* chip_kind_name(ChipKind kind) { return kind == ChipKind::tpu ? "tpu" : "gpu"; }

struct TpuInterconnect {
  int torus_dims = 0;
  std::array<int, 3> max_slice_shape{};  // unused trailing entries are 0
  std::array<int, 3> host_shape{};
  int cores_per_chip = 1;
  double link_unidir_bytes_per_s = 0;
  int links_per_chip = 0;
  int wraparound_axis_multiple = 0;    // an axis wraps when its size is a multiple of this (scaling-book/tpus, ICI)
  bool whole_cube_wraparound = false;  // v4p/v5p: only slices of whole cubes wrap, on every axis
  double hop_latency_s = 0;
};

struct GpuScaleUp {
  int domain_gpus = 0;
  double gpu_unidir_bytes_per_s = 0;
  bool in_network_reduction = false;
  // The switched domain in detail, optional (0 = unknown; scaling-book/gpus, node networking): NVSwitches per domain
  // and NVLink ports on each, one link's one-way bandwidth, links per GPU (links x link bandwidth =
  // gpu_unidir_bytes_per_s).
  int switches = 0, switch_ports = 0, links_per_gpu = 0;
  double link_unidir_bytes_per_s = 0;
  // Collective latency, optional (0 = the book's bandwidth-only model; issue 22): NCCL's ring model pays a launch
  // latency, then one step latency per ring step inside the domain (scaling-book/gpus counts the steps).
  double launch_latency_s = 0, step_latency_s = 0;
};

struct GpuScaleOut {
  double nic_unidir_bytes_per_s_per_gpu = 0;
  std::vector<int> fat_tree_fanouts;  // children per parent above the scale-up domain
  std::vector<std::string> fat_tree_level_names;
  double step_latency_s = 0;  // optional: one ring step between domains, over the network
};

struct Hardware {
  std::string id, name, vendor;
  ChipKind kind = ChipKind::tpu;
  std::array<double, kDtypeCount> peak_flops_per_s{};  // 0 = the chip has no matrix path for that dtype
  double hbm_capacity_bytes = 0;
  double hbm_bandwidth_bytes_per_s = 0;
  double on_chip_memory_bytes = 0;           // 0 = unknown
  double on_chip_bandwidth_bytes_per_s = 0;  // 0 = unknown
  // Micro-architecture, optional (0 = unknown): matrix units (Tensor Cores / MXUs) per chip and their clock; the
  // vector units' lanes (CUDA cores / VPU ALUs) and their fp32 FLOP/s (scaling-book/tpus and scaling-book/gpus,
  // chip specs).
  double matrix_units = 0, clock_hz = 0, vector_lanes = 0, vector_flops_per_s = 0;
  // One matrix unit's dense bf16 multiply-adds per cycle (a 128x128 MXU: 16,384; an H100 Tensor Core: 512), so the
  // peak follows from the geometry: 2 x MACs x units x clock (scaling-book/tpus, the MXU; scaling-book/gpus, the
  // Tensor Core's FLOPs per cycle). 0 = unknown.
  double matrix_unit_macs_per_cycle = 0;
  // On-chip memory below L2 / VMEM, optional (0 = unknown; scaling-book/tpus and scaling-book/gpus, chip specs): GPU
  // streaming multiprocessors with their shared memory (SMEM/L1) and register file; TPU vector registers (VREGs) per
  // TensorCore.
  double sm_count = 0, smem_bytes_per_sm = 0, register_bytes_per_sm = 0, vector_register_bytes_per_core = 0;
  double host_pcie_unidir_bytes_per_s = 0;
  double dcn_unidir_bytes_per_s_per_chip = 0;  // TPU
  double price_usd_per_chip_hour = 0;
  std::string price_date;
  TpuInterconnect ici;
  GpuScaleUp scale_up;
  GpuScaleOut scale_out;

  double peak(Dtype d) const { return peak_flops_per_s[dtype_index(d)]; }
};

// Parses and validates a hardware object (a preset file, or a preset merged with a scenario's overrides).
// `require_sources`: presets must cite a source for every number; scenarios need not.
Hardware parse_hardware(const Json& node, const std::string& path, bool require_sources, Diagnostics& diagnostics);

}  // namespace scalescope
