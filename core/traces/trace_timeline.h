// One device's timeline as the book's step breakdown needs it: when it computed, when it communicated, how much
// communication ran with no compute beside it (exposed; scaling-book/training) and when nothing ran at all (idle:
// the host launched too slowly, or waited). Intervals in µs from the trace's origin.
#pragma once
#include <utility>
#include <vector>

#include "traces/trace_model.h"

namespace scalescope {

using Interval = std::pair<double, double>;  // [start, end)

// Sorted, disjoint intervals covering the same time as `intervals`.
std::vector<Interval> merge_intervals(std::vector<Interval> intervals);
double total_length(const std::vector<Interval>& merged);
// Time of [start, end) that `merged` covers.
double covered_length(const std::vector<Interval>& merged, double start, double end);

struct DeviceTimeline {
  int device = 0;
  double window_us = 0;  // first kernel start to last kernel end
  double busy_us = 0, compute_us = 0, communication_us = 0, exposed_communication_us = 0;
  std::vector<Interval> busy, compute;  // merged
  std::vector<Interval> idle_gaps;      // between busy stretches, longest first
  double idle_us() const { return window_us - busy_us; }
};

// Compute is every kernel but collectives, copies and sets (a copy engine's transfer overlaps both).
bool is_compute(OpClass c);
std::vector<DeviceTimeline> device_timelines(const Trace& trace);

}  // namespace scalescope
