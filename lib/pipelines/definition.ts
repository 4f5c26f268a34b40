import { createRequire } from 'node:module';
import { CREDENTIAL_CATEGORIES } from '../auth/index.js';
import { EsError } from '../errors/index.js';
import { ScriptError, tooDeep } from './sandbox.js';
import { PREBUILT_STAGES } from './stages.js';

/** yaml, loaded by the first YAML definition (a tenth of a second of CPU at every gateway start otherwise). */
let yaml: typeof import('yaml') | undefined;
const parseYaml = (text: string): unknown => (yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);

export interface PipelineRoute {
  path: string;
  /** Upper case; absent = every method. */
  method?: string;
  classify?: { category?: string };
}

export interface PipelineStage {
  id: string;
  /** A pre-built stage… */
  use?: string;
  /** …or a script: a file registered with the pipeline, or inline source. */
  scriptRef?: string;
  script?: string;
  continueOnError: boolean;
  enabled: boolean;
  inputs?: Record<string, unknown>;
}

/** A pipeline as stored: the definition with defaults applied, and its script files. */
export interface Pipeline {
  id: string;
  enabled: boolean;
  description?: string;
  priority: number;
  envs: Record<string, unknown>;
  routes: PipelineRoute[];
  stages: PipelineStage[];
  /** Script file name → source. */
  scripts: Record<string, string>;
  /**
   * Set when a scoped credential registered the pipeline: it then claims only requests to that
   * credential's own indices, and only that credential (or the admin) may see or change it.
   */
  owner?: PipelineOwner;
}

export interface PipelineOwner {
  username: string;
  indices: string[];
  /** The owner's categories and operations when it registered the pipeline (absent: registered before they were kept). */
  categories?: string[];
  ops?: string[];
  /**
   * The owner's restrictions on what it reads, when it registered the pipeline: its stages are held
   * to them whoever calls the pipeline (the admin's call would otherwise hand a stage — and a
   * script that copies the answer into the owner's index — what the owner may not read).
   */
  include_fields?: string[];
  exclude_fields?: string[];
  max_size?: number;
  allow_raw_dsl?: boolean;
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
const DEFINITION_KEYS = new Set(['id', 'enabled', 'description', 'priority', 'envs', 'routes', 'stages']);
const STAGE_KEYS = new Set(['id', 'use', 'scriptRef', 'script', 'continueOnError', 'enabled', 'inputs', 'description']);
/** The management API itself can never be taken over by a pipeline. */
const RESERVED_PATH = /^\/_pipelines?(\/|$)/;

const invalid = (reason: string) => new EsError(400, 'illegal_argument_exception', reason);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The definition file's text, JSON or YAML (JSON is YAML, but JSON's errors read better). */
export function parseDefinitionText(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') throw invalid('the pipeline definition is empty');
  try {
    return trimmed.startsWith('{') ? JSON.parse(trimmed) : parseYaml(trimmed);
  } catch (err) {
    throw new EsError(400, 'parse_exception', `the pipeline definition is neither valid JSON nor YAML: ${(err as Error).message}`);
  }
}

/**
 * Compiles a script without running it (the script pool's worker: a large script's compile does
 * not hold the event loop); rejects with a ScriptError when it does not parse.
 */
/** `scanned`: the script's nesting was scanned already, within the limit (a multipart file, readForm). */
export type SyntaxCheck = (source: string, name: string, scanned: boolean) => Promise<void>;

/**
 * Checks a definition and its script files, applies defaults, and has `syntax` parse every script
 * (stage by stage, in order): any error is a 400 naming the member (and, for stages, the stage id).
 */
