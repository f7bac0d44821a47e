#include "planners/plan_search.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "planners/plan_layout.h"

namespace scalescope {

namespace {

// The ranking's key: fitting first, then the objective, then the step with no overlap at all (upper_bound_s: of two
// equal steps, the one with more slack), then less memory per chip, then the earlier ordinal.
struct RankKey {
  bool fits;
  double objective, no_overlap_s, bytes;
  long long index;
};
RankKey key_of(const RankedPlan& p) { return {p.fits, p.objective, p.step.upper_bound_s, p.step.total_bytes, p.index}; }
bool key_before(const RankKey& a, const RankKey& b) {
  if (a.fits != b.fits) return a.fits;
  if (a.objective != b.objective) return a.objective < b.objective;
  if (a.no_overlap_s != b.no_overlap_s) return a.no_overlap_s < b.no_overlap_s;
  if (a.bytes != b.bytes) return a.bytes < b.bytes;
  return a.index < b.index;
}

}  // namespace

bool ranks_before(const RankedPlan& a, const RankedPlan& b) { return key_before(key_of(a), key_of(b)); }

namespace {

double objective_of(const TrainingInput& in, const TrainingStep& s, const SearchSettings& settings) {
  switch (settings.objective) {
    case SearchObjective::wall_time: {
      const Goodput g = evaluate_goodput(goodput_plan(in, s, settings.model_state_bytes), settings.goodput);
      if (g.goodput_frac <= 0) return std::numeric_limits<double>::infinity();
      return in.train_tokens > 0 ? g.wall_time_s : s.step_s / g.goodput_frac;
    }
    case SearchObjective::step_time:
      return s.step_s;
    case SearchObjective::cost_to_train:  // dollars to train, or per step when no token count is given
      return in.train_tokens > 0 ? s.train_usd : s.step_s * s.usd_per_hour / 3600.0;
    case SearchObjective::tokens_per_usd:
      return s.usd_per_hour > 0 ? -s.tokens_per_s / s.usd_per_hour : -s.tokens_per_s;
  }
  return s.step_s;
}

// The objective of a step of `step_s` at `usd_per_hour`, computed as the calibrated step computes its rates and
// cost: a bound's objective is then at most that of any step at least as long (rounding is monotone).
double objective_at(const TrainingInput& in, double usd_per_hour, double step_s, SearchObjective o) {
  const double tokens_per_s = in.batch_tokens / step_s;
  switch (o) {
    case SearchObjective::step_time:
      return step_s;
    case SearchObjective::wall_time:  // at a goodput of 1, which no plan beats
      return in.train_tokens > 0 ? in.train_tokens / tokens_per_s : step_s;
    case SearchObjective::cost_to_train:
      return in.train_tokens > 0 ? in.train_tokens / tokens_per_s / 3600.0 * usd_per_hour
                                 : step_s * usd_per_hour / 3600.0;
    case SearchObjective::tokens_per_usd:
      return usd_per_hour > 0 ? -tokens_per_s / usd_per_hour : -tokens_per_s;
  }
  return step_s;
}

// What a plan's checks and bound know before its layout matters. Its degrees and settings decide all but the DCN
// checks, its memory and its compute bound; the layouts of one combination of degrees share them (86 layouts a
// combination in the explorer's default space), so the search works them out once per setting.
struct SettingBound {
  bool checked = false;      // `problems` is known
  bool bound_known = false;  // the rest is
  bool bounded = false;      // the evaluator has a bound for this setting
  bool fits = false;
  unsigned problems = 0;  // setting_problems
  double total_bytes = 0, compute_bound_s = 0, usd_per_hour = 0;
};
// Settings of one combination past which the search keeps none (their list would outweigh what it saves).
constexpr std::int64_t kMaxKeptSettings = 1 << 16;

// The Pareto front in (step time, memory per chip), fastest first, memory strictly falling. (Cost is step time x
// chips x price: on one mesh it adds no dimension.) A plan equal to one on the front is dominated.
bool front_dominates(const std::vector<RankedPlan>& front, double step_s, double bytes) {
  auto it = std::upper_bound(front.begin(), front.end(), step_s,
                             [](double s, const RankedPlan& p) { return s < p.step.step_s; });
  return it != front.begin() && (it - 1)->step.total_bytes <= bytes;
}

void front_insert(std::vector<RankedPlan>& front, RankedPlan&& plan) {
  const double s = plan.step.step_s, m = plan.step.total_bytes;
  auto it =
      std::upper_bound(front.begin(), front.end(), s, [](double v, const RankedPlan& p) { return v < p.step.step_s; });
  while (it != front.begin() && (it - 1)->step.step_s == s) it = front.erase(it - 1);  // same step, more memory
  auto end = it;
  while (end != front.end() && end->step.total_bytes >= m) ++end;
  it = front.erase(it, end);
  front.insert(it, std::move(plan));
}

// What the step model reads of a layout (planners/training.cpp: each group's collectives over its ICI pieces and
// over DCN, its hop bandwidth, its axis counts for the thresholds). Two layouts of one combination with the same
// fingerprint give every setting the same numbers: the later one is not evaluated again (counted `equivalent`).
constexpr int kFingerprintPerGroup = 16;
using LayoutFingerprint = std::array<double, kFingerprintPerGroup * kLayoutStrategies>;

LayoutFingerprint fingerprint_of(const Hardware& hw, const Mesh& mesh,
                                 const std::array<AxisGroup, kLayoutStrategies>& g) {
  LayoutFingerprint f{};
  const Collective ops[] = {Collective::all_gather, Collective::all_reduce, Collective::all_to_all};
  const double probes[] = {1e3, 1e9};
  for (int s = 0; s < kLayoutStrategies; ++s) {
    double* v = f.data() + s * kFingerprintPerGroup;
    int k = 0;
    v[k++] = g[s].ici_degree;
    v[k++] = g[s].dcn_degree;
    v[k++] = g[s].ici_axes;
    v[k++] = group_hop_unidir_bytes_per_s(hw, mesh, g[s]);
    for (Collective op : ops)
      for (double bytes : probes) {
        v[k++] = group_collective(hw, mesh, g[s], op, bytes).time_s;
        if (op != Collective::all_reduce) v[k++] = group_dcn_collective(hw, mesh, g[s], op, bytes).time_s;
      }
  }
  return f;
}

struct FingerprintHash {
  std::size_t operator()(const LayoutFingerprint& f) const {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the bits
    for (double v : f) {
      std::uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      h = (h ^ bits) * 1099511628211ull;
    }
    return static_cast<std::size_t>(h ^ (h >> 32));
  }
};

struct Walker {
  const PlanSpace& space;
  const SearchSettings& settings;
  PlanSearchState& state;
  long long end = 0;  // stop before this ordinal
  TrainingInput in;
  const DegreeCombo* combo = nullptr;
  KnobLists lists;
  std::array<int, kKnobDimensions> radix{};
  std::int64_t layout_index = 0;
  std::unordered_set<LayoutFingerprint, FingerprintHash> seen;  // this combination's layouts so far
  CalibratedStepBound bound;  // the plan's bound, and the model's counts that every plan of the space shares
  std::vector<SettingBound> setting_bounds;  // the current combination's, by setting (empty: too many settings)
  long long work = 0;                        // this call's work: plans checked and evaluated, layouts fingerprinted
  long long evaluation_work = 1;             // what evaluating one plan costs, in work units
  long long start = 0;                       // state.next when the call began
  double hbm_limit = 0;
  long long next_progress = 0;
  bool stop = false;

