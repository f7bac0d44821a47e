// The calibrated fidelity of serving (docs/design.md "Fidelity and calibration"): a decode step and a prefill as every
// op of every layer on one chip of the replica, each bound by its own roofline at what the profile's serving
// engine achieves, plus the per-op launch cost that dominates small decode steps and the tensor-parallel
// all-reduces with their latency. The book's step (serving.h) stays the ideal beside it. Allocation-free.
#pragma once
#include "physics/layer_ops.h"
#include "planners/serving.h"
#include "specs/calibration_profile.h"

namespace scalescope {

// The shape one chip of the replica sees: `tokens` new tokens attending to `keys` keys each (decode: `at_end`), the
// expert axis splitting the sequences (attention data parallel), the whole batch on every TP rank.
LayerShape serving_layer_shape(const ServingInput& in, double tokens, double keys, bool causal, bool at_end);

// `tokens_per_sequence` > 1 scores several tokens per sequence at once (speculative verification).
DecodeStep calibrated_decode_step(const ServingInput& in, const CalibrationProfile& profile, double batch,
                                  double context, double tokens_per_sequence = 1.0);
PrefillStep calibrated_prefill(const ServingInput& in, const CalibrationProfile& profile, double batch,
                               double prompt_len);

// A serving replica at one fidelity: the book's closed forms (no profile) or the calibrated ops.
struct ServingModel {
  const ServingInput* in = nullptr;
  const CalibrationProfile* profile = nullptr;

  DecodeStep decode(double batch, double context, double tokens_per_sequence = 1.0) const {
    return profile ? calibrated_decode_step(*in, *profile, batch, context, tokens_per_sequence)
                   : decode_step(*in, batch, context, tokens_per_sequence);
  }
  PrefillStep prefill(double batch, double prompt_len) const {
    return profile ? calibrated_prefill(*in, *profile, batch, prompt_len) : scalescope::prefill(*in, batch, prompt_len);
  }
};

}  // namespace scalescope
