// The engine's one entry point: scenario JSON text in, result JSON text out. The CLI, the wasm module and the
// golden tests all call this. It never throws and never returns NaN or Inf.
#pragma once
#include <functional>
#include <string>
#include <string_view>

#include "io/json_reader.h"
#include "io/version.h"

namespace scalescope {

// {"ok": bool, "query": kind, "result": {...}, "diagnostics": [{path, code, message}], "engine_version": "..."}
Json evaluate(const Json& scenario);
std::string evaluate_json(std::string_view scenario_text);
// As evaluate_json, but a plan_search that stopped at the per-call work limit is resumed until its answer is whole
// (unless the query asked for `chunk_plans`): what the CLI and the Python module answer. `progress`, when given,
// is called with each partial result before the search resumes (its progress_frac and space say how far it is).
using SearchProgress = std::function<void(const Json& partial_result)>;
std::string evaluate_whole_json(std::string_view scenario_text, const SearchProgress& progress = {});
// A JSON array of scenarios in, the array of their results out (one call per slider move instead of many).
std::string evaluate_many_json(std::string_view scenarios_text);

// A sweep's answers, trimmed: {"scenarios": [...], "fields": ["/time/step_s", ...]} in (the fields as JSON pointers
// into each answer's result), {"ok": true, "fields": [...], "rows": [[ok, first error or null, value at each field
// or null], ...]} out. The same numbers as evaluate_many_json, at a fraction of the text to write and to parse.
std::string evaluate_fields_json(std::string_view request_text);

// {"hardware": [{id, name, ...}], "models": [...], "queries": [...]}
std::string presets_json();

// A scenario's `model` object as text in (a preset with overrides, an inline model or an hf_config), the model the
// engine resolves it to out: {"ok": bool, "model": {...preset fields..., "not_modelled": [...]}, "diagnostics": [...]}
// (the `model` query's answer in another form; scalescope --hf-model, Python's scalescope.model, wasm model_json).
std::string model_json(std::string_view model_text);

// The diagnostics evaluate_json would give, without the result: {"ok": bool, "query": kind, "diagnostics": [...]}.
// Every reader runs, the query's arguments included, so it costs what evaluate_json costs.
std::string validate_json(std::string_view scenario_text);

// The fixed answer when the engine itself failed (an internal_error diagnostic): what a boundary returns if
// anything escapes. The entry points above already catch (issue 12), natively; under wasm nothing may throw.
std::string failure_json();

}  // namespace scalescope
