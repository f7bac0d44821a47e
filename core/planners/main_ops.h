// The main ops of a step on one chip (issue 39): the matmuls and attention of the model's layers and the logits,
// from the same per-op lists the calibrated step prices (physics/layer_ops.h), each at the chip's roofline. A query
// reports them once beside its step (queries/main_ops); no step or search calls this. Allocation-free.
#pragma once
#include <array>

#include "io/dtype.h"
#include "physics/layer_ops.h"
#include "specs/hardware.h"
#include "specs/model.h"

namespace scalescope {

// One op as one chip runs it in one layer for one microbatch (forward pass).
//
// Ops of the same name in different layer kinds (specs/layer_pattern.h: dense and MoE layers, full and windowed
// attention) are merged into one: `flops` and `bytes` are their mean over the `layers` that run the op, weighted by
// each kind's layer count. The names are layer_ops' own, so a model's attention ("attention" for a full and a
// sliding-window layer alike) stays one point, and MLA's projections or a linear layer's are their own ops.
struct MainOp {
  const char* name;  // layer_ops' name: qkv_projection, kv_up_projection, attention, experts_up, logits, ...
  OpKind kind;       // matmul or attention (elementwise ops are left out)
  Dtype dtype;       // the dtype whose peak prices it
  double layers;     // the model's layers that run it (1 for the logits)
  double flops;      // FLOPs on one chip
  double bytes;      // HBM bytes on one chip
  double intensity_flops_per_byte;
  double attainable_flops_per_s;  // min(peak, intensity x HBM bandwidth)
  double time_s;                  // at the chip's roofline: max(FLOPs / peak, bytes / HBM bandwidth)
  bool compute_bound;
};

constexpr int kMaxMainOps = 2 * kMaxLayerOps;
struct MainOps {
  std::array<MainOp, kMaxMainOps> op;  // the first `count` are set, in the order the layers run them
  int count = 0;
};

// The dtypes a step runs its matmuls in: the weight matmuls (`linear`: a training recipe's matmul dtype, a serving
// engine's low-precision GEMMs) and the rest in bf16; `serving` runs the ops a serving engine keeps in fp8 (the
// sparse indexer's scores) there. A dtype the chip has no peak for falls back to bf16.
// `kv_bytes` (decode: bytes per cached value) adds the KV caches each decode attention op reads, as the decode step
// prices them beside the op (calibrated_serving).
struct MainOpDtypes {
  Dtype linear = Dtype::bf16;
  bool serving = false;
  double kv_bytes = 0;
};

// The main ops of every layer kind the model has, then the logits, for the shape one chip sees.
MainOps main_ops(const ModelConfig& m, const Hardware& hw, const LayerShape& shape, MainOpDtypes dtypes);

}  // namespace scalescope
