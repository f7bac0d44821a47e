// A trace held against the plan it ran (issue 37 item 2): the engine's training step for the traced scenario, at
// either fidelity, beside the trace's measured time per step and device, grouped as the calibrated step's
// breakdown is (matmuls, MoE experts, attention, elementwise, optimizer, communication, overheads). The caller
// runs the scenario (the CLI's --scenario, Python's scenario=) and hands its answer in; this layer runs no query.
#pragma once
#include "io/json_reader.h"

namespace scalescope {

// `report`: trace_report's result; `step`: a training_step answer ({ok, query, result}); `steps`: the steps the
// trace holds (0: one). Diagnostics at `path` for an answer that is not a training step that ran.
Json compare_with_step(const Json& report, const Json& step, double steps, const std::string& steps_from,
                       const std::string& path, Diagnostics& diagnostics);

}  // namespace scalescope
