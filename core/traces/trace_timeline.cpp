#include "traces/trace_timeline.h"

#include <algorithm>
#include <map>

namespace scalescope {

std::vector<Interval> merge_intervals(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end());
  std::vector<Interval> merged;
  for (const auto& [start, end] : intervals) {
    if (!merged.empty() && start <= merged.back().second)
      merged.back().second = std::max(merged.back().second, end);
    else
      merged.emplace_back(start, end);
  }
  return merged;
}

double total_length(const std::vector<Interval>& merged) {
  double total = 0;
  for (const auto& [start, end] : merged) total += end - start;
  return total;
}

double covered_length(const std::vector<Interval>& merged, double start, double end) {
  auto it = std::upper_bound(merged.begin(), merged.end(), Interval{start, start});
  if (it != merged.begin()) --it;
  double covered = 0;
  for (; it != merged.end() && it->first < end; ++it)
    covered += std::max(0.0, std::min(end, it->second) - std::max(start, it->first));
  return covered;
}

bool is_compute(OpClass c) { return c != OpClass::collective && c != OpClass::memcpy && c != OpClass::memset; }

std::vector<DeviceTimeline> device_timelines(const Trace& trace) {
  struct Spans {
    std::vector<Interval> all, compute, communication;
  };
  std::map<int, Spans> by_device;
  for (const auto& k : trace.kernels) {
    auto& spans = by_device[k.device];
    const Interval span{k.start_us, k.start_us + k.duration_us};
    spans.all.push_back(span);
    if (is_compute(k.op_class))
      spans.compute.push_back(span);
    else if (k.op_class == OpClass::collective)
      spans.communication.push_back(span);
  }
  std::vector<DeviceTimeline> timelines;
  for (auto& [device, spans] : by_device) {
    DeviceTimeline t;
    t.device = device;
    t.busy = merge_intervals(std::move(spans.all));
    t.compute = merge_intervals(std::move(spans.compute));
    const auto communication = merge_intervals(std::move(spans.communication));
    t.window_us = t.busy.back().second - t.busy.front().first;
    t.busy_us = total_length(t.busy);
    t.compute_us = total_length(t.compute);
    t.communication_us = total_length(communication);
    double overlapped = 0;
    for (const auto& [start, end] : communication) overlapped += covered_length(t.compute, start, end);
    t.exposed_communication_us = t.communication_us - overlapped;
    for (std::size_t i = 1; i < t.busy.size(); ++i) t.idle_gaps.emplace_back(t.busy[i - 1].second, t.busy[i].first);
    std::sort(t.idle_gaps.begin(), t.idle_gaps.end(),
              [](const Interval& a, const Interval& b) { return a.second - a.first > b.second - b.first; });
    timelines.push_back(std::move(t));
  }
  return timelines;
}

}  // namespace scalescope
