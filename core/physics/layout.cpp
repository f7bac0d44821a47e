#include "physics/layout.h"

#include <algorithm>
#include <numeric>

namespace scalescope {

void add_piece(AxisGroup& g, const Mesh& mesh, AxisPiece p) {
  if (g.count >= kMaxGroupPieces) return;
  g.pieces[g.count++] = p;
  const MeshAxis& a = mesh.axes[p.axis];
  g.degree *= p.size;
  if (a.dcn) {
    g.has_dcn = true;
    g.dcn_degree *= p.size;
    return;
  }
  g.ici_degree *= p.size;
  if (p.size > 1 && !(g.axis_mask & (1u << p.axis))) {
    ++g.ici_axes;
    g.axis_mask |= 1u << p.axis;
  }
  // scaling-book/tpus, wraparound: a group closes into a ring through the wraparound only when its positions cover the
  // whole axis.
  g.rings[g.ring_count++] = TorusRing{p.size, a.wraps && p.size * p.stride == a.size, p.stride};
  // GPUs are numbered with the last mesh axis innermost: a position step of this axis is the product of the axes
  // inside it.
  double inner = 1;
  for (std::size_t j = static_cast<std::size_t>(p.axis) + 1; j < mesh.axes.size(); ++j)
    if (!mesh.axes[j].dcn) inner *= mesh.axes[j].size;
  g.gpu_members *= p.size;
  g.gpu_span = std::max(g.gpu_span, inner * p.stride * p.size);
}

void add_axis(AxisGroup& g, const Mesh& mesh, int axis) {
  add_piece(g, mesh, AxisPiece{axis, mesh.axes[axis].size, 1});
}

AxisGroup make_axis_group(const Mesh& mesh, std::initializer_list<int> axes) {
  AxisGroup g;
  for (int a : axes) add_axis(g, mesh, a);
  return g;
}

CollectiveCost group_collective(const Hardware& hw, const Mesh& mesh, const AxisGroup& g, Collective op, double bytes,
                                const CollectiveOptions& o) {
  (void)mesh;
  if (g.ring_count == 0) return CollectiveCost{};
  if (hw.kind == ChipKind::tpu)
    return tpu_ring_collective(op, bytes, g.rings.data(), g.ring_count, hw.ici.link_unidir_bytes_per_s,
                               hw.ici.hop_latency_s, o.traffic_frac);
  // scaling-book/gpus, collectives: members spaced by the inner stride (the book's Y), the group spanning members x
  // stride GPUs.
  return gpu_collective(op, bytes, hw, g.gpu_members, g.gpu_span / g.gpu_members, o.in_network_reduction,
                        o.traffic_frac);
}

CollectiveCost group_dcn_collective(const Hardware& hw, const Mesh& mesh, const AxisGroup& g, Collective op,
                                    double leg_bytes, double traffic_frac) {
  if (g.dcn_degree <= 1) return CollectiveCost{};
  return dcn_collective(op, leg_bytes * mesh.chips_per_slice, g.dcn_degree, mesh.chips_per_slice,
                        hw.dcn_unidir_bytes_per_s_per_chip, traffic_frac);
}

double group_hop_unidir_bytes_per_s(const Hardware& hw, const Mesh& mesh, const AxisGroup& g) {
  (void)mesh;
  if (g.has_dcn && g.dcn_degree > 1) return hw.dcn_unidir_bytes_per_s_per_chip;
  if (hw.kind == ChipKind::tpu) return hw.ici.link_unidir_bytes_per_s;
  return g.gpu_span <= hw.scale_up.domain_gpus ? hw.scale_up.gpu_unidir_bytes_per_s
                                               : hw.scale_out.nic_unidir_bytes_per_s_per_gpu;
}

void layout_groups(const Mesh& mesh, const MeshLayout& layout, std::array<AxisGroup, kLayoutStrategies>& groups) {
  groups.fill(AxisGroup{});
  const int axes = std::min(static_cast<int>(mesh.axes.size()), kMaxLayoutAxes);
  for (int a = 0; a < axes; ++a) {
    int inner = 1;
    for (int k = 0; k < layout.slot_count[a]; ++k) {
      const LayoutSlot& s = layout.slots[a][k];
      add_piece(groups[s.strategy], mesh, AxisPiece{a, s.size, inner});
      inner *= s.size;
    }
  }
}

namespace {

bool key_less_or_equal(const MeshLayout& l, int a, int b) {
  const int n = std::min(l.slot_count[a], l.slot_count[b]);
  for (int k = 0; k < n; ++k) {
    const LayoutSlot &x = l.slots[a][k], &y = l.slots[b][k];
    if (x.strategy != y.strategy) return x.strategy < y.strategy;
    if (x.size != y.size) return x.size < y.size;
  }
  return l.slot_count[a] <= l.slot_count[b];
}

struct Enumerator {
  const Mesh& mesh;
  const LayoutRules& rules;
  LayoutVisitor visit;
  void* context;
  int axes = 0;
  MeshLayout layout{};
  std::array<int, kLayoutStrategies> remaining{};
  std::array<int, kMaxLayoutAxes> twin{};  // the previous interchangeable axis, or -1
  std::int64_t visited = 0;
  bool stop = false;

