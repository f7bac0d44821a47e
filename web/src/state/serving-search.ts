// A deployment the serving search found (docs/api.md `serving_search`) -> the serving controls that show its replica:
// TP and EP degrees and the experts' TP (the page lays them on the same mesh: the most balanced slice, TP innermost on
// GPUs), weights and KV dtypes, the batch, and the headline counting the deployment (its prefill mode; the demand is
// the search's own). Configuration only: the engine computed the deployment; the serving query the page then sends
// gives the same decode step, time to first token, memory, latency and cost (web/test/serving-search.test.ts).
import type { ServingDeployment } from '../engine/types';
import { StateWriter, type Applied } from './apply';
import type { State } from './params';
import { weightsDtype } from './scenario';

/** The state whose serving replica is this deployment's; problems in words when a value does not fit a control. */
export function applyDeployment(state: State, d: ServingDeployment): Applied {
  const w = new StateWriter(state);
  const set = w.set.bind(w);
  set('tp', d.degrees.tensor);
  set('ep', d.degrees.expert);
  set('etp', d.parallelism.expert_tensor ?? null);
  set('sbatch', d.batch);
  set('wdt', d.dtypes.weights);
  set('kvdt', d.dtypes.kv);
  set('sdeploy', deploymentChoice(d));
  // A fixed chip count stays fixed, at the replica's chips (else TP would be rebalanced away from the deployment's).
  if (typeof state.values['chips'] === 'number') set('chips', d.degrees.tensor * d.degrees.expert);
  return w.result();
}

/** The headline's `sdeploy` choice that counts this deployment as its row does. */
const deploymentChoice = (d: ServingDeployment): string =>
  d.disaggregated ? 'disaggregated_prefill' : 'colocated_prefill';

/** Is this deployment the one on screen (its replica, and its prefill counted as on the headline)? */
export function isCurrentDeployment(state: State, d: ServingDeployment): boolean {
  const v = state.values;
  return (
    v['sdeploy'] === deploymentChoice(d) &&
    v['tp'] === d.degrees.tensor &&
    v['ep'] === d.degrees.expert &&
    v['etp'] === (d.parallelism.expert_tensor ?? null) &&
    v['sbatch'] === d.batch &&
    weightsDtype(state) === d.dtypes.weights &&
    v['kvdt'] === d.dtypes.kv
  );
}

/** "4×2 · TP 8" (GPU: "8 GPUs · TP 8"; one chip: "1 chip"), the replica in words. */
export function replicaText(d: ServingDeployment, gpu: boolean): string {
  const chips = d.degrees.tensor * d.degrees.expert;
  if (chips === 1) return gpu ? '1 GPU' : '1 chip';
  const folded = d.degrees.expert_tensor !== d.degrees.tensor ? `experts’ TP ${d.degrees.expert_tensor}` : '';
  const split = [
    d.degrees.tensor > 1 ? `TP ${d.degrees.tensor}` : '',
    d.degrees.expert > 1 ? `EP ${d.degrees.expert}` : '',
    folded,
  ]
    .filter(Boolean)
    .join(' · ');
  return `${gpu ? `${chips} GPUs` : d.mesh.shape.join('×')} · ${split}`;
}

/** "1 replica + 4 prefill servers" (each the replica's size; only what there is). */
export function chipsText(d: Pick<ServingDeployment, 'replicas' | 'prefill_servers'>): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const replicas = plural(d.replicas, 'replica');
  return d.prefill_servers > 0 ? `${replicas} + ${plural(d.prefill_servers, 'prefill server')}` : replicas;
}