  // While a walker runs, the best k are a heap with the worst on top, so a plan enters in O(log k) moves (issue 41:
  // a sorted vector moved up to 999 large plans per insert, and keep 1000 doubled a search's time); they are sorted
  // best first again when it ends.
  Walker(const PlanSpace& sp, const SearchSettings& se, PlanSearchState& st) : space(sp), settings(se), state(st) {
    in = sp.base;
    hbm_limit = sp.base.hw->hbm_capacity_bytes * (1.0 - se.memory_headroom_frac);
    evaluation_work = sp.base.model->pattern.evaluation_work();
    std::make_heap(state.best.begin(), state.best.end(), ranks_before);
  }
  ~Walker() { std::sort_heap(state.best.begin(), state.best.end(), ranks_before); }
  Walker(const Walker&) = delete;
  Walker& operator=(const Walker&) = delete;

  bool out_of_work() const { return settings.max_work > 0 && work >= settings.max_work; }

  // Whether a plan whose step is at least `step_s` (its objective at least `objective`) and whose memory is `bytes`
  // could enter the best k or the front. Ties are priced: the ranking breaks them on the no-overlap step.
  bool can_win(long long index, bool fits, double objective, double step_s, double bytes) const {
    const std::vector<RankedPlan>& best = state.best;
    if (static_cast<int>(best.size()) < settings.keep) return true;
    const RankKey lowest{fits, objective, -HUGE_VAL, bytes, index};
    if (!key_before(key_of(best.front()), lowest)) return true;
    return fits && !front_dominates(state.front, step_s, bytes);
  }

