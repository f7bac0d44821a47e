// The engine's version, in every answer (`engine_version`): here, at the bottom of the layers, so that every entry
// point (core/api.h's, and the trace analysis's, traces/trace_session.h) can name it.
#pragma once

namespace scalescope {

inline constexpr const char* kEngineVersion = "0.1.0";

}  // namespace scalescope
