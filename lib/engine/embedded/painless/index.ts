export { compileScript, MAX_SOURCE_LENGTH, type CompiledScript } from './compile.js';
export type { ContextDefinition } from './codegen.js';
export {
  UPDATE_CONTEXT, TEST_CONTEXT, FILTER_CONTEXT, SCORE_CONTEXT, FIELD_CONTEXT, NUMBER_SORT_CONTEXT, STRING_SORT_CONTEXT, AGGREGATION_CONTEXT,
  BUCKET_SCRIPT_CONTEXT, BUCKET_SELECTOR_CONTEXT, METRIC_INIT_CONTEXT, METRIC_MAP_CONTEXT, METRIC_COMBINE_CONTEXT, METRIC_REDUCE_CONTEXT, MOVING_FUNCTION_CONTEXT, INTERVAL_CONTEXT, SCORE_FUNCTION_IMPLEMENTATIONS, runtimeFieldContext,
} from './contexts.js';
export { parseScriptSpec, resolveScript, NO_STORED_SCRIPTS, type ScriptSpec, type StoredScripts, type ResolvedScript, type ScriptLangs } from './script-spec.js';
export { fromJson, toJson, markWrittenDoubles } from './json-values.js';
export { MAX_LOOP_COUNTER, MAX_RUN_MS, MAX_SCRIPT_MEMORY_BYTES, NO_SEARCH_CLOCK, ScriptMemory, SearchTimedOut, withSearchClock, type SearchClock } from './run-bounds.js';
export { LOOP_LIMIT_MESSAGE, ScriptRuntimeError } from './script-error.js';
export { javaToString, javaArray, isJavaArray, arrayItems, boxDouble, unbox } from './values.js';
export { runUpdateScript, type UpdateKind, type UpdateOutcome, type UpdateInput } from './update-script.js';
export { DocMap, SearchParams, ScriptDocValues, scriptDocValues, fieldOf, type DocFields } from './doc-values.js';
export { runTestScript } from './test-runs.js';
