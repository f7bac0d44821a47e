// Every size a caller controls has a stated limit, so that no input can make the engine run long, allocate without
// bound or overflow its stack (issue 12). docs/api.md "Limits" states them; tests/unit/test_docs.cpp checks it does.
#pragma once
#include <cstddef>

namespace scalescope {

inline constexpr std::size_t kMaxInputBytes = 1 << 20;     // one call's JSON text, evaluate_many's whole array too
inline constexpr int kMaxJsonDepth = 32;                   // nested objects and arrays (a scenario needs about 6)
inline constexpr std::size_t kMaxScenariosPerCall = 1024;  // evaluate_many
inline constexpr std::size_t kMaxAnswerBytes = 8u << 20;   // evaluate_many's whole answer; the rest are not run
inline constexpr std::size_t kMaxArrayLength = 4096;       // any list the engine reads
inline constexpr std::size_t kMaxStringBytes = 4096;       // any text the engine reads (names, sharding expressions)
inline constexpr std::size_t kMaxConfigTextBytes = 256u << 10;  // a framework launch config read by import_config
inline constexpr std::size_t kMaxObjectKeys = 256;              // keys of one object the engine reads (e.g. 'dims')
inline constexpr std::size_t kMaxDiagnostics = 100;             // listed per scenario; the rest are counted
inline constexpr std::size_t kMaxUnknownKeysListed = 20;        // per object; the rest are counted in one diagnostic
inline constexpr std::size_t kMaxSweepPoints = 16384;           // serving sweep: batches x contexts
inline constexpr std::size_t kMaxPublishedRuns = 512;           // runs of one calibrate or validation query
// Runs fitted by one calibrate or validation query, counting every refit: calibrate's bands refit once per chip,
// family_holdout once per family (512 runs over 11 chips: 6144).
inline constexpr std::size_t kMaxFittedRuns = 6144;
// The work of one calibrate or validation query's fits, over every refit and iteration, in the units of
// LayerPattern::evaluation_work (a dense run's prediction is 1, DeepSeek-V3's 3, twice that when the remat is
// chosen), about a third of a microsecond each since the kernel models (issue 34), 1 s at the limit
// (tests/limits_check.cpp): a fit keeps between its predictions of a run what no fitted constant moves
// (planners/calibrated_training.h CalibratedStepMemo). Past it the fits stop and the query answers too_large. 3M, not
// 1M: the suite's 512-run worst case needs 2-3M since Korthikanti's and Megatron 2021's runs state their attention
// (issue 22 item 24).
inline constexpr long long kMaxFitWork = 3'000'000;
inline constexpr std::size_t kMaxQuotedChars = 40;   // user text quoted in a message, then cut
inline constexpr std::size_t kMaxArrayDims = 8;      // dimensions of one array in the book's sharding notation
inline constexpr std::size_t kMaxFatTreeLevels = 8;  // GPU scale-out levels above the NVLink domain
// Training plans (issue 22): every layout of a plan's degrees is costed, every layout of a search is fingerprinted,
// and a search call stops at a cursor once it has done this much work (layouts fingerprinted, plans checked, and
// each plan evaluated at its model's LayerPattern::evaluation_work).
inline constexpr long long kMaxLayoutsPerPlan = 100'000;
// ... and the layouts all the degree-form plans of one query that reads many scenarios may cost (calibrate,
// validation: about half a microsecond each, so 0.5 s).
inline constexpr long long kMaxQueryLayouts = 1'000'000;
inline constexpr long long kMaxSearchLayouts = 2'000'000;
inline constexpr long long kMaxSearchWorkPerCall = 300'000;
inline constexpr long long kMaxServingSearchPoints = 200'000;  // deployments one serving_search may try
// A profiler trace (traces/, issue 37) is read as a stream, not as one call's JSON: its whole text, one event or
// top-level value (deviceProperties and the like), and the kernels and CPU ops kept (about 100 bytes each).
inline constexpr std::size_t kMaxTraceBytes = 1'000'000'000;  // 1 GB: a browser tab's memory, a minute's read
inline constexpr std::size_t kMaxTraceValueBytes = 8u << 20;
inline constexpr std::size_t kMaxTraceKernels = 4'000'000;
inline constexpr std::size_t kMaxTraceOps = 8'000'000;

}  // namespace scalescope