  // A priced plan into the best k (a heap, the worst on top) and the Pareto front, where it belongs in either.
  void keep_if_ranked(long long index, const TrainingStep& step, double objective, bool fits) {
    const bool to_front = fits && !front_dominates(state.front, step.step_s, step.total_bytes);
    std::vector<RankedPlan>& best = state.best;
    const bool to_best =
        static_cast<int>(best.size()) < settings.keep ||
        key_before(RankKey{fits, objective, step.upper_bound_s, step.total_bytes, index}, key_of(best.front()));
    if (!to_front && !to_best) return;
    RankedPlan plan{index, in, step, objective, fits};
    if (to_best) {
      if (static_cast<int>(best.size()) >= settings.keep) {
        std::pop_heap(best.begin(), best.end(), ranks_before);  // the worst kept goes
        best.back() = plan;
      } else {
        best.push_back(plan);
      }
      std::push_heap(best.begin(), best.end(), ranks_before);
    }
    if (to_front) front_insert(state.front, std::move(plan));
  }

  // `setting`: the plan's setting within its combination (its share of setting_bounds), or -1.
  void rank(long long index, bool count, std::int64_t setting = -1) {
    SearchCounts& n = state.counts;
    ++work;
    if (count) ++n.evaluated;
    SettingBound* known =
        setting >= 0 && setting < static_cast<std::int64_t>(setting_bounds.size()) ? &setting_bounds[setting] : nullptr;
    if (known && !known->checked) {
      known->problems = setting_problems(in);
      known->checked = true;
    }
    const unsigned problems = (known ? known->problems : setting_problems(in)) | layout_problems(in.plan);
    if (problems & ~kPlanWarnings) return;
    work += evaluation_work - 1;
    if (count) ++n.valid;
    if (problems & kPlanWarnings) {
      if (count) ++n.with_warnings;
      if (!settings.include_warnings) return;
    }
    // With a bound, a plan is priced only when it can still enter the best k or the front: the bound lies below its
    // calibrated step and the memory is exact, so a plan whose bound loses to both loses itself, and the search
    // ends as the exhaustive one does, plan for plan and count for count. The compute bound comes first (kept per
    // setting); only a plan it cannot rule out pays for the book's step, comms and all.
    bool bounded = false;
    if (settings.evaluate.bound) {
      SettingBound fresh;
      SettingBound& b = known ? *known : fresh;
      bool counted = false;  // the book's memory half of this plan is in `bound`
      if (!b.bound_known) {
        b.bounded = settings.evaluate.bound(in, settings.evaluate.context, bound);
        b.fits = bound.total_bytes <= hbm_limit;
        b.total_bytes = bound.total_bytes;
        b.compute_bound_s = bound.step_s;
        b.usd_per_hour = bound.ideal.usd_per_hour;
        b.bound_known = counted = true;
      }
      bounded = b.bounded;
      if (bounded) {
        if (b.fits && count) ++n.fitting;
        if (settings.must_fit && !b.fits) return;
        if (count) ++n.ranked;
        auto loses = [&](double step_s) {
          return !can_win(index, b.fits, objective_at(in, b.usd_per_hour, step_s, settings.objective), step_s,
                          b.total_bytes);
        };
        if (loses(b.compute_bound_s)) {
          if (count) ++n.bounded;
          return;
        }
        if (!counted) settings.evaluate.bound(in, settings.evaluate.context, bound);
        settings.evaluate.tighten(in, bound);
        if (loses(bound.step_s)) {
          if (count) ++n.bounded;
          return;
        }
      }
    }
    const TrainingStep step = settings.evaluate(in, bounded ? &bound.ideal : nullptr);
    const bool fits = step.total_bytes <= hbm_limit;
    if (!bounded) {
      if (fits && count) ++n.fitting;
      if (settings.must_fit && !fits) return;
      if (count) ++n.ranked;
    }
    const double objective = objective_of(in, step, settings);
    keep_if_ranked(index, step, objective, fits);
  }

