import { EsError, errorBody } from '../errors/index.js';
import { hasResponse, type PipelineContext, type PipelineResponse } from './context.js';
import { scriptOf, type Pipeline, type PipelineStage } from './definition.js';
import { ScriptError, type SandboxLimits } from './sandbox.js';
import { PREBUILT_STAGES, type StageServices } from './stages.js';

export interface StageOutcome {
  stage: string;
  outcome: 'ok' | 'failed' | 'disabled' | 'skipped';
  message?: string;
  /** What the failure's HTTP status would be (400 for a script, 500 for the gateway, or the stage's own). */
  status?: number;
  ms: number;
}

/** What the client gets, and how each stage went. */
export interface PipelineRun {
  status: number;
  body: string;
  headers: Record<string, string>;
  outcomes: StageOutcome[];
  context: PipelineContext;
}

/** A denied access (401, 403, 429) ends the run with its own error, whatever the stage's settings. */
const ACCESS_STATUSES = new Set([401, 403, 429]);

/** Members of a script's returned object that it may not replace wholesale. */
const KEPT = new Set(['errors', 'envs']);

/**
 * Runs the enabled stages in order over the context. A failing stage is recorded in
 * `context.errors` and passed over (`continueOnError: true`), or ends the run (`false`) with the
 * response prepared so far, or an error naming the stage: 400 when a user script failed, the
 * stage's own status for an Elasticsearch-shaped failure (401/403/429 of authorization, 502/504
 * of the engine), 500 when the gateway failed. A denied `authorization` always ends the run with
 * its own error, as does any access denied by a pre-built stage. The end of the pipeline returns
 * `context.response`; a run that has none after a stage failed and was passed over answers that
 * stage's failure (its status, naming it), else a 500.
 */
export async function runPipeline(pipeline: Pipeline, context: PipelineContext, services: StageServices, limits: SandboxLimits): Promise<PipelineRun> {
  const outcomes: StageOutcome[] = [];
  // each stage's outcome as it is known, also to whoever watches the runs (metrics): not a dry run's
  const ran = services.dryRun ? undefined : services.stageRan;
  const record = (outcome: StageOutcome) => {
    outcomes.push(outcome);
    ran?.(pipeline.id, outcome);
  };
  // the last stage that failed and was passed over: what a run that ends without a response answers
  let passedOver: EsError | undefined;
  for (const stage of pipeline.stages) {
    const started = performance.now();
    const ms = () => Math.round((performance.now() - started) * 1000) / 1000;
    if (!stage.enabled) {
      outcomes.push({ stage: stage.id, outcome: 'disabled', ms: 0 });
      continue;
    }
    if (services.dryRun && stage.use === 'engineQuery') {
      outcomes.push({ stage: stage.id, outcome: 'skipped', message: 'dry run: nothing is sent to the engine', ms: 0 });
      continue;
    }
    try {
      await runStage(pipeline, stage, context, services, limits);
      record({ stage: stage.id, outcome: 'ok', ms: ms() });
    } catch (err) {
      const failure = stageFailure(pipeline, stage, err);
      record({ stage: stage.id, outcome: 'failed', message: failure.message, status: failure.error.status, ms: ms() });
      const denied = err instanceof EsError && ACCESS_STATUSES.has(err.status);
      if ((stage.use === 'authorization' || denied) && !services.dryRun) throw err instanceof EsError ? err : failure.error;
      context.errors.push({ stage: stage.id, message: failure.message });
      if (stage.continueOnError) {
        passedOver = failure.error;
        continue;
      }
      return finish(hasResponse(context.response) ? context.response : undefined, failure.error, outcomes, context);
    }
  }
  // a run with no response after a failed stage answers that stage's failure (a bad request a script
  // computed is a 400 naming the stage, not a gateway failure)
  const noResponse = passedOver ?? new EsError(500, 'pipeline_exception', `pipeline [${pipeline.id}] ended without a response (no engineQuery stage and no script set one)`, { pipeline: pipeline.id });
  return finish(hasResponse(context.response) ? context.response : undefined, noResponse, outcomes, context);
}

async function runStage(pipeline: Pipeline, stage: PipelineStage, context: PipelineContext, services: StageServices, limits: SandboxLimits): Promise<void> {
  if (stage.use !== undefined) {
    await PREBUILT_STAGES.get(stage.use)!(context, stage.inputs ?? {}, services);
    return;
  }
  const script = scriptOf(pipeline, stage)!;
  const result = await services.scripts.run(script.source, script.name, context, stage.inputs, limits);
  if (result === undefined) return;
  if (result === null || typeof result !== 'object' || Array.isArray(result)) throw new ScriptError('handleRequest() must return an object (or nothing)');
  mergeIntoContext(context, result as Record<string, unknown>);
}

/** `{response: {body, code}}` sets the response; `{request: {...}}` replaces request members; anything else is added. */
function mergeIntoContext(context: PipelineContext, result: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(result)) {
    if (KEPT.has(key)) continue;
    if (key === 'request' || key === 'response') {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ScriptError(`handleRequest() returned a [${key}] that is not an object`);
      const merged: Record<string, unknown> = { ...context[key], ...(value as Record<string, unknown>) };
      if (merged.body !== undefined && typeof merged.body !== 'string') merged.body = JSON.stringify(merged.body);
      if (key === 'response' && merged.code !== undefined && (!Number.isInteger(merged.code) || (merged.code as number) < 100 || (merged.code as number) > 599)) {
        throw new ScriptError(`handleRequest() returned a response code [${String(merged.code)}] that is not an HTTP status`);
      }
      if (key === 'request' && typeof merged.method === 'string') merged.method = merged.method.toUpperCase();
      context[key] = merged as never;
    } else {
      context[key] = value;
    }
  }
}

function stageFailure(pipeline: Pipeline, stage: PipelineStage, err: unknown): { message: string; error: EsError } {
  const message = err instanceof EsError ? err.reason : (err as Error)?.message ?? String(err);
  const status = err instanceof ScriptError ? 400 : err instanceof EsError ? err.status : 500;
  const reason = `stage [${stage.id}] of pipeline [${pipeline.id}] failed: ${message}`;
  const headers = err instanceof EsError ? err.headers : {};
  return { message, error: new EsError(status, 'pipeline_stage_exception', reason, { pipeline: pipeline.id, stage: stage.id }, headers) };
}

function finish(response: PipelineResponse | undefined, error: EsError, outcomes: StageOutcome[], context: PipelineContext): PipelineRun {
  if (!response) {
    return { status: error.status, body: JSON.stringify(errorBody(error)), headers: { 'content-type': 'application/json', ...error.headers }, outcomes, context };
  }
  return {
    status: response.code ?? 200,
    body: response.body ?? '',
    headers: { 'content-type': 'application/json', ...response.headers },
    outcomes,
    context,
  };
}
