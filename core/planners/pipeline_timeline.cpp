#include "planners/pipeline_timeline.h"

#include <algorithm>
#include <limits>

#include "planners/pipeline.h"

namespace scalescope {

const char* pipeline_pass_name(PipelinePassKind k) {
  switch (k) {
    case PipelinePassKind::forward:
      return "forward";
    case PipelinePassKind::backward:
      return "backward";
    case PipelinePassKind::input_grad:
      return "input_grad";
    case PipelinePassKind::weight_grad:
      return "weight_grad";
  }
  return "forward";
}

namespace {

// One pass of microbatch `m` at position `k` of its path through the model chunks, or (m < 0) the oldest weight
// gradient its stage deferred.
struct Item {
  int m = -1, k = 0;
  PipelinePassKind kind = PipelinePassKind::weight_grad;
};
// What a stage runs next: one item, or DualPipe's overlapped forward-and-backward pair, which starts once both of its
// inputs are there and takes the two passes' time (the overlap hides communication, not compute).
struct Slot {
  Item item[2];
  int count = 1;
};
using Orders = std::vector<std::vector<Slot>>;

Slot one(Item a) { return {{a, Item{}}, 1}; }

constexpr PipelinePassKind kF = PipelinePassKind::forward;

// GPipe (Huang et al. 2019): every forward, then every backward.
Orders gpipe_orders(int S, int M) {
  Orders o(S);
  for (int s = 0; s < S; ++s) {
    for (int m = 0; m < M; ++m) o[s].push_back(one({m, s, kF}));
    for (int m = 0; m < M; ++m) o[s].push_back(one({m, s, PipelinePassKind::backward}));
  }
  return o;
}

// 1F1B (Narayanan et al. 2021, PipeDream-Flush) and its interleaved form (§2.2; Megatron-LM's schedules.py,
// num_warmup_microbatches): microbatches in groups of S, each group through every chunk in turn (backward: the
// chunks in reverse); stage s runs its warm-up forwards, then one forward and one backward in turn. ZB-H1 keeps the
// order with the backward split (Qi et al. 2023, §3).
Orders one_f_one_b_orders(int S, int M, int v, PipelinePassKind backward) {
  Orders o(S);
  const auto sequence = [&](int s, bool forward) {
    std::vector<Slot> out;
    for (int g = 0; g * S < M; ++g)
      for (int c = 0; c < v; ++c)
        for (int i = 0; i < S && g * S + i < M; ++i) {
          const int chunk = forward ? c : v - 1 - c;
          out.push_back(one({g * S + i, chunk * S + s, forward ? kF : backward}));
        }
    return out;
  };
  for (int s = 0; s < S; ++s) {
    const std::vector<Slot> f = sequence(s, true), b = sequence(s, false);
    const std::size_t warm =
        std::min(f.size(), static_cast<std::size_t>(v == 1 ? S - s - 1 : (S - s - 1) * 2 + (v - 1) * S));
    o[s].assign(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(warm));
    for (std::size_t fi = warm, bi = 0; fi < f.size() || bi < b.size();) {
      if (fi < f.size()) o[s].push_back(f[fi++]);
      if (bi < b.size()) o[s].push_back(b[bi++]);
    }
  }
  return o;
}

// DualPipe and DualPipeV as deepseek-ai/DualPipe @3da1bbe runs them (dualpipe.py and dualpipev.py, step(): eight
// phases per rank). Each rank runs two chunks. DualPipe: microbatches enter from both ends, the first half at stage 0
// and the second half at stage S - 1; a rank's chunk 0 is where it sits in the first half of that path. DualPipeV:
// every microbatch goes down the ranks and back up (2S chunks of half a stage). Each phase is a pattern of passes
// repeated: 'F'/'f' the forward of chunk 0/1, 'B'/'b' a whole backward, 'I'/'i' a backward whose weight gradients wait,
// 'W' the oldest waiting weight gradients, '+' the overlapped pair of the pass before it and the one after it.
Orders dualpipe_orders(int S, int M, bool v_shape) {
  Orders o(S);
  const int ranks_per_half = v_shape ? S : S / 2;
  for (int r = 0; r < S; ++r) {
    const int h = v_shape ? r : std::min(r, S - 1 - r);
    const bool second_half = !v_shape && r >= S / 2;
    const int k[2] = {h, v_shape ? 2 * S - 1 - r : S - 1 - h};  // each chunk's position on its path
    // The first microbatch of each chunk's direction.
    const int first[2] = {second_half ? M / 2 : 0, v_shape || second_half ? 0 : M / 2};
    int forwards[2] = {0, 0}, backwards[2] = {0, 0};
    std::vector<Slot>& out = o[r];
    const auto repeat = [&](int times, const char* pattern) {
      for (int t = 0; t < times; ++t)
        for (const char* c = pattern; *c; ++c) {
          Item i;
          const char lower = static_cast<char>(*c | 0x20);
          const int p = *c == lower ? 1 : 0;
          if (*c == '+' || *c == 'W') {
            if (*c == 'W') out.push_back(one(i));
            continue;
          }
          i.k = k[p];
          i.kind = lower == 'f' ? kF : lower == 'b' ? PipelinePassKind::backward : PipelinePassKind::input_grad;
          i.m = first[p] + (lower == 'f' ? forwards : backwards)[p]++;
          if (c > pattern && c[-1] == '+')
            out.back().item[out.back().count++] = i;
          else
            out.push_back(one(i));
        }
    };
    const int later = ranks_per_half - h - 1;
    repeat(2 * later, "F");
    repeat(h + 1, "Ff");
    repeat(later, "iWf");
    const int main_steps = (v_shape ? M - 2 * S : M / 2 - S) + h + 1;
    repeat(1, h == ranks_per_half - 1 ? "Fbf+B" : "F+bf+B");  // the middle rank does not overlap its first pair
    repeat(main_steps - 1, "F+bf+B");
    repeat(later, "bf+B");
    // The second half of these backwards defer their weight gradients.
    const int half = (h + 1) / 2;
    for (int i = 0; i <= h; ++i) {
      repeat(1, i > half || (i == half && h % 2 == 1) ? "i" : "b");
      repeat(1, i >= half ? "I" : "B");
    }
    repeat(later, "WI");
    repeat(h + 1, "W");
  }
  return o;
}

// Why a schedule's published order cannot run this plan (null when it can). Fixed sentences: the answer beside it
// gives the stages and microbatches.
const char* unplayable(PipelineSchedule sched, int S, int M) {
  if (S < 2) return "one stage: there is no pipeline to lay out";
  if (sched == PipelineSchedule::dualpipe && (S % 2 != 0 || M % 2 != 0 || M < 2 * S))
    return "DualPipe needs an even number of stages and of microbatches, and at least twice as many microbatches as "
           "stages (deepseek-ai/DualPipe)";
  if (sched == PipelineSchedule::dualpipe_v && M < 2 * S)
    return "DualPipeV needs at least twice as many microbatches as stages (deepseek-ai/DualPipe)";
  return nullptr;
}

// Passes per microbatch and stage, at most: forward and backward per chunk, plus deferred weight gradients.
int passes_per_microbatch_stage(PipelineSchedule s, int v) {
  switch (s) {
    case PipelineSchedule::interleaved:
      return 2 * v;
    case PipelineSchedule::zero_bubble:
    case PipelineSchedule::dualpipe:
      return 3;
    case PipelineSchedule::dualpipe_v:
      return 6;
    default:
      return 2;
  }
}

struct Player {
  PipelineSchedule sched;
  int S, M, K;  // stages, microbatches, positions on a microbatch's path (stages x chunks)
  // ZB-H1 (Qi et al. 2023, §3): a stage whose next pass must wait runs a deferred weight gradient, and one that
  // holds S microbatches' activations (1F1B's peak, on its first stage) runs one before its next forward.
  bool fill_weight_grads;
  double f, b, w;  // one chunk's forward, whole backward and weight gradients
  std::vector<double> forward_done, backward_done;
  std::vector<std::vector<Item>> deferred;  // per stage, the weight gradients waiting, oldest first from taken[s]
  std::vector<std::size_t> taken;
  std::vector<double> free;
  std::vector<int> held;  // microbatches whose activations a stage holds: forwards run, weight gradients not yet
  std::vector<std::size_t> next;
  PipelineTimeline t;