export async function validatePipeline(raw: unknown, files: Record<string, string>, syntax: SyntaxCheck, id?: string, filesScanned = false): Promise<Pipeline> {
  if (!isObject(raw)) throw invalid('the pipeline definition must be an object');
  for (const key of Object.keys(raw)) if (!DEFINITION_KEYS.has(key)) throw invalid(`unknown member [${key}] in the pipeline definition`);
  const pipelineId = id ?? (raw.id === undefined ? undefined : String(raw.id));
  if (pipelineId === undefined || !ID_PATTERN.test(pipelineId)) {
    throw invalid(`[id] must be 1-128 letters, digits, '_', '-' or '.', starting with a letter or digit; got [${pipelineId ?? ''}]`);
  }
  if (raw.enabled !== undefined && typeof raw.enabled !== 'boolean') throw invalid('[enabled] must be a boolean');
  if (raw.description !== undefined && typeof raw.description !== 'string') throw invalid('[description] must be a string');
  if (raw.priority !== undefined && (typeof raw.priority !== 'number' || !Number.isFinite(raw.priority))) throw invalid('[priority] must be a number');
  if (raw.envs !== undefined && !isObject(raw.envs)) throw invalid('[envs] must be an object');
  if (!Array.isArray(raw.routes) || raw.routes.length === 0) throw invalid('[routes] must be a non-empty list');
  if (!Array.isArray(raw.stages) || raw.stages.length === 0) throw invalid('[stages] must be a non-empty list');

  const routes = raw.routes.map((r, i) => validateRoute(r, i));
  const used = new Set<string>();
  const scripts: Record<string, string> = {};
  const stages: PipelineStage[] = [];
  for (const [i, s] of (raw.stages as unknown[]).entries()) {
    if (!isObject(s)) throw invalid(`[stages][${i}] must be an object`);
    if (typeof s.id !== 'string' || s.id === '') throw invalid(`[stages][${i}][id] must be a non-empty string`);
    const at = `stage [${s.id}]`;
    if (used.has(s.id)) throw invalid(`${at}: the id is used by another stage`);
    used.add(s.id);
    for (const key of Object.keys(s)) if (!STAGE_KEYS.has(key)) throw invalid(`${at}: unknown member [${key}]`);
    const kinds = ['use', 'scriptRef', 'script'].filter((k) => s[k] !== undefined);
    if (kinds.length !== 1) throw invalid(`${at}: needs exactly one of [use], [scriptRef] or [script]`);
    for (const flag of ['continueOnError', 'enabled']) {
      if (s[flag] !== undefined && typeof s[flag] !== 'boolean') throw invalid(`${at}: [${flag}] must be a boolean`);
    }
    if (s.inputs !== undefined && !isObject(s.inputs)) throw invalid(`${at}: [inputs] must be an object`);
    const stage: PipelineStage = {
      id: s.id,
      continueOnError: s.continueOnError !== false,
      enabled: s.enabled !== false,
      ...(s.inputs === undefined ? {} : { inputs: s.inputs }),
    };
    if (s.use !== undefined) {
      if (typeof s.use !== 'string' || !PREBUILT_STAGES.has(s.use)) {
        throw invalid(`${at}: unknown pre-built stage [${String(s.use)}]; known: ${[...PREBUILT_STAGES.keys()].join(', ')}`);
      }
      stage.use = s.use;
    } else if (s.scriptRef !== undefined) {
      if (typeof s.scriptRef !== 'string' || files[s.scriptRef] === undefined) {
        throw invalid(`${at}: script file [${String(s.scriptRef)}] was not sent with the pipeline`);
      }
      stage.scriptRef = s.scriptRef;
      scripts[s.scriptRef] = files[s.scriptRef];
      await checkScript(syntax, files[s.scriptRef], s.scriptRef, at, filesScanned);
    } else {
      if (typeof s.script !== 'string') throw invalid(`${at}: [script] must be a string`);
      stage.script = s.script;
      await checkScript(syntax, s.script, `${s.id}.js`, at, false);
    }
    stages.push(stage);
  }
  return {
    id: pipelineId,
    enabled: raw.enabled !== false,
    ...(raw.description === undefined ? {} : { description: raw.description as string }),
    priority: (raw.priority as number | undefined) ?? 0,
    envs: (raw.envs as Record<string, unknown> | undefined) ?? {},
    routes,
    stages,
    scripts,
  };
}

function validateRoute(r: unknown, i: number): PipelineRoute {
  if (!isObject(r)) throw invalid(`[routes][${i}] must be an object`);
  if (typeof r.path !== 'string' || !r.path.startsWith('/')) throw invalid(`[routes][${i}][path] must be a path starting with '/'`);
  if (RESERVED_PATH.test(r.path)) throw invalid(`[routes][${i}][path] [${r.path}] belongs to the pipeline management API`);
  if (!/^(\/([^/{}]+|\{[A-Za-z_][A-Za-z0-9_]*\}))+\/?$|^\/$/.test(r.path)) {
    throw invalid(`[routes][${i}][path] [${r.path}] must be segments of text or {name} parameters`);
  }
  const route: PipelineRoute = { path: r.path };
  if (r.method !== undefined) {
    const method = typeof r.method === 'string' ? r.method.toUpperCase() : '';
    if (!METHODS.has(method)) throw invalid(`[routes][${i}][method] must be one of ${[...METHODS].join(', ')}`);
    route.method = method;
  }
  if (r.classify !== undefined) {
    if (!isObject(r.classify)) throw invalid(`[routes][${i}][classify] must be an object`);
    const category = r.classify.category;
    if (category !== undefined && (typeof category !== 'string' || !(CREDENTIAL_CATEGORIES as readonly string[]).includes(category))) {
      throw invalid(`[routes][${i}][classify][category] must be one of ${CREDENTIAL_CATEGORIES.join(', ')}`);
    }
    route.classify = category === undefined ? {} : { category };
  }
  return route;
}

async function checkScript(syntax: SyntaxCheck, source: string, name: string, at: string, scanned: boolean): Promise<void> {
  if (!/\bhandleRequest\b/.test(source)) throw invalid(`${at}: the script [${name}] defines no function handleRequest()`);
  try {
    await syntax(source, name, scanned);
  } catch (err) {
    if (err instanceof ScriptError) throw doesNotParse(at, name, err);
    throw err;
  }
}

const doesNotParse = (at: string, name: string, err: ScriptError): EsError => invalid(`${at}: the script [${name}] does not parse: ${err.message}`);

/**
 * The refusal of script file `file`, found nested past MAX_SCRIPT_NESTING while its form was read
 * (multipart.ts), as validatePipeline would give it: named by the first stage of `definition` that
 * runs it. Undefined when no stage does (the definition's own faults are found by validatePipeline).
 */
export function scriptTooDeep(definition: unknown, file: string): EsError | undefined {
  const stages = isObject(definition) && Array.isArray(definition.stages) ? (definition.stages as unknown[]) : [];
  const stage = stages.find((s): s is Record<string, unknown> => isObject(s) && s.scriptRef === file && typeof s.id === 'string' && s.id !== '');
  return stage && doesNotParse(`stage [${stage.id as string}]`, file, tooDeep());
}

/** The source a script stage runs. */
export function scriptOf(pipeline: Pipeline, stage: PipelineStage): { source: string; name: string } | undefined {
  if (stage.script !== undefined) return { source: stage.script, name: `${stage.id}.js` };
  if (stage.scriptRef !== undefined) return { source: pipeline.scripts[stage.scriptRef] ?? '', name: stage.scriptRef };
  return undefined;
}
