// The structured, property-based fuzz stage (issue 41), beside libFuzzer's byte-level one: random scenarios built by
// composing one to four structured edits on the mutator's valid bases (a value replaced by a hostile one, a key
// dropped or added, the query kind swapped, an array entry repeated), each answer held to the API's contract:
// - it is sound (tests/invariants.h: ok agrees with the errors, no internal_error, no NaN, every diagnostic whole),
//   through evaluate_json and evaluate_whole_json;
// - every diagnostic's path is in the input, or names a key missing from an object that is (a result check's is
//   under /result);
// - validate gives exactly evaluate's diagnostics;
// - a plan search call stays within its work limit (counted in plans, not seconds);
// - the CLI's exit status agrees with `ok` (every 50th scenario, run through the binary).
// Deterministic for a seed: a failure prints its scenario, to replay with --seed and --count.
// Usage: contract_fuzz [--seed N] [--count N] [--cli PATH]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "api.h"
#include "invariants.h"
#include "io/limits.h"
#include "mutations.h"

using nlohmann::json;

namespace {

struct Rng {
  std::mt19937_64 engine;
  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : engine() % n; }
};

json deep(int levels) {
  json v = 1;
  for (int i = 0; i < levels; ++i) v = json{{"a", std::move(v)}};
  return v;
}

json hostile(Rng& g) {
  switch (g.below(22)) {
    case 0:
      return 0;
    case 1:
      return -1;
    case 2:
      return 1e308;
    case 3:
      return -0.0;
    case 4:
      return 5e-324;
    case 5:
      return 9007199254740993.0;
    case 6:
      return 0.5;
    case 7:
      return 1e15;
    case 8:
      return "";
    case 9:
      return "\xc3\xa9\"'<b>\xe2\x80\x94";
    case 10:
      return std::string(5000, 'x');
    case 11:
      return nullptr;
    case 12:
      return true;
    case 13:
      return json::array();
    case 14:
      return json::object();
    case 15:
      return json::array({1, 2, 3});
    case 16:
      return deep(40);
    case 17:
      return "plan_search";
    case 18:
      return "h100-sxm";
    case 19:
      return 4096;
    case 20:
      return 3;
    default:
      return std::int64_t{1} << (g.below(40));
  }
}

// Every node's JSON pointer (the root excluded).
void pointers(const json& node, const std::string& at, std::vector<std::string>& out) {
  if (node.is_object())
    for (auto it = node.begin(); it != node.end(); ++it) {
      std::string key = it.key(), escaped;
      for (char c : key) escaped += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
      const std::string child = at + "/" + escaped;  // by value: the recursion grows `out`
      out.push_back(child);
      pointers(it.value(), child, out);
    }
  else if (node.is_array())
    for (std::size_t i = 0; i < node.size(); ++i) {
      const std::string child = at + "/" + std::to_string(i);
      out.push_back(child);
      pointers(node[i], child, out);
    }
}

const std::vector<std::string>& kinds() {
  static const std::vector<std::string> all =
      json::parse(scalescope::presets_json())["queries"].get<std::vector<std::string>>();
  return all;
}

void edit(json& scenario, Rng& g) {
  std::vector<std::string> at;
  pointers(scenario, "", at);
  if (at.empty()) return;
  const json::json_pointer p(at[g.below(at.size())]);
  json& node = scenario[p];
  json& parent = scenario[p.parent_pointer()];
  switch (g.below(6)) {
    case 0:
    case 1:
      node = hostile(g);
      break;
    case 2:
      if (parent.is_object()) parent.erase(p.back());
      break;
    case 3:
      if (node.is_object()) node["zz_unknown"] = hostile(g);
      break;
    case 4:
      if (scenario.contains("query") && scenario["query"].is_object())
        scenario["query"]["kind"] = kinds()[g.below(kinds().size())];
      break;
    default:
      if (node.is_array() && !node.empty() && node.size() < 64) node.push_back(node[g.below(node.size())]);
      break;
  }
}

bool resolves(const json& doc, const std::string& pointer) {
  try {
    return doc.contains(json::json_pointer(pointer));
  } catch (const json::exception&) {
    return false;
  }
}