  Enumerator(const Mesh& m, const LayoutRules& r, LayoutVisitor v, void* c) : mesh(m), rules(r), visit(v), context(c) {
    axes = std::min(static_cast<int>(m.axes.size()), kMaxLayoutAxes);
    remaining = r.degrees;
    auto constrained = [&](int a) {
      for (int s = 0; s < kLayoutStrategies; ++s)
        if (r.fixed_size[a][s] > 0) return true;
      return false;
    };
    for (int a = 0; a < axes; ++a) {
      twin[a] = -1;
      const MeshAxis& x = m.axes[a];
      if (x.dcn || constrained(a)) continue;
      for (int b = a - 1; b >= 0 && twin[a] < 0; --b) {
        const MeshAxis& y = m.axes[b];
        // GPU axes are ordered (the last innermost); torus axes of one size and wraparound are alike.
        if (m.tpu.dims > 0 && !y.dcn && !constrained(b) && y.size == x.size && y.wraps == x.wraps) twin[a] = b;
      }
    }
  }

  void run_axis(int a) {
    if (stop) return;
    if (a == axes) {
      for (int s = 0; s < kLayoutStrategies; ++s)
        if (remaining[s] != 1) return;
      ++visited;
      if (!visit(layout, context)) stop = true;
      return;
    }
    layout.slot_count[a] = 0;
    run_slot(a, mesh.axes[a].size, 0u);
  }

  void place(int a, int left, unsigned used, int s, int f) {
    const int k = layout.slot_count[a]++;
    layout.slots[a][k] = LayoutSlot{s, f};
    remaining[s] /= f;
    run_slot(a, left / f, used | (1u << s));
    remaining[s] *= f;
    --layout.slot_count[a];
  }

  void run_slot(int a, int left, unsigned used) {
    if (stop) return;
    if (left == 1) {
      if (twin[a] >= 0 && !key_less_or_equal(layout, twin[a], a)) return;
      run_axis(a + 1);
      return;
    }
    const bool dcn = mesh.axes[a].dcn;
    const int inner = mesh.axes[a].size / left;
    if (!dcn && mesh.tpu.dims > 0 && layout.slot_count[a] >= rules.max_slots_per_torus_axis) return;
    for (int s = 0; s < kLayoutStrategies; ++s) {
      if (used & (1u << s) || remaining[s] <= 1) continue;
      if (rules.explicit_strategies & (1u << s)) {
        const int f = rules.fixed_size[a][s];
        if (f <= 1 || left % f != 0 || remaining[s] % f != 0) continue;
        if (rules.fixed_stride[a][s] > 0 && rules.fixed_stride[a][s] != inner) continue;
        place(a, left, used, s, f);
        continue;
      }
      if (dcn) {
        if (!(rules.dcn_strategies & (1u << s))) continue;
        // The order of factors on the DCN axis does not change any cost: keep them in strategy order.
        if (layout.slot_count[a] > 0 && layout.slots[a][layout.slot_count[a] - 1].strategy > s) continue;
      }
      const int g = std::gcd(left, remaining[s]);
      for (int f = 2; f <= g; ++f)
        if (g % f == 0) place(a, left, used, s, f);
    }
  }
};

}  // namespace

std::int64_t for_each_layout(const Mesh& mesh, const LayoutRules& rules, LayoutVisitor visit, void* context) {
  std::int64_t product = 1;
  for (int v : rules.degrees) product *= v;
  if (static_cast<double>(product) != mesh.chips) return 0;
  Enumerator e(mesh, rules, visit, context);
  e.run_axis(0);
  return e.visited;
}

std::int64_t count_layouts(const Mesh& mesh, const LayoutRules& rules) {
  return for_each_layout(
      mesh, rules, [](const MeshLayout&, void*) { return true; }, nullptr);
}

std::int64_t count_layouts(const Mesh& mesh, const LayoutRules& rules, std::int64_t cap) {
  struct Counter {
    std::int64_t left;
  } counter{cap};
  return for_each_layout(
      mesh, rules, [](const MeshLayout&, void* c) { return static_cast<Counter*>(c)->left-- > 0; }, &counter);
}

std::vector<std::int64_t> divisors_of(std::int64_t n) {
  std::vector<std::int64_t> low, high;
  for (std::int64_t f = 1; f * f <= n; ++f)
    if (n % f == 0) {
      low.push_back(f);
      if (f != n / f) high.push_back(n / f);
    }
  low.insert(low.end(), high.rbegin(), high.rend());
  return low;
}

std::vector<int> degrees_that_fit(const Mesh& mesh, bool include_dcn) {
  std::vector<int> out{1};
  for (const MeshAxis& a : mesh.axes) {
    if (a.dcn && !include_dcn) continue;
    std::vector<int> next;
    for (int d : out)
      for (int f = 1; f <= a.size; ++f)
        if (a.size % f == 0) next.push_back(d * f);
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    out = std::move(next);
  }
  return out;
}

int place_in_order(double degree, const Mesh& mesh, int& axis, double& used) {
  int touched = 0;
  double left = degree;
  while (left > 1 && axis < static_cast<int>(mesh.axes.size())) {
    const double room = mesh.axes[axis].size / used;
    const double take = std::min(room, left);
    ++touched;
    left /= take;
    used *= take;
    if (used >= mesh.axes[axis].size) {
      ++axis;
      used = 1;
    }
  }
  return touched;
}

}  // namespace scalescope
