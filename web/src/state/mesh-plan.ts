// The mesh as the page holds it: the strategies, their axis names, and a plan laid out on a mesh (the engine's
// answer to plan_mesh, or an applied plan's own layout). Data only; the rules are the engine's (state/plan-mesh.ts).
import type { AxisRef, Strategy } from '../engine/types';

export type { Strategy };
/** The strategies in the order the page lists them (data outermost ... tensor innermost). */
export const STRATEGIES = [
  'data',
  'fsdp',
  'context',
  'expert',
  'pipeline',
  'tensor',
] as const satisfies readonly Strategy[];
export type Degrees = Record<Strategy, number>;
/** The strategies the page lets span the slices (the DCN axis). */
export type DcnStrategy = 'data' | 'fsdp';

export const AXIS_NAMES = ['X', 'Y', 'Z', 'W', 'V', 'U'] as const;
export const DCN_AXIS = 'DCN';

/** The URL key of each degree. */
export const DEGREE_KEYS: Readonly<Record<Strategy, string>> = {
  data: 'dp',
  fsdp: 'fsdp',
  tensor: 'tp',
  pipeline: 'pp',
  expert: 'ep',
  context: 'cp',
};

export interface MeshPlan {
  shape: number[];
  axisNames: string[];
  /** Mesh axes per strategy: whole axes by name, or sub-axes (an applied plan's layout, state/layout.ts). */
  axes: Partial<Record<Strategy, AxisRef[]>>;
  /** Strategies the engine lays out itself, by degree (whole axes could not hold them). */
  degrees?: Partial<Record<Strategy, number>>;
  slices: number;
  chipsPerSlice: number;
  chips: number;
}

export type MeshOutcome = { ok: true; plan: MeshPlan } | { ok: false; problem: string };