// The contract's rules beyond soundness, one line per broken one.
std::vector<std::string> contract_problems(const json& scenario, const std::string& text, const std::string& answer) {
  std::vector<std::string> out = scalescope::invariants::answer_problems(answer);
  if (!out.empty()) return out;
  const json a = json::parse(answer);
  for (const json& d : a["diagnostics"]) {
    const std::string path = d["path"];
    if (path.empty() || path.rfind("/result", 0) == 0 || resolves(scenario, path)) continue;
    const std::string parent = path.substr(0, path.rfind('/'));
    if (!resolves(scenario, parent) || !scenario[json::json_pointer(parent)].is_object())
      out.push_back("diagnostic at " + path + " (" + d["code"].get<std::string>() + ") is not in the input");
  }
  // The CLI's and Python's entry point looks at the query again to resume a search (issue 41 #4 threw there).
  if (a.value("query", "") != "plan_search")
    for (const auto& p : scalescope::invariants::answer_problems(scalescope::evaluate_whole_json(text)))
      out.push_back("evaluate_whole_json: " + p);
  const json v = json::parse(scalescope::validate_json(text));
  if (v["diagnostics"] != a["diagnostics"] || v["ok"] != a["ok"])
    out.push_back("validate disagrees: " + v["diagnostics"].dump().substr(0, 300));
  if (a.value("query", "") == "plan_search" && a["ok"] == true) {
    const json& counts = a["result"]["counts"];
    const long long walked = counts.value("evaluated", 0LL);
    if (walked > scalescope::kMaxSearchWorkPerCall + scalescope::kMaxLayoutsPerPlan)
      out.push_back("a plan search call walked " + std::to_string(walked) + " plans, past its work limit");
  }
  return out;
}

int cli_status(const std::string& cli, const std::string& text) {
  const std::string file = "contract_fuzz_scenario.json";
  if (std::FILE* f = std::fopen(file.c_str(), "wb")) {
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  const int raw = std::system((cli + " " + file + " > /dev/null 2>&1").c_str());
  std::remove(file.c_str());
  return raw == -1 ? -1 : WEXITSTATUS(raw);
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 41;
  long count = 20000;
  std::string cli;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--seed")
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (key == "--count")
      count = std::strtol(argv[i + 1], nullptr, 10);
    else if (key == "--cli")
      cli = argv[i + 1];
  }
  const auto bases = scalescope::mutations::base_scenarios();
  Rng g{std::mt19937_64(seed)};
  std::map<std::string, long> tally;
  long failures = 0;
  for (long n = 0; n < count; ++n) {
    const auto& base = bases[g.below(bases.size())];
    json scenario = json::parse(base.scenario);
    const int edits = 1 + static_cast<int>(g.below(4));
    for (int e = 0; e < edits; ++e) edit(scenario, g);
    const std::string text = scenario.dump();
    const std::string answer = scalescope::evaluate_json(text);
    auto problems = contract_problems(scenario, text, answer);
    const bool ok = json::parse(answer).value("ok", false);
    ++tally[ok ? "accepted" : "refused"];
    tally["diagnostics"] += static_cast<long>(json::parse(answer)["diagnostics"].size());
    if (!cli.empty() && n % 50 == 0) {
      ++tally["cli runs"];
      const int status = cli_status(cli, text);
      if (status != (ok ? 0 : 1))
        problems.push_back("the CLI exits " + std::to_string(status) + " for ok = " + (ok ? "true" : "false"));
    }
    if (problems.empty()) continue;
    if (++failures <= 10) {
      std::fprintf(stderr, "scenario %ld (from %s):\n  %s\n", n, base.name.c_str(), text.substr(0, 1500).c_str());
      for (const auto& p : problems) std::fprintf(stderr, "  - %s\n", p.c_str());
    }
  }
  std::printf(
      "contract fuzz: seed %llu, %ld scenarios (%ld accepted, %ld refused), %ld diagnostics checked, %ld CLI "
      "runs; %ld broke the contract\n",
      static_cast<unsigned long long>(seed), count, tally["accepted"], tally["refused"], tally["diagnostics"],
      tally["cli runs"], failures);
  return failures == 0 ? 0 : 1;
}
