#include "mutations.h"

#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "api.h"
#include "golden_cases.h"
#include "io/ranges.h"

namespace scalescope::mutations {

namespace {

using nlohmann::json;

struct Base {
  std::string name;
  json scenario;
};

constexpr int kMutatedSearchPlans = 2048;

std::vector<Base> bases() {
  std::vector<Base> out;
  for (const auto& c : golden::load_cases(golden::golden_dir()))
    if (c.expect_diagnostics.empty() && c.name.rfind("LOAD ERROR", 0) != 0)
      out.push_back({c.file + " :: " + c.name, c.scenario});
  std::ifstream in(std::string(SCALESCOPE_SOURCE_DIR) + "/docs/api.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  int n = 0;
  for (std::size_t at = doc.find("```json\n"); at != std::string::npos; at = doc.find("```json\n", at + 1)) {
    const std::size_t start = at + 8, end = doc.find("```", start);
    if (end == std::string::npos) break;
    const json scenario = json::parse(doc.substr(start, end - start), nullptr, false);
    if (!scenario.is_discarded() && scenario.contains("query"))
      out.push_back({"docs/api.md example " + std::to_string(++n), scenario});
  }
  // A search's extremes are in its first plans as much as in its last: each mutated plan_search stops after its
  // first chunk, so that a 4,096-GPU example costs milliseconds, not a call's whole work limit (it was 37 of the 51
  // s the 75,000 mutations took natively, and more in wasm and under the sanitizers). Whole searches have tests
  // of their own (test_plan_search, test_bounded_work).
  for (Base& b : out)
    if (b.scenario["query"].value("kind", "") == "plan_search" && !b.scenario["query"].contains("chunk_plans"))
      b.scenario["query"]["chunk_plans"] = kMutatedSearchPlans;
  return out;
}

json deep(int levels) {
  json v = 1;
  for (int i = 0; i < levels; ++i) v = json::array({std::move(v)});
  return v;
}

std::vector<std::pair<std::string, json>> number_extremes() {
  return {{"0", 0},
          {"-0", -0.0},
          {"1e-300", 1e-300},
          {"5e-324", 5e-324},
          {"1e300", 1e300},
          {"max double", 1.7976931348623157e308},
          {"-1", -1},
          {"0.5", 0.5},
          {"2^53+1", 9007199254740993ULL},
          {"2^64-1", 18446744073709551615ULL},
          {"-2^63", std::numeric_limits<std::int64_t>::min()},
          {"1e20", 1e20},
          {"string", "1"},
          {"null", nullptr},
          {"true", true},
          {"array", json::array({1})},
          {"object", json::object()},
          {"nesting 40", deep(40)}};
}

std::vector<std::pair<std::string, json>> text_extremes() {
  return {{"empty", ""}, {"non-ASCII", "\xc3\xa9\x01'\\\"\xe2\x80\xae"}, {"5000 bytes", std::string(5000, 'X')}};
}

std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

// Every leaf of `node` (numbers and texts; array entries too), as JSON pointers.
void leaves(const json& node, const std::string& path, std::vector<std::string>& numbers,
            std::vector<std::string>& texts) {
  if (node.is_number())
    numbers.push_back(path);
  else if (node.is_string())
    texts.push_back(path);
  else if (node.is_object())
    for (auto it = node.begin(); it != node.end(); ++it)
      leaves(it.value(), path + "/" + pointer_token(it.key()), numbers, texts);
  else if (node.is_array())
    for (std::size_t i = 0; i < node.size(); ++i) leaves(node[i], path + "/" + std::to_string(i), numbers, texts);
}

// The range io/ranges.cpp gives the number at `pointer` (its key, an array's key for its entries, the peak's for
// each dtype's entry), or nullptr.
const NumberRange* range_at(const std::string& pointer) {
  const json::json_pointer p(pointer);
  if (p.empty()) return nullptr;
  const json::json_pointer parent = p.parent_pointer();
  if (!parent.empty() && parent.back() == "peak_flops_per_s") return find_range("peak_flops_per_s");
  if (const NumberRange* r = find_range(p.back())) return r;
  return parent.empty() ? nullptr : find_range(parent.back());
}

// Each number of `node` at the low or high end of its range (those without one left as they are).
void all_at(json& node, const std::vector<std::string>& pointers, bool high) {
  for (const auto& pointer : pointers)
    if (const NumberRange* r = range_at(pointer)) node[json::json_pointer(pointer)] = high ? r->max : r->min;
}

// Keeps every `stride`-th mutation, built only when kept (building them all is most of the cost under ASan).
struct Sink {
  std::size_t stride, index = 0;
  std::vector<Mutation> out;
  template <typename Make>
  void add(const std::string& base, const std::string& what, Make&& make) {
    if (index++ % stride == 0)
      out.push_back({base + " :: " + what, make().dump(-1, ' ', false, json::error_handler_t::replace)});
  }
};

json with_value(const json& scenario, const std::string& pointer, const json& value) {
  json s = scenario;
  s[json::json_pointer(pointer)] = value;
  return s;
}

// {"preset": id} of a scenario's hardware or model, or nullptr for an inline definition.
const json* preset_of(const json& scenario, const char* key) {
  if (!scenario.contains(key) || !scenario[key].is_object() || !scenario[key].contains("preset")) return nullptr;
  return &scenario[key]["preset"];
}

// The preset's own JSON, from the engine's preset list.
json preset_document(const json& presets, const char* list, const std::string& id) {
  for (const auto& p : presets[list])
    if (p.value("id", "") == id) return p;
  return nullptr;
}

// Overrides that set the preset's number at `pointer` to `value` (an array is replaced whole: merge patch).
json override_for(const json& preset, const std::string& pointer, const json& value) {
  const json::json_pointer p(pointer);
  const json::json_pointer parent = p.parent_pointer();
  if (!parent.empty() && preset[parent].is_array()) {
    json array = preset[parent];
    array[std::stoul(p.back())] = value;
    json out = json::object();
    out[parent] = array;
    return out;
  }
  json out = json::object();
  out[p] = value;
  return out;
}

}  // namespace

std::vector<Mutation> mutated_scenarios(std::size_t stride) {
  Sink sink{stride, 0, {}};
  const auto numbers = number_extremes(), texts = text_extremes();
  const json presets = json::parse(presets_json());
  std::set<std::string> preset_bases;  // query kind, chip, model: one base each
  for (const Base& b : bases()) {
    std::vector<std::string> number_paths, text_paths;
    leaves(b.scenario, "", number_paths, text_paths);
    for (const auto& path : number_paths) {
      for (const auto& extreme : numbers)  // no structured binding: Emscripten's clang 14 cannot capture one
        sink.add(b.name, path + " = " + extreme.first, [&] { return with_value(b.scenario, path, extreme.second); });
      if (const NumberRange* r = range_at(path))
        for (const double bound : {r->min, r->max})
          sink.add(b.name, path + " = range " + (bound == r->min ? "min" : "max"),
                   [&] { return with_value(b.scenario, path, bound); });
    }
    for (const bool high : {false, true})
      sink.add(b.name, std::string("every number at its range ") + (high ? "max" : "min"), [&] {
        json s = b.scenario;
        all_at(s, number_paths, high);
        return s;
      });
    for (const auto& path : text_paths)
      for (const auto& extreme : texts)
        sink.add(b.name, path + " = " + extreme.first, [&] { return with_value(b.scenario, path, extreme.second); });
    const json* hw = preset_of(b.scenario, "hardware");
    const json* model = preset_of(b.scenario, "model");
    const std::string key =
        b.scenario["query"].value("kind", "") + "|" + (hw ? hw->dump() : "") + "|" + (model ? model->dump() : "");
    if (!preset_bases.insert(key).second) continue;
    for (const auto& [part, list] :
         {std::pair<const char*, const char*>{"hardware", "hardware"}, {"model", "models"}}) {
      const char* scenario_key = part;  // clang 14 (Emscripten) cannot capture a structured binding in a lambda
      const json* id = preset_of(b.scenario, scenario_key);
      if (!id || !id->is_string()) continue;
      const json preset = preset_document(presets, list, id->get<std::string>());
      std::vector<std::string> preset_numbers, unused;
      leaves(preset, "", preset_numbers, unused);
      // The scenario with `patch` merged into its overrides (RFC 7386, as the engine merges them into the preset).
      const auto with_override = [&](const json& patch) {
        json s = b.scenario;
        json merged = s[scenario_key].contains("overrides") ? s[scenario_key]["overrides"] : json::object();
        merged.merge_patch(patch);
        s[scenario_key]["overrides"] = merged;
        return s;
      };
      for (const bool high : {false, true})
        sink.add(b.name, std::string("every ") + scenario_key + " number at its range " + (high ? "max" : "min"), [&] {
          json patch = preset;
          all_at(patch, preset_numbers, high);
          patch.erase("sources");
          return with_override(patch);
        });
      for (const auto& path : preset_numbers) {
        if (path.rfind("/sources", 0) == 0) continue;
        const std::string where = std::string("/") + scenario_key + "/overrides" + path;
        for (const auto& extreme : numbers)
          sink.add(b.name, where + " = " + extreme.first,
                   [&] { return with_override(override_for(preset, path, extreme.second)); });
        if (const NumberRange* r = range_at(path))
          for (const double bound : {r->min, r->max})
            sink.add(b.name, where + " = range " + (bound == r->min ? "min" : "max"),
                     [&] { return with_override(override_for(preset, path, bound)); });
      }
    }
  }
  return std::move(sink.out);
}

std::vector<Mutation> base_scenarios() {
  std::vector<Mutation> out;
  for (const Base& b : bases()) out.push_back({b.name, b.scenario.dump()});
  return out;
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace scalescope::mutations
