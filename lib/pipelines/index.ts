export { PipelineRegistry, PIPELINES_INDEX, type PipelineMatch } from './registry.js';
export { pipelineRoutes, pipelineApi, type PipelineRouterOptions } from './router.js';
export { loadSandbox, runScript, checkSyntax, ScriptError, type SandboxLimits } from './sandbox.js';
export { validatePipeline, parseDefinitionText, type Pipeline, type PipelineRoute, type PipelineStage } from './definition.js';
export { runPipeline, type PipelineRun, type StageOutcome } from './runner.js';
export { PREBUILT_STAGES, type DeclarativeStageApi, type StageServices } from './stages.js';
export type { PipelineContext, PipelineRequest, PipelineResponse, Caller } from './context.js';
export { declarativeStageApi } from './declarative-stage.js';
export { ScriptPool, type ScriptPoolOptions } from './script-pool.js';
