// The kernel level of calibration (docs/design.md "Fidelity and calibration"; issue 34): one chip's kernel models
// fitted to its measured kernel tables, op by op, and validated on shapes the fit never saw. Each op's constants are
// fitted by robust least squares on log time (calibration/robust_fit: what AIConfigurator found transfers, a model of
// utilisation, not of raw time), with the rows split before any fit:
//   - held, every fifth row of each table (interpolation between measured shapes);
//   - held, one whole shape family per op (a GEMM width, a head count, a model's hidden size, a decade of message
//     sizes) that no fitted row shares (the transfer to a model whose shapes were never measured).
// Latent attention's tables (MLA) fit models of their own: its kernels are not the standard attention's.
// The shipped constants are the fit on the fit rows only, so the held figures are out of sample for them.
#pragma once
#include <string>
#include <vector>

#include "calibration/kernel_tables.h"
#include "specs/hardware.h"
#include "specs/kernel_models.h"
#include "specs/matmul_tiling.h"

namespace scalescope {

// |error| of one op's rows, split as above (relative error predicted / measured - 1).
struct KernelScore {
  std::string op, variant;  // "gemm", "bf16"; "collective", "all_gather"; "decode_attention", "mla"; ...
  std::string family;       // the held-out shape family, in words
  std::size_t fit_rows = 0, held_rows = 0, family_rows = 0;
  double fit_median = 0, held_median = 0, held_p90 = 0, family_median = 0, family_p90 = 0;
  double signed_median = 0;  // over the held and family rows (below 0: the model is fast)
  std::string stop;          // how the fit stopped
  int iterations = 0;
};

struct KernelFit {
  KernelModels kernels;  // kernels.source: the tables, and the models without one (they keep `start`'s constants)
  MatmulTiling tiling;
  std::vector<KernelScore> scores;
};

// `start`: the constants each fit starts from and is pulled towards (weakly), and which unfitted ops keep.
KernelFit fit_kernels(const KernelTables& tables, const Hardware& hw, const KernelModels& start);

// The family's kernel models from its chips' (the geometric mean of each constant over the chips that fitted that
// model), and each chip's with the models it has no table for (source.unfitted) taken from the family.
struct KernelFamily {
  KernelModels family;
  std::vector<KernelModels> chips;  // in the order given, filled in
};
KernelFamily kernel_family(const std::vector<KernelModels>& chips);

}  // namespace scalescope
