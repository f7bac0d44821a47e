// Queries over one chip: its specs and critical intensities, an op's roofline, a matmul's roofline.
#include "physics/roofline.h"

#include "planners/training.h"
#include "queries/query.h"

namespace scalescope {

const char* memory_choices() { return "hbm, on_chip, host"; }

double memory_bandwidth(const Hardware& hw, const std::string& memory, const std::string& path, Diagnostics& d) {
  if (memory == "hbm") return hw.hbm_bandwidth_bytes_per_s;
  if (memory == "host") return hw.host_pcie_unidir_bytes_per_s;
  if (memory == "on_chip") {
    if (hw.on_chip_bandwidth_bytes_per_s > 0) return hw.on_chip_bandwidth_bytes_per_s;
    add_diagnostic(d, path, "unknown_for_chip",
                   hw.name + " has no on-chip memory bandwidth; set hardware.overrides.on_chip_bandwidth_bytes_per_s");
    return 0;
  }
  add_diagnostic(d, path, "unknown_choice", "unknown memory '" + memory + "'; valid: " + memory_choices());
  return 0;
}

double peak_for(const Hardware& hw, Dtype dtype, const std::string& path, Diagnostics& d) {
  const double peak = hw.peak(dtype);
  if (peak > 0) return peak;
  std::vector<std::string> have;
  for (Dtype t : kAllDtypes)
    if (hw.peak(t) > 0) have.emplace_back(dtype_name(t));
  add_diagnostic(
      d, path, "dtype_not_supported",
      hw.name + " has no " + std::string(dtype_name(dtype)) + " matrix throughput; it has: " + join_choices(have));
  return 0;
}

namespace {

Json roofline_json(const Roofline& r) {
  return {{"compute_s", r.compute_s},
          {"memory_s", r.memory_s},
          {"lower_bound_s", r.lower_bound_s},
          {"upper_bound_s", r.upper_bound_s},
          {"intensity_flops_per_byte", r.intensity_flops_per_byte},
          {"critical_intensity_flops_per_byte", r.critical_intensity_flops_per_byte},
          {"attainable_flops_per_s", r.attainable_flops_per_s},
          {"bound", r.compute_bound ? "compute" : "memory"}};
}

// On-chip memory (scaling-book/tpus and scaling-book/gpus, chip specs), what the preset knows: GPU L2, SMEM and
// registers (per SM and in all); TPU VMEM and vector registers (per TensorCore and per chip).
Json on_chip_json(const Hardware& hw) {
  Json out = Json::object();
  const bool gpu = hw.kind == ChipKind::gpu;
  if (hw.on_chip_memory_bytes > 0) out[gpu ? "l2_bytes" : "vmem_bytes"] = hw.on_chip_memory_bytes;
  if (hw.on_chip_bandwidth_bytes_per_s > 0)
    out[gpu ? "l2_bandwidth_bytes_per_s" : "vmem_bandwidth_bytes_per_s"] = hw.on_chip_bandwidth_bytes_per_s;
  if (gpu && hw.sm_count > 0) {
    out["sm_count"] = hw.sm_count;
    if (hw.smem_bytes_per_sm > 0) {
      out["smem_bytes_per_sm"] = hw.smem_bytes_per_sm;
      out["smem_bytes"] = hw.sm_count * hw.smem_bytes_per_sm;
    }
    if (hw.register_bytes_per_sm > 0) {
      out["register_bytes_per_sm"] = hw.register_bytes_per_sm;
      out["register_bytes"] = hw.sm_count * hw.register_bytes_per_sm;
    }
  }
  if (!gpu && hw.vector_register_bytes_per_core > 0) {
    out["vector_register_bytes_per_core"] = hw.vector_register_bytes_per_core;
    out["vector_register_bytes"] = hw.vector_register_bytes_per_core * hw.ici.cores_per_chip;
  }
  return out;
}

// Bandwidth for a roofline: an explicit "bandwidth_bytes_per_s", else the named memory (default HBM).
double read_bandwidth(const Hardware& hw, JsonReader& args, Diagnostics& d) {
  if (auto w = args.number("bandwidth_bytes_per_s", false)) {
    args.accept("memory");
    return *w;
  }
  const auto memory = args.choice("memory", false, {"hbm", "on_chip", "host"}).value_or("hbm");
  return memory_bandwidth(hw, memory, args.path_of("memory"), d);
}

}  // namespace

Json run_chip(const QueryContext& ctx, JsonReader&, Diagnostics&) {
  const Hardware& hw = *ctx.hw;
  Json peaks = Json::object(), critical = Json::object(), per_usd = Json::object();
  for (Dtype t : kAllDtypes) {
    const double c = hw.peak(t);
    if (c <= 0) continue;
    const std::string name(dtype_name(t));
    peaks[name] = c;
    critical[name] = c / hw.hbm_bandwidth_bytes_per_s;        // scaling-book/roofline and scaling-book/tpus
    per_usd[name] = c * 3600.0 / hw.price_usd_per_chip_hour;  // scaling-book/applied-inference, cost: FLOPs per dollar
  }
  const double c = hw.peak(Dtype::bf16);
  Json out{{"id", hw.id},
           {"name", hw.name},
           {"kind", chip_kind_name(hw.kind)},
           {"peak_flops_per_s", peaks},
           {"hbm_capacity_bytes", hw.hbm_capacity_bytes},
           {"hbm_bandwidth_bytes_per_s", hw.hbm_bandwidth_bytes_per_s},
           {"hbm_critical_intensity_flops_per_byte", critical},
           {"flops_per_usd", per_usd},
           {"price_usd_per_chip_hour", hw.price_usd_per_chip_hour},
           // scaling-book/training, data parallelism: bf16 weights + fp32 Adam moments = 10 bytes per parameter on
           // every chip under pure DP.
           {"max_params_pure_dp", hw.hbm_capacity_bytes / 10.0},
           {"host_critical_intensity_flops_per_byte", c / hw.host_pcie_unidir_bytes_per_s},
           // scaling-book/roofline: the matmul's weights-bound critical batch, B > (C/W) * bytes_per_param / 2, for
           // bf16 weights.
           {"hbm_critical_batch_bf16_tokens", matmul_critical_batch(c, hw.hbm_bandwidth_bytes_per_s, Dtype::bf16)}};
  // scaling-book/gpus, the Tensor Core: FLOPs per matrix unit per cycle; Quiz 1 Questions 1, 6 and 7: vector lanes,
  // implied clock, vector intensity.
  if (hw.matrix_units > 0 && hw.clock_hz > 0)
    out["matrix_flops_per_unit_per_cycle"] = c / (hw.matrix_units * hw.clock_hz);
  if (hw.vector_flops_per_s > 0) {
    out["vector_flops_per_s"] = hw.vector_flops_per_s;
    out["vector_critical_intensity_flops_per_byte"] = hw.vector_flops_per_s / hw.hbm_bandwidth_bytes_per_s;
    out["vector_to_matrix_ratio"] = hw.vector_flops_per_s / c;
    if (hw.vector_lanes > 0) {
      out["vector_lanes"] = hw.vector_lanes;
      // With fused multiply-adds every lane does 2 FLOPs a cycle: clock = FLOP/s / (2 lanes).
      out["vector_clock_hz_if_fma"] = hw.vector_flops_per_s / (2.0 * hw.vector_lanes);
    }
  }
  // The TPU chapter's VPU arithmetic (v5p: 8 sublanes x 128 lanes x 4 ALUs x 2 cores x 1.75 GHz = 1.4e13): every
  // lane does one FLOP a cycle, or two with fused multiply-adds.
  if (hw.vector_lanes > 0 && hw.clock_hz > 0) {
    out["vector_flops_per_s_from_lanes"] = hw.vector_lanes * hw.clock_hz;
    out["vector_flops_per_s_from_lanes_with_fma"] = 2.0 * hw.vector_lanes * hw.clock_hz;
  }
  // scaling-book/tpus, the MXU; scaling-book/gpus, the Tensor Core: the peak from the matrix units' geometry and clock,
  // 2 x MACs x units x clock, against the preset's (a check on both).
  if (hw.matrix_unit_macs_per_cycle > 0 && hw.matrix_units > 0 && hw.clock_hz > 0) {
    const double geometry = 2.0 * hw.matrix_unit_macs_per_cycle * hw.matrix_units * hw.clock_hz;
    out["peak_bf16_flops_per_s_from_geometry"] = geometry;
    out["geometry_to_preset_peak_frac"] = geometry / c;
  }
  if (hw.on_chip_bandwidth_bytes_per_s > 0)
    out["on_chip_critical_intensity_flops_per_byte"] = c / hw.on_chip_bandwidth_bytes_per_s;
  out["on_chip"] = on_chip_json(hw);
  if (hw.kind == ChipKind::tpu) {
    const double w_ici = 2.0 * hw.ici.link_unidir_bytes_per_s;  // bidirectional per axis (scaling-book/tpus, ICI)
    out["ici_bidir_bytes_per_s_per_axis"] = w_ici;
    out["ici_critical_intensity_flops_per_byte"] = c / w_ici;  // scaling-book/training's alpha (2550 on v5p)
    out["dcn_critical_intensity_flops_per_byte"] = c / hw.dcn_unidir_bytes_per_s_per_chip;  // scaling-book/training
    // scaling-book/sharding: a hop carrying less than W_uni x T_min (45 kB on v5e) is latency-bound.
    out["ici_latency_bound_bytes_per_hop"] = hw.ici.link_unidir_bytes_per_s * hw.ici.hop_latency_s;
    // scaling-book/roofline: two chips exchanging partial sums over one link are compute-bound iff D > 2 C / W_link
    // (8,755 on v5e).
    out["two_chip_contracting_dim_threshold"] = 2.0 * c / hw.ici.link_unidir_bytes_per_s;
  } else {
    const double node_egress = hw.scale_up.domain_gpus * hw.scale_out.nic_unidir_bytes_per_s_per_gpu;
    out["scale_up_critical_intensity_flops_per_byte"] = c / hw.scale_up.gpu_unidir_bytes_per_s;  // scaling-book/gpus
                                                                                                 // (2200 H100)
    out["scale_out_critical_intensity_flops_per_byte"] = c / node_egress;                        // scaling-book/gpus
                                                                           // (2475 H100: W_node = 400e9)
    out["domain_egress_unidir_bytes_per_s"] = node_egress;
  }
  return out;
}

namespace {

// The dtype whose peak an op runs at: `dtype`, or a training matmul `precision`'s (a scaled recipe runs at its
// element type's: fp8_blockwise and mxfp8 at fp8, nvfp4 at fp4), so that a page never keeps that table.
Dtype roofline_dtype(JsonReader& args, Diagnostics& d) {
  if (!args.has("precision")) return args.dtype("dtype", false).value_or(Dtype::bf16);
  if (args.has("dtype"))
    add_diagnostic(d, args.path_of("precision"), "inconsistent", "give 'dtype' or 'precision', not both");
  args.dtype("dtype", false);
  TrainingPrecision p;
  if (const auto name = args.choice("precision", false, matmul_precision_choices())) set_matmul_precision(*name, p);
  return p.matmul;
}

}  // namespace

Json run_roofline(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  const double flops = args.number("flops", true).value_or(0);
  const double bytes = args.number("bytes", true).value_or(0);
  const double chips = args.number("chips", false).value_or(1);
  const Dtype dtype = roofline_dtype(args, d);
  const double peak = args.number("peak_flops_per_s", false).value_or(0);
  const double c =
      peak > 0 ? peak : peak_for(hw, dtype, args.path_of(args.has("precision") ? "precision" : "dtype"), d);
  const double w = read_bandwidth(hw, args, d);
  if (c <= 0 || w <= 0) return {};
  // scaling-book/roofline; with chips > 1 the work and the bytes split evenly (the critical batch is per replica).
  Json out = roofline_json(roofline(flops / chips, bytes / chips, c, w));
  out["flops_per_chip"] = flops / chips;
  out["bytes_per_chip"] = bytes / chips;
  out["peak_flops_per_s"] = c;
  out["bandwidth_bytes_per_s"] = w;
  if (peak <= 0) out["dtype"] = dtype_name(dtype);
  return out;
}

Json run_matmul(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  MatmulShape s;
  s.b = args.number("batch", true).value_or(0);
  s.d = args.number("d", true).value_or(0);
  s.f = args.number("f", true).value_or(0);
  MatmulDtypes t;
  t.lhs = args.dtype("lhs_dtype", false).value_or(Dtype::bf16);
  t.rhs = args.dtype("rhs_dtype", false).value_or(Dtype::bf16);
  t.out = args.dtype("out_dtype", false).value_or(t.lhs);
  // The MXU / Tensor Core runs in the activations' format unless told otherwise (int8 weights, bf16 FLOPs:
  // scaling-book/roofline, Question 2).
  const Dtype compute = args.dtype("compute_dtype", false).value_or(t.lhs);
  const double chips = args.number("chips", false).value_or(1);
  const double c = peak_for(hw, compute, args.path_of("compute_dtype"), d);
  const double w = read_bandwidth(hw, args, d);
  if (c <= 0 || w <= 0 || s.b <= 0 || s.d <= 0 || s.f <= 0) return {};
  const double flops = matmul_flops(s), bytes = matmul_bytes(s, t);
  Json out = roofline_json(roofline(flops / chips, bytes / chips, c, w));
  out["flops"] = flops;
  out["bytes"] = bytes;
  const double crossover = matmul_crossover_batch(s.d, s.f, t, c, w);
  out["compute_bound_batch_exact"] = crossover;  // 0: never compute-bound
  out["compute_bound_batch_approx"] = matmul_critical_batch(c, w, t.rhs);
  out["peak_flops_per_s"] = c;
  out["bandwidth_bytes_per_s"] = w;
  return out;
}

}  // namespace scalescope