  // The model chunk that position k of microbatch m's path runs on its stage.
  int chunk_of(int m, int k) const {
    switch (sched) {
      case PipelineSchedule::interleaved:
        return k / S;
      case PipelineSchedule::dualpipe:
        return m >= M / 2 ? 1 : 0;
      case PipelineSchedule::dualpipe_v:
        return k < S ? 0 : 1;
      default:
        return 0;
    }
  }
  std::size_t at(int m, int k) const { return static_cast<std::size_t>(m) * K + k; }
  // When the input of item `i` is there: NaN while the pass it waits for has not been laid out.
  double input_ready(const Item& i) const {
    if (i.m < 0) return 0;
    if (i.kind == kF) return i.k == 0 ? 0 : forward_done[at(i.m, i.k - 1)];
    return i.k + 1 < K ? backward_done[at(i.m, i.k + 1)] : forward_done[at(i.m, K - 1)];
  }
  double slot_ready(const Slot& slot) const {
    double ready = 0;
    for (int j = 0; j < slot.count; ++j) {
      const double r = input_ready(slot.item[j]);
      if (!(r >= 0)) return std::numeric_limits<double>::quiet_NaN();
      ready = std::max(ready, r);
    }
    return ready;
  }
  void emit(int stage, int m, int k, PipelinePassKind kind, double start, double end) {
    PipelinePass p;
    p.chunk = chunk_of(m, k);
    p.stage = stage;
    p.microbatch = m;
    p.kind = kind;
    p.start_s = start;
    p.end_s = end;
    t.passes.push_back(p);
  }
  bool pending(int s) const { return taken[s] < deferred[s].size(); }
  double run_weight_grad(int s, double start) {
    const Item i = deferred[s][taken[s]++];
    --held[s];
    emit(s, i.m, i.k, PipelinePassKind::weight_grad, start, start + w);
    return start + w;
  }
  double run(int s, const Slot& slot, double start) {
    double now = start;
    for (int j = 0; j < slot.count; ++j) {
      const Item& i = slot.item[j];
      if (i.m < 0) {
        now = run_weight_grad(s, now);
        continue;
      }
      const double end = now + (i.kind == kF ? f : i.kind == PipelinePassKind::backward ? b : b - w);
      emit(s, i.m, i.k, i.kind, now, end);
      if (i.kind == kF) ++held[s];
      (i.kind == kF ? forward_done : backward_done)[at(i.m, i.k)] = end;
      if (i.kind == PipelinePassKind::input_grad) deferred[s].push_back(i);
      now = end;
    }
    return now;
  }

