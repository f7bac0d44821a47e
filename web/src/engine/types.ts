// The types of the wasm engine (wasm/bindings.cpp) and of the JSON it speaks (docs/api.md). The JSON's types are
// generated from the schema (schema/ is their source: src/engine/schema-types.ts, web/scripts/schema-generate.mjs,
// a test fails when they drift); this file gives them the names the site imports and adds what the schema does not
// describe: the Embind module's functions and a generic answer. All numbers are SI units, the unit in the key;
// conversions for display live in src/charts/format.ts.
import type {
  Answer,
  CalibrationInfo,
  HardwarePresetRef,
  ModelFields,
  PlacedAxisRef,
  PlacedSubAxis,
  PlanMeshResult,
  PlanSearchQuery,
  Presets,
  ResolvedModel,
  Scenario as ScenarioDocument,
  ServingResult,
  TrainingInput,
  TrainingStepResult,
} from './schema-types';

export type {
  ChipResult,
  CollectiveResult,
  CollectiveStep,
  Diagnostic,
  Dtype,
  Fidelity,
  Framework,
  GoodputResult,
  LaunchConfigQuery,
  LaunchConfigResult,
  MatmulPrecision,
  Mesh,
  MatmulQuery,
  MatmulResult,
  ModelJson,
  ModelResult,
  NearestFitQuery,
  NearestFitResult,
  PlanMeshChange,
  PlanMeshQuery,
  PlanMeshResult,
  PlanSearchQuery,
  PlanSearchResult,
  ProfileResult,
  Presets,
  RooflineQuery,
  RooflineResult,
  SearchedPlan,
  SearchedPlanCore,
  ServingDeployment,
  ServingQuery,
  ServingResult,
  ServingSearchQuery,
  ServingSearchResult,
  ShardedMatmulResult,
  MlpRooflineResult,
  Threshold,
  GpuTopology,
  TpuTopology,
  TrainingStepResult,
  TransformerResult,
} from './schema-types';

/** The Embind module: stateless functions, JSON text in, JSON text out. */
export interface EngineModule {
  evaluate(scenarioJson: string): string;
  /** A JSON array of scenarios in, the array of their results out. */
  evaluate_many(scenariosJson: string): string;
  presets(): string;
  validate(scenarioJson: string): string;
  version(): string;
  /** The model a scenario's `model` object resolves to (a pasted config.json too): ModelJson as text. */
  model_json(modelJson: string): string;
}

/** What the engine build can do, found at build time by engine-plugin.ts (the web adapts to engines before/after). */
export interface EngineFeatures {
  /** Planners take `query.fidelity` ("calibrated" | "book") and results say which they used (issue 8). */
  fidelity: boolean;
}

export interface EngineModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (file: string, prefix: string) => string;
}

/** The default export of scalescope_engine.js (-sMODULARIZE -sEXPORT_ES6 -sEXPORT_NAME=createScalescope). */
export type CreateScalescope = (options?: EngineModuleOptions) => Promise<EngineModule>;

/** The engine's answer with the result of the query sent (schema/answers.schema.json). */
export type Evaluation<R> = Omit<Answer, 'result'> & { result?: R };

/** A scenario the site sends: its chip is always a preset (custom chips are overrides of one). */
export type Scenario = ScenarioDocument & { hardware: HardwarePresetRef };
/** A scenario as the schema has it (hardware optional: a model's own queries need none). */
export type AnyScenario = ScenarioDocument;

/** A chip and a model as presets() lists them (the model resolved: kv_heads and head_dim given for MLA too). */
export type HardwarePreset = Presets['hardware'][number] & Record<string, unknown>;
export type ModelPreset = ResolvedModel & Record<string, unknown>;

/** A parallelism strategy (TrainingPlan's order: data, fsdp, tensor, pipeline, expert, context). */
export type Strategy = PlanMeshResult['balancing'];

/** A sub-axis and an axis reference as the engine writes a plan (the stride always given): what the site reads back. */
export type SubAxis = PlacedSubAxis;
export type AxisRef = PlacedAxisRef;

/** How a calibrated number was made and how well its profile predicted published runs it was not fitted on. */
export type Calibration = CalibrationInfo;
/** `query.calibration`: a profile of calibration_profiles/<id>.json's format, as the reader loaded it (the engine checks it). */
export type CalibrationInput = Record<string, unknown>;
export type ModelOverrides = ModelFields;
export type MoeSettings = NonNullable<TrainingInput['moe']>;
export type PlanObjective = NonNullable<PlanSearchQuery['objective']>;
export type ServingSweepPoint = ServingResult['sweep'][number];

/** The book's ideal numbers beside a calibrated planner's, whichever planner answered. */
export type IdealNumbers = Partial<
  Record<
    | 'step_s'
    | 'mfu_frac'
    | 'train_time_s'
    | 'train_usd'
    | 'tokens_per_s'
    | 'latency_per_token_s'
    | 'time_to_first_token_s'
    | 'tokens_per_s_per_chip'
    | 'usd_per_million_output_tokens'
    | 'total_bytes',
    number
  >
>;

/** What a planner's result says about its fidelity: which made the numbers, the calibration, the book's ideal. */
export type FidelityInfo = Partial<Pick<TrainingStepResult, 'fidelity' | 'calibration'>> & {
  ideal?: IdealNumbers &
    Partial<Omit<NonNullable<TrainingStepResult['ideal']>, keyof IdealNumbers>> &
    Partial<Omit<NonNullable<ServingResult['ideal']>, keyof IdealNumbers>>;
};
