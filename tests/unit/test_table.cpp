// The CLI's --table view formats each number by its key's unit, which the result schema gives (schema/results'
// x-unit, generated into cli/units_table.inc; issue 19): a rate is not a time, a count keeps its noun, and numbers
// beyond the SI prefixes stay readable.
#include <catch2/catch.hpp>

#include "io/format.h"
#include "table.h"

using scalescope::cli::format_with_unit;

TEST_CASE("--table knows each field's unit from its key", "[table]") {
  // Rates per second are rates, not durations.
  CHECK(format_with_unit("tokens_per_s", 70960) == "70.96 k tokens/s");
  CHECK(format_with_unit("tokens_per_s_per_chip", 235) == "235 tokens/s per chip");
  CHECK(format_with_unit("queries_per_s_per_chip", 0.55) == "0.55 queries/s per chip");
  // Durations.
  CHECK(format_with_unit("step_s", 0.0174) == "17.4 ms");
  CHECK(format_with_unit("latency_per_token_s", 0.0195) == "19.5 ms");
  CHECK(format_with_unit("train_time_s", 3.83e6) == "44.33 days");
  // FLOP counts beyond the SI prefixes, and FLOPs named mid-key.
  CHECK(format_with_unit("model_flops", 6.35e24) == "6.35e24 FLOPs");
  CHECK(format_with_unit("flops_s", 0.02581) == "25.81 ms");  // a time part: seconds spent on FLOPs, not "FLOPs s"
  CHECK(format_with_unit("training_flops_with_remat", 1.796e15) == "1.796 PFLOPs");
  CHECK(format_with_unit("peak_bf16_flops_per_s_from_geometry", 4.588e14) == "458.8 TFLOP/s");
  CHECK(format_with_unit("alpha_ici_flops_per_byte", 2550) == "2550 FLOPs/B");
  // Bytes and bandwidths.
  CHECK(format_with_unit("total_bytes", 9.9011e13) == "99.01 TB");
  CHECK(format_with_unit("ici_bidir_bytes_per_s_per_axis", 1.8e11) == "180 GB/s per axis");
  CHECK(format_with_unit("kv_cache_bytes_per_token", 327680) == "327.7 kB per token");
  // Counts keep their noun; plain numbers stay numbers.
  CHECK(format_with_unit("dcn_min_tokens_per_slice", 73440) == "73.44 k tokens per slice");
  CHECK(format_with_unit("chips", 8960) == "8960 chips");
  CHECK(format_with_unit("max_batch", 43) == "43");
  CHECK(format_with_unit("max_params_pure_dp", 9.6e9) == "9.6 G params");
  CHECK(format_with_unit("sequences_finished_per_step", 0.0625) == "0.0625 sequences per step");
  CHECK(format_with_unit("attention_flops_fraction", 0.0372) == "3.72 %");
  CHECK(format_with_unit("vector_clock_hz_if_fma", 2.11e9) == "2.11 GHz");
  // Fractions, dollars.
  CHECK(format_with_unit("mfu_frac", 0.4) == "40 %");
  CHECK(format_with_unit("usd_per_hour", 37632) == "$37.63 k per hour");
  CHECK(format_with_unit("price_usd_per_chip_hour", 4.2) == "$4.2 per chip hour");
  CHECK(format_with_unit("usd_per_million_output_tokens", 0.92) == "$0.92 per million output tokens");
  CHECK(format_with_unit("flops_per_usd", 3.9e17) == "390 PFLOPs/$");
  // A key no result gives has no unit.
  CHECK(format_with_unit("no_such_key_s", 0.5) == "0.5");
}

TEST_CASE("messages give bytes with a prefix, not raw gigabytes", "[table]") {
  CHECK(scalescope::format_bytes(9.9011e13) == "99 TB");
  CHECK(scalescope::format_bytes(41.3e9) == "41.3 GB");
  CHECK(scalescope::format_bytes(512) == "512 B");
}
