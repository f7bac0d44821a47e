declare module 'virtual:scalescope-presets' {
  import type { EngineFeatures, Presets } from './engine/types';
  const presets: Presets;
  export default presets;
  export const features: EngineFeatures;
}
