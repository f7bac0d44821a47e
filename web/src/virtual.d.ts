declare module 'virtual:scalescope-presets' {
  import type { EngineFeatures, Presets } from './engine/types';
  const presets: Presets;
  export default presets;
  export const features: EngineFeatures;
}

declare module 'virtual:scalescope-chip-sources' {
  /** Each chip preset's sources (JSON pointer -> citation), by id: loaded after first paint. */
  const sources: Record<string, Record<string, string>>;
  export default sources;
}
