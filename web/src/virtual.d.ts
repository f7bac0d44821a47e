declare module 'virtual:scalescope-presets' {
  import type { Presets } from './engine/types';
  const presets: Presets;
  export default presets;
}
