#include "specs/hardware.h"

namespace scalescope {

namespace {

// Reads an array of 1 to 3 axis sizes into `out` (their range: io/ranges.cpp under `key`).
void read_shape(JsonReader& r, const std::string& key, std::array<int, 3>& out, Diagnostics& d) {
  const Json* a = r.array(key, true);
  if (!a) return;
  if (a->empty() || a->size() > 3) {
    add_diagnostic(d, r.path_of(key), "wrong_length", "'" + key + "' must list 1 to 3 axis sizes");
    return;
  }
  for (std::size_t i = 0; i < a->size(); ++i)
    if (auto v = read_number_value((*a)[i], json_pointer_child(r.path_of(key), i), key, d))
      out[i] = static_cast<int>(*v);
}

void read_peak_flops(JsonReader& r, Hardware& hw, Diagnostics& d) {
  const Json* node = r.object("peak_flops_per_s", true);
  if (!node) return;
  JsonReader flops(*node, r.path_of("peak_flops_per_s"), d);
  for (Dtype dt : kAllDtypes) {
    const bool required = dt == Dtype::bf16;
    if (auto v = flops.number(std::string(dtype_name(dt)), required, "peak_flops_per_s"))
      hw.peak_flops_per_s[dtype_index(dt)] = *v;
  }
  flops.finish();
}

void read_ici(JsonReader& r, TpuInterconnect& ici, Diagnostics& d) {
  const Json* node = r.object("ici", true);
  if (!node) return;
  JsonReader s(*node, r.path_of("ici"), d);
  if (auto v = s.number("torus_dims", true)) ici.torus_dims = static_cast<int>(*v);
  read_shape(s, "max_slice_shape", ici.max_slice_shape, d);
  read_shape(s, "host_shape", ici.host_shape, d);
  if (auto v = s.number("cores_per_chip", true)) ici.cores_per_chip = static_cast<int>(*v);
  if (auto v = s.number("link_unidir_bytes_per_s", true)) ici.link_unidir_bytes_per_s = *v;
  if (auto v = s.number("links_per_chip", true)) ici.links_per_chip = static_cast<int>(*v);
  if (auto v = s.number("wraparound_axis_multiple", true)) ici.wraparound_axis_multiple = static_cast<int>(*v);
  if (auto v = s.choice("wraparound_rule", true, {"whole_cubes", "per_axis"}))
    ici.whole_cube_wraparound = *v == "whole_cubes";
  if (auto v = s.number("hop_latency_s", true)) ici.hop_latency_s = *v;
  s.finish();
}

void read_scale_up(JsonReader& r, GpuScaleUp& up, Diagnostics& d) {
  const Json* node = r.object("scale_up", true);
  if (!node) return;
  JsonReader s(*node, r.path_of("scale_up"), d);
  if (auto v = s.number("domain_gpus", true)) up.domain_gpus = static_cast<int>(*v);
  if (auto v = s.number("gpu_unidir_bytes_per_s", true)) up.gpu_unidir_bytes_per_s = *v;
  if (auto v = s.boolean("in_network_reduction", true)) up.in_network_reduction = *v;
  up.switches = static_cast<int>(s.number("switches", false).value_or(0));
  up.switch_ports = static_cast<int>(s.number("switch_ports", false).value_or(0));
  up.links_per_gpu = static_cast<int>(s.number("links_per_gpu", false).value_or(0));
  up.link_unidir_bytes_per_s = s.number("link_unidir_bytes_per_s", false).value_or(0);
  up.launch_latency_s = s.number("launch_latency_s", false).value_or(0);
  up.step_latency_s = s.number("step_latency_s", false).value_or(0);
  s.finish();
}

void read_scale_out(JsonReader& r, GpuScaleOut& out, Diagnostics& d) {
  const Json* node = r.object("scale_out", true);
  if (!node) return;
  JsonReader s(*node, r.path_of("scale_out"), d);
  if (auto v = s.number("nic_unidir_bytes_per_s_per_gpu", true)) out.nic_unidir_bytes_per_s_per_gpu = *v;
  out.step_latency_s = s.number("step_latency_s", false).value_or(0);
  // A fat tree of more levels would hold more GPUs than a double counts exactly.
  if (const Json* a = s.array("fat_tree_fanouts", true, kMaxFatTreeLevels))
    for (std::size_t i = 0; i < a->size(); ++i)
      if (auto v =
              read_number_value((*a)[i], json_pointer_child(s.path_of("fat_tree_fanouts"), i), "fat_tree_fanouts", d))
        out.fat_tree_fanouts.push_back(static_cast<int>(*v));
  if (const Json* a = s.array("fat_tree_level_names", true, kMaxFatTreeLevels)) {
    for (const auto& name : *a)
      out.fat_tree_level_names.push_back(name.is_string() ? name.get<std::string>() : std::string("?"));
    if (a->size() != out.fat_tree_fanouts.size())
      add_diagnostic(d, s.path_of("fat_tree_level_names"), "wrong_length",
                     "'fat_tree_level_names' must name each entry of 'fat_tree_fanouts'");
  }
  s.finish();
}

}  // namespace

Hardware parse_hardware(const Json& node, const std::string& path, bool require_sources, Diagnostics& d) {
  Hardware hw;
  JsonReader r(node, path, d);
  if (!r.ok_object()) return hw;
  // Presets carry their identity; a scenario's custom chip may leave it out.
  r.choice("schema", require_sources, {"scalescope.hardware/1"});
  hw.id = r.string("id", require_sources).value_or("custom");
  hw.name = r.string("name", require_sources).value_or("custom chip");
  hw.vendor = r.string("vendor", require_sources).value_or("");
  const auto kind = r.choice("kind", true, {"tpu", "gpu"});
  hw.kind = kind && *kind == "gpu" ? ChipKind::gpu : ChipKind::tpu;
  read_peak_flops(r, hw, d);
  hw.hbm_capacity_bytes = r.number("hbm_capacity_bytes", true).value_or(0);
  hw.hbm_bandwidth_bytes_per_s = r.number("hbm_bandwidth_bytes_per_s", true).value_or(0);
  hw.on_chip_memory_bytes = r.number("on_chip_memory_bytes", false).value_or(0);
  hw.on_chip_bandwidth_bytes_per_s = r.number("on_chip_bandwidth_bytes_per_s", false).value_or(0);
  hw.matrix_units = r.number("matrix_units", false).value_or(0);
  hw.clock_hz = r.number("clock_hz", false).value_or(0);
  hw.vector_lanes = r.number("vector_lanes", false).value_or(0);
  hw.vector_flops_per_s = r.number("vector_flops_per_s", false).value_or(0);
  hw.matrix_unit_macs_per_cycle = r.number("matrix_unit_macs_per_cycle", false).value_or(0);
  hw.sm_count = r.number("sm_count", false).value_or(0);
  hw.smem_bytes_per_sm = r.number("smem_bytes_per_sm", false).value_or(0);
  hw.register_bytes_per_sm = r.number("register_bytes_per_sm", false).value_or(0);
  hw.vector_register_bytes_per_core = r.number("vector_register_bytes_per_core", false).value_or(0);
  hw.host_pcie_unidir_bytes_per_s = r.number("host_pcie_unidir_bytes_per_s", true).value_or(0);
  hw.price_usd_per_chip_hour = r.number("price_usd_per_chip_hour", true).value_or(0);
  hw.price_date = r.string("price_date", true).value_or("");
  if (hw.kind == ChipKind::tpu) {
    hw.dcn_unidir_bytes_per_s_per_chip = r.number("dcn_unidir_bytes_per_s_per_chip", true).value_or(0);
    read_ici(r, hw.ici, d);
  } else {
    read_scale_up(r, hw.scale_up, d);
    read_scale_out(r, hw.scale_out, d);
  }
  r.array("notes", false);
  r.object("datasheet_differences", false);
  const Json* sources = r.object("sources", require_sources);
  if (require_sources) check_sources(node, path, sources, d);
  r.finish();
  return hw;
}

}  // namespace scalescope