  // Lays the passes out in the order of their start times: each step runs the stage that can start soonest.
  void play(const Orders& orders) {
    for (;;) {
      int best = -1;
      bool best_fill = false;
      double best_start = std::numeric_limits<double>::infinity();
      for (int s = 0; s < S; ++s) {
        const bool more = next[s] < orders[s].size();
        const double ready = more ? slot_ready(orders[s][next[s]]) : std::numeric_limits<double>::quiet_NaN();
        const bool waiting = !(ready >= 0);  // for a pass not yet laid out
        const bool full = fill_weight_grads && more && orders[s][next[s]].item[0].kind == kF && held[s] >= S;
        const bool fill = pending(s) && (fill_weight_grads || !more) && (waiting || ready > free[s] || full);
        if (!fill && (!more || waiting || full)) continue;
        const double start = fill ? free[s] : std::max(free[s], ready);
        if (start < best_start) best = s, best_fill = fill, best_start = start;
      }
      if (best < 0) return;
      free[best] = best_fill ? run_weight_grad(best, best_start) : run(best, orders[best][next[best]++], best_start);
    }
  }
};

}  // namespace

PipelineTimeline lay_out_pipeline(const TrainingPlan& plan, const PipelinePassTimes& times) {
  PipelineTimeline out;
  const int S = static_cast<int>(plan.pipeline.degree), M = static_cast<int>(plan.microbatches);
  const int v = plan.schedule == PipelineSchedule::interleaved ? static_cast<int>(plan.virtual_stages) : 1;
  if (const char* why = unplayable(plan.schedule, S, M)) {
    out.not_laid_out = why;
    return out;
  }
  if (static_cast<double>(S) * M * passes_per_microbatch_stage(plan.schedule, v) > kMaxTimelinePasses) {
    static_assert(kMaxTimelinePasses == 4096, "the sentence below names the limit");
    out.not_laid_out = "more passes than the 4096 laid out at most: fewer stages or microbatches";
    return out;
  }
  const double chunks = chunks_per_stage(plan);
  Player p;
  p.S = S, p.M = M, p.sched = plan.schedule;
  p.K = plan.schedule == PipelineSchedule::dualpipe_v ? 2 * S : S * v;
  p.fill_weight_grads = plan.schedule == PipelineSchedule::zero_bubble;
  p.f = times.forward_s / chunks, p.b = times.backward_s / chunks, p.w = times.weight_grad_s / chunks;
  const std::size_t cells = static_cast<std::size_t>(M) * p.K;
  p.forward_done.assign(cells, std::numeric_limits<double>::quiet_NaN());
  p.backward_done.assign(cells, std::numeric_limits<double>::quiet_NaN());
  p.deferred.resize(S);
  p.taken.assign(S, 0);
  p.free.assign(S, 0.0);
  p.held.assign(S, 0);
  p.next.assign(S, 0);
  const Orders orders =
      plan.schedule == PipelineSchedule::gpipe ? gpipe_orders(S, M)
      : plan.schedule == PipelineSchedule::dualpipe || plan.schedule == PipelineSchedule::dualpipe_v
          ? dualpipe_orders(S, M, plan.schedule == PipelineSchedule::dualpipe_v)
          : one_f_one_b_orders(S, M, v,
                               p.fill_weight_grads ? PipelinePassKind::input_grad : PipelinePassKind::backward);
  p.play(orders);
  // Megatron-LM's interleaved order, in groups of S microbatches, can wait on itself when S does not divide m.
  for (int s = 0; s < S; ++s)
    if (p.next[s] < orders[s].size() || p.pending(s)) {
      out.not_laid_out = v > 1 ? "the interleaved order, which runs microbatches in groups of the stage count "
                                 "(Megatron-LM), stalls at this many: a multiple of the stages runs"
                               : "the schedule's order stalls";
      return out;
    }
  out = std::move(p.t);
  for (const PipelinePass& pass : out.passes) out.span_s = std::max(out.span_s, pass.end_s);
  out.busy_s = M * (times.forward_s + times.backward_s);
  return out;
}

}  // namespace scalescope
