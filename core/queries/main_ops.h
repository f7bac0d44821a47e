// A step's main ops in its result (issue 39): `main_ops`, the matmuls and attention of the model's layers and the
// logits on one chip, with their roofline (planners/main_ops.h), for training_step (one microbatch, as the
// calibrated step prices it) and serving (the decode step and the prefill). Once per query, never in a search.
#pragma once
#include "planners/serving.h"
#include "planners/training.h"
#include "queries/query.h"

namespace scalescope {

// One microbatch on one chip of the step `step` ran for `in` (calibrated_training's microbatch_shape).
Json training_main_ops_json(const TrainingInput& in, const TrainingStep& step);

// The decode step (`batch` sequences at `context` keys) and the prefill (`batch` prompts of `prompt_len`), each op
// with its `phase`, at the shapes the calibrated serving step prices (serving_layer_shape).
Json serving_main_ops_json(const ServingInput& in, double batch, double context, double prompt_len);

}  // namespace scalescope
