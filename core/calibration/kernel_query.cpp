// The kernel level's queries (docs/api.md "kernel_fit", "kernel_family"): one chip's kernel models fitted to its
// measured kernel tables with the held-out error of every op, and a chip family's models from its chips' (the
// constants of chips without some table, and of chips without any, for the calibration profiles).
#include "calibration/kernel_fit.h"
#include "calibration/query_kinds.h"

namespace scalescope {

namespace {

Json tiling_json(const MatmulTiling& t) {
  return {{"tile_m", t.tile_m}, {"tile_n", t.tile_n}, {"tile_k", t.tile_k}, {"parallel_tiles", t.parallel_tiles}};
}

Json score_json(const KernelScore& s) {
  return {{"op", s.op},
          {"variant", s.variant},
          {"held_family", s.family},
          {"fit_rows", s.fit_rows},
          {"held_rows", s.held_rows},
          {"family_rows", s.family_rows},
          {"fit_median_frac", s.fit_median},
          {"held_median_frac", s.held_median},
          {"held_p90_frac", s.held_p90},
          {"family_median_frac", s.family_median},
          {"family_p90_frac", s.family_p90},
          {"signed_median_frac", s.signed_median},
          {"stop", s.stop},
          {"iterations", s.iterations}};
}

}  // namespace

Json run_kernel_fit(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Json* node = args.object("tables", true);
  args.finish();
  if (!node || has_errors(d)) return {};
  const KernelTables tables = read_kernel_tables(*node, args.path_of("tables"), d);
  if (has_errors(d)) return {};
  if (tables.hardware != ctx.hw->id)
    add_diagnostic(
        d, args.path_of("tables") + "/hardware", "inconsistent",
        "the tables were measured on '" + tables.hardware + "', the scenario's hardware is '" + ctx.hw->id + "'");
  if (ctx.hw->kind != ChipKind::gpu)
    add_diagnostic(d, "/hardware", "not_applicable", "kernel tables are fitted for GPUs (no TPU tables are public)");
  if (has_errors(d)) return {};
  // Every fit starts from the models' stated defaults (specs/kernel_models.h), so the answer is a function of the
  // tables alone.
  const KernelFit fit = fit_kernels(tables, *ctx.hw, KernelModels{});
  Json scores = Json::array();
  for (const KernelScore& s : fit.scores) scores.push_back(score_json(s));
  return {{"hardware", ctx.hw->id},
          {"kernels", kernel_models_json(fit.kernels)},
          {"tiling", tiling_json(fit.tiling)},
          {"scores", scores}};
}

Json run_kernel_family(const QueryContext&, JsonReader& args, Diagnostics& d) {
  const Json* chips = args.array("chips", true);
  args.finish();
  if (!chips || has_errors(d)) return {};
  std::vector<KernelModels> models;
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < chips->size(); ++i) {
    JsonReader c((*chips)[i], json_pointer_child(args.path_of("chips"), i), d);
    if (!c.ok_object()) continue;
    ids.push_back(c.string("hardware", true).value_or(""));
    if (const Json* k = c.object("kernels", true)) models.push_back(read_kernel_models(*k, c.path_of("kernels"), d));
    c.finish();
  }
  if (has_errors(d)) return {};
  const KernelFamily family = kernel_family(models);
  Json out_chips = Json::array();
  for (std::size_t i = 0; i < family.chips.size(); ++i)
    out_chips.push_back({{"hardware", ids[i]}, {"kernels", kernel_models_json(family.chips[i])}});
  return {{"family", kernel_models_json(family.family)}, {"chips", out_chips}};
}

}  // namespace scalescope
