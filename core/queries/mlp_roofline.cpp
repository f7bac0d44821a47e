// The mlp_roofline query: the book's training-roofline figure (scaling-book/training).
#include <algorithm>
#include <cmath>

#include "physics/bounds.h"
#include "physics/layout.h"
#include "queries/query.h"

namespace scalescope {

// The book's training-roofline figure (scaling-book/training, mixed FSDP + TP): per layer, a 2-matrix MLP In[B, D]
// W_in[D, F] W_out[F, D] under FSDP X and TP Y (X Y = N chips): compute 4BDF/(N C) forward, comms max(T_FSDP, T_TP) (or
// their sum) with T_FSDP = 4DF/(Y W M_X) and T_TP = 4BD/(X W M_Y).
Json run_mlp_roofline(const QueryContext& ctx, JsonReader& args, Diagnostics& d) {
  const Hardware& hw = *ctx.hw;
  const double d_model = args.number("d_model", true).value_or(1);
  const double d_ff = args.number("d_ff", true).value_or(1);
  const double x = args.number("fsdp", true).value_or(1);
  const double y = args.number("tp", true).value_or(1);
  auto m_x_arg = args.number("fsdp_axes", !ctx.mesh);
  auto m_y_arg = args.number("tp_axes", !ctx.mesh);
  const bool sum_model = args.choice("comms_model", false, {"max", "sum"}).value_or("max") == "sum";
  const bool backward = args.boolean("include_backward", false).value_or(false);
  const std::vector<double> batches = args.numbers("batches", true);
  if (ctx.mesh && x * y != ctx.mesh->chips)
    add_diagnostic(d, args.path_of("fsdp"), "mesh_mismatch", "fsdp x tp must equal the mesh's chips");
  if (has_errors(d) || hw.kind != ChipKind::tpu) {
    if (hw.kind != ChipKind::tpu)
      add_diagnostic(d, "/hardware", "not_applicable", "the MLP roofline figure is for TPU slices");
    return {};
  }
  double m_x = 1, m_y = 1;
  if (ctx.mesh) {
    // The figure's decoding (scaling-book/training): FSDP laid first, TP after it; each counts the axes it touches.
    int axis = 0;
    double used = 1;
    m_x = std::max(1, place_in_order(x, *ctx.mesh, axis, used));
    m_y = std::max(1, place_in_order(y, *ctx.mesh, axis, used));
  }
  if (m_x_arg) m_x = *m_x_arg;
  if (m_y_arg) m_y = *m_y_arg;
  const double n = x * y, c = hw.peak(Dtype::bf16), w = 2.0 * hw.ici.link_unidir_bytes_per_s;
  const double passes = backward ? 3.0 : 1.0;  // backward doubles both compute and comms
                                               // (scaling-book/training's table)
  Json points = Json::array();
  for (double b : batches) {
    const double compute = passes * 4.0 * b * d_model * d_ff / (n * c);
    const double fsdp = x > 1 ? passes * 4.0 * d_model * d_ff / (y * w * m_x) : 0.0;
    const double tp = y > 1 ? passes * 4.0 * b * d_model / (x * w * m_y) : 0.0;
    const double comms = sum_model ? fsdp + tp : std::max(fsdp, tp);
    points.push_back({{"batch", b},
                      {"compute_s", compute},
                      {"fsdp_s", fsdp},
                      {"tp_s", tp},
                      {"comms_s", comms},
                      {"bound", compute >= comms ? "compute" : "communication"}});
  }
  // Compute and T_TP both grow with B: TP alone decides whether any batch is compute-bound. The sum model needs
  // compute to outgrow T_TP strictly (its crossover divides by the difference of their slopes).
  const bool tp_always_bound = y > 1 && d_ff * x * m_y * w < n * c;  // 4BDF/(NC) < 4BD/(X W M_Y)
  const double slope_gap = 4.0 * d_model * d_ff - n * c * 4.0 * d_model / (x * w * m_y);
  double crossover = 0;
  if (!tp_always_bound && x > 1) {
    const double fsdp_crossover = x * c / (w * m_x);  // scaling-book/training, FSDP: B > X C / (W M_X)
    // Without TP (y = 1) the sum has no T_TP term: the crossover is FSDP's alone.
    crossover = sum_model && y > 1 ? (slope_gap > 0 ? n * c * (4.0 * d_model * d_ff / (y * w * m_x)) / slope_gap : 0.0)
                                   : fsdp_crossover;
  }
  return {{"fsdp", x},
          {"tp", y},
          {"fsdp_axes", m_x},
          {"tp_axes", m_y},
          {"chips", n},
          {"comms_bound_at_every_batch", tp_always_bound},
          {"comms_bound_below_batch", crossover},
          {"fsdp_optimal_degree",
           fsdp_optimal_degree(std::max(1.0, batches.empty() ? 1.0 : batches.back()), d_ff, m_x, m_y, n)},
          {"points", points}};
}

}  // namespace scalescope