  // The settings of one layout, from ordinal `base + first` to before `base + last`.
  void settings_of_layout(long long base, std::int64_t first, std::int64_t last) {
    std::array<int, kKnobDimensions> digit{};
    std::int64_t knob = first;
    for (int d = kKnobDimensions - 1; d >= 0; --d) {
      digit[d] = static_cast<int>(knob % radix[d]);
      knob /= radix[d];
    }
    for (std::int64_t k = first; k < last; ++k) {
      if (out_of_work() && base + k > start) {  // stop here; the next call goes on from this plan
        state.next = base + k;
        state.work_limited = stop = true;
        return;
      }
      apply_knobs(space, *combo, lists, digit, in);
      rank(base + k, true, k);
      for (int d = kKnobDimensions - 1; d >= 0 && ++digit[d] == radix[d]; --d) digit[d] = 0;
      if (settings.progress && state.counts.evaluated >= next_progress) {
        next_progress += settings.progress_every;
        if (!settings.progress(base + k + 1, space.size, settings.progress_context)) {
          state.next = base + k + 1;
          stop = true;
          return;
        }
      }
    }
  }

  static bool visit(const MeshLayout& layout, void* context) {
    Walker& w = *static_cast<Walker*>(context);
    const DegreeCombo& c = *w.combo;
    const long long base = c.first + static_cast<long long>(w.layout_index++) * c.knobs;
    if (base >= w.end) {
      w.stop = true;
      return false;
    }
    std::array<AxisGroup, kLayoutStrategies> groups;
    layout_groups(*w.space.base.mesh, layout, groups);
    ++w.work;
    // Earlier layouts are fingerprinted even in a resumed chunk that skips them (at most kMaxLayoutsPerPlan).
    const bool equivalent = !w.seen.insert(fingerprint_of(*w.space.base.hw, *w.space.base.mesh, groups)).second;
    if (base + c.knobs <= w.state.next) return true;  // searched in an earlier chunk
    if (w.out_of_work() && base > w.start) {
      w.state.work_limited = w.stop = true;  // state.next is this layout's first plan
      return false;
    }
    set_plan_groups(w.in.plan, groups);
    const std::int64_t first = static_cast<std::int64_t>(std::max<long long>(0, w.state.next - base));
    const std::int64_t last = static_cast<std::int64_t>(std::min<long long>(c.knobs, w.end - base));
    if (equivalent)
      w.state.counts.equivalent += last - first;
    else
      w.settings_of_layout(base, first, last);
    if (w.stop) return false;
    w.state.next = base + last;
    if (last < c.knobs) {
      w.stop = true;
      return false;
    }
    return true;
  }

