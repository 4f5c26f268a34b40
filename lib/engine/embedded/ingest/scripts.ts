/**
 * Painless in pipelines: the `script` processor (context `ingest`: `ctx` is the document — its
 * source fields and metadata, read-write) and `if` conditions (context `processor_conditional`:
 * the same `ctx`, read-only as far as the document is concerned, returns a boolean). Scripts are
 * compiled once, when the pipeline is created, with the engine's Painless compiler.
 */
import { EsError } from '../../../errors/index.js';
import { compileScript, fromJson, parseScriptSpec, resolveScript, toJson, type ContextDefinition, type StoredScripts } from '../painless/index.js';
import { illegalArgument, isMap, METADATA_FIELDS, type IngestDocument, type JsonMap } from './ingest-document.js';
import type { ConfigReader } from './processor-config.js';
import type { Condition } from './processor.js';

const INGEST_CONTEXT: ContextDefinition = { name: 'ingest', variables: { params: 'Map', ctx: 'Map' }, returns: 'void' };
const CONDITION_CONTEXT: ContextDefinition = { name: 'processor_conditional', variables: { params: 'Map', ctx: 'Map' }, returns: 'boolean' };

function scriptCtx(doc: IngestDocument): Map<unknown, unknown> {
  return fromJson({ ...doc.source, ...doc.metadata, _ingest: doc.ingest }) as Map<unknown, unknown>;
}

/** Compiles a script given as an option (`if`), or as the processor's own options (`script`). */
function compile(raw: unknown, context: ContextDefinition, storedScripts: StoredScripts, config: ConfigReader, property: string) {
  try {
    const resolved = resolveScript(parseScriptSpec(raw, property), storedScripts, { context: context.name });
    return { script: compileScript(resolved.source, context, resolved.name), params: fromJson(resolved.params), source: resolved.source };
  } catch (e) {
    if (e instanceof EsError && e.type === 'script_exception') throw e;
    throw config.error(property, e instanceof Error ? e.message : String(e));
  }
}

/** The `if` option of any processor, compiled; undefined when there is none. */
export function readCondition(config: ConfigReader, storedScripts: StoredScripts): Condition | undefined {
  const raw = config.take('if');
  if (raw === undefined) return undefined;
  const { script, params, source } = compile(raw, CONDITION_CONTEXT, storedScripts, config, 'if');
  return {
    source,
    test(doc) {
      const result = script.run({ params, ctx: scriptCtx(doc) });
      if (typeof result !== 'boolean') throw illegalArgument(`condition [${source}] must return a boolean`);
      return result;
    },
  };
}

/** The script processor's body: runs the script on `ctx` and takes back the source and metadata it leaves. */
export function compileScriptProcessor(config: ConfigReader, storedScripts: StoredScripts): (doc: IngestDocument) => void {
  const raw: JsonMap = {};
  for (const key of ['source', 'id', 'lang', 'params', 'options', 'inline']) {
    const v = config.take(key);
    if (v !== undefined) raw[key] = v;
  }
  if (raw.source === undefined && raw.id === undefined && raw.inline === undefined) {
    throw config.error(undefined, 'must specify either [source] for an inline script or [id] for a stored script');
  }
  const { script, params } = compile(raw, INGEST_CONTEXT, storedScripts, config, 'source');
  return (doc) => {
    const ctx = scriptCtx(doc);
    script.run({ params, ctx });
    const out = toJson(ctx) as JsonMap;
    const source: JsonMap = {};
    for (const [k, v] of Object.entries(out)) {
      if (k === '_ingest') {
        if (isMap(v)) Object.assign(doc.ingest, v);
      } else if (METADATA_FIELDS.has(k)) {
        if (v !== doc.metadata[k]) doc.set(k, v);
      } else source[k] = v;
    }
    for (const k of ['_index', '_id']) if (!(k in out)) throw illegalArgument(`${k} cannot be removed`);
    doc.source = source;
  };
}
