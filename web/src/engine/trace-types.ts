// The trace analysis's answer (docs/api.md "Traces"), as the profile page reads it, and the worker's messages.

export interface TraceReason {
  code: string;
  message: string;
}

export interface TraceGroup {
  class: string;
  op?: string | null;
  kernel?: string;
  shape?: string | null;
  calls?: number;
  kernels?: number;
  time_s?: number;
  flops?: number | null;
  bytes?: number | null;
  roofline_s?: number | null;
  priced_time_s?: number;
  achieved_fraction?: number;
  lost_s?: number;
  exposed_s?: number;
  intensity_flops_per_byte?: number;
  achieved_flops_per_s?: number;
  device?: number;
  reason?: TraceReason;
}

export interface TraceClass {
  class: string;
  time_s: number;
  share: number;
  kernels: number;
  priced_time_s: number;
  roofline_s: number;
  achieved_fraction: number | null;
}

export interface TraceDevice {
  device: number;
  window_s: number;
  busy_s: number;
  idle_s: number;
  compute_s: number;
  communication_s: number;
  exposed_communication_s: number;
  overlapped_communication_s: number;
}

export interface TraceResult {
  hardware: {
    id: string;
    name: string;
    from: string;
    peak_bf16_flops_per_s: number;
    hbm_bandwidth_bytes_per_s: number;
    critical_intensity_flops_per_byte: number;
  } | null;
  distributed: { rank: number; world_size: number } | null;
  events: number;
  kernels: number;
  kernel_time_s: number;
  classified_share: number;
  priced_share: number;
  devices: TraceDevice[];
  classes: TraceClass[];
  ops: TraceGroup[];
  gaps: TraceGroup[];
}

export interface TraceAnswer {
  ok: boolean;
  query: 'trace';
  result: TraceResult | null;
  diagnostics: { path: string; code: string; message: string; severity?: string }[];
  engine_version: string;
}

export interface TraceOptions {
  hardware?: string;
  top?: number;
}

/** Page -> worker: read this file (or fetched sample) with these options; `base` is where the module lives. */
export interface TraceRequest {
  file: Blob;
  options: TraceOptions;
  base: string;
}

/** Worker -> page. */
export type TraceMessage =
  | { type: 'progress'; bytesRead: number; totalBytes: number }
  | { type: 'answer'; text: string }
  | { type: 'error'; message: string };