  void run() {
    next_progress = state.counts.evaluated + settings.progress_every;
    auto it = std::upper_bound(space.combos.begin(), space.combos.end(), state.next,
                               [](long long i, const DegreeCombo& c) { return i < c.first; });
    for (auto c = it == space.combos.begin() ? it : it - 1; c != space.combos.end() && !stop; ++c) {
      if (c->first + static_cast<long long>(c->layouts) * c->knobs <= state.next || c->knobs == 0) continue;
      combo = &*c;
      lists = knob_lists(space, *c);
      radix = lists.radix();
      layout_index = 0;
      seen.clear();
      setting_bounds.assign(c->knobs <= kMaxKeptSettings ? static_cast<std::size_t>(c->knobs) : 0, SettingBound{});
      LayoutRules rules = space.rules;
      rules.degrees = c->degrees;
      for_each_layout(*space.base.mesh, rules, visit, this);
    }
    if (!stop) state.next = space.size;
  }
};

}  // namespace

void continue_search(const PlanSpace& space, const SearchSettings& settings, PlanSearchState& state,
                     long long max_plans) {
  state.counts.space = space.size;
  state.work_limited = false;
  Walker w(space, settings, state);
  w.start = state.next;
  w.end = max_plans > 0 ? std::min(space.size, state.next + max_plans) : space.size;
  if (state.next < w.end) w.run();
  state.counts.pruned = state.counts.ranked - static_cast<long long>(state.front.size());
}

void restore_plans(const PlanSpace& space, const SearchSettings& settings, PlanSearchState& state,
                   const std::vector<long long>& indices) {
  Walker w(space, settings, state);
  for (long long i : indices)
    if (decode_plan(space, i, w.in)) w.rank(i, false);
}

std::vector<std::string> plan_differences(const Mesh& mesh, const RankedPlan& a, const RankedPlan& b) {
  std::vector<std::string> out;
  const TrainingPlan &p = a.input.plan, &q = b.input.plan;
  const AxisGroup* ga[] = {&p.data, &p.fsdp, &p.tensor, &p.pipeline, &p.expert, &p.context};
  const AxisGroup* gb[] = {&q.data, &q.fsdp, &q.tensor, &q.pipeline, &q.expert, &q.context};
  auto pieces = [&](const AxisGroup& g) {
    std::string s;
    for (int i = 0; i < g.count; ++i)
      s += (i ? " " : "") + mesh.axes[g.pieces[i].axis].name + ":" + std::to_string(g.pieces[i].size) + "@" +
           std::to_string(g.pieces[i].stride);
    return s.empty() ? std::string("-") : s;
  };
  for (int s = 0; s < kLayoutStrategies; ++s) {
    const std::string x = pieces(*ga[s]), y = pieces(*gb[s]);
    if (x != y) out.push_back(std::string(kStrategyKeys[s]) + ": " + x + " vs " + y);
  }
  auto add = [&](bool differ, const std::string& text) {
    if (differ) out.push_back(text);
  };
  auto num = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return std::string(buf);
  };
  add(p.zero_stage != q.zero_stage && (p.fsdp.degree > 1 || q.fsdp.degree > 1),
      "zero_stage: " + num(p.zero_stage) + " vs " + num(q.zero_stage));
  add(p.schedule != q.schedule, std::string("pipeline_schedule: ") + pipeline_schedule_name(p.schedule) + " vs " +
                                    pipeline_schedule_name(q.schedule));
  add(p.virtual_stages != q.virtual_stages,
      "virtual_stages: " + num(p.virtual_stages) + " vs " + num(q.virtual_stages));
  add(p.microbatches != q.microbatches, "microbatches: " + num(p.microbatches) + " vs " + num(q.microbatches));
  add(a.input.remat != b.input.remat,
      "remat: " + std::string(remat_name(a.input.remat)) + " vs " + std::string(remat_name(b.input.remat)));
  // In the words of space.offload's choices.
  auto offload = [](const TrainingPlan& x) {
    return x.offload_optimizer && x.offload_activations ? "both"
           : x.offload_optimizer                        ? "optimizer"
           : x.offload_activations                      ? "activations"
                                                        : "none";
  };
  add(offload(p) != std::string(offload(q)), std::string("offload: ") + offload(p) + " vs " + offload(q));
  add(matmul_precision_name(a.input.precision) != std::string(matmul_precision_name(b.input.precision)),
      std::string("matmul: ") + matmul_precision_name(a.input.precision) + " vs " +
          matmul_precision_name(b.input.precision));
  add(p.expert_tensor != q.expert_tensor,
      "expert_tensor: " + num(expert_tensor_degree(p)) + " vs " + num(expert_tensor_degree(q)));
  add(a.input.moe.capacity_factor != b.input.moe.capacity_factor,
      "capacity_factor: " + num(a.input.moe.capacity_factor) + " vs " + num(b.input.moe.capacity_factor));
  add(p.sequence_parallel != q.sequence_parallel, std::string("sequence_parallel: ") +
                                                      (p.sequence_parallel ? "true" : "false") + " vs " +
                                                      (q.sequence_parallel ? "true" : "false"));
  add(p.context_variant != q.context_variant, std::string("context_variant: ") +
                                                  context_variant_name(p.context_variant) + " vs " +
                                                  context_variant_name(q.context_variant));
  return out;
}

PlanSearchState search_training_plans(const TrainingInput& base, int keep, const CalibrationProfile* profile) {
  const PlanSpace space = build_plan_space(base, SpaceOptions{});
  SearchSettings settings;
  settings.keep = keep;
  settings.evaluate = step_evaluator(profile);
  PlanSearchState state;
  continue_search(space, settings, state, 0);
  return state;
}

}  // namespace scalescope
