import type { IndexHandle } from '../../indices/index.js';
import type { InvertedIndex } from '../../index/index.js';
import type { Mappings } from '../../mapping/index.js';
import {
  DocMap, NO_STORED_SCRIPTS, SearchParams, compileScript, fieldOf, fromJson, markWrittenDoubles, resolveScript,
  type CompiledScript, type ScriptMemory, type ContextDefinition, type DocFields, type ScriptSpec, type StoredScripts,
} from '../../painless/index.js';
import { EXPRESSION_CONTEXTS, compileExpression } from '../../expression/expression.js';
import { IndexDocFields } from './doc-fields.js';

/** A script of a search request: compiled for its context, its params converted once. */
export interface PreparedScript {
  compiled: CompiledScript;
  params: Map<unknown, unknown>;
}

export function prepareScript(spec: ScriptSpec, context: ContextDefinition, stored: StoredScripts = NO_STORED_SCRIPTS): PreparedScript {
  const resolved = resolveScript(spec, stored, { expression: EXPRESSION_CONTEXTS.has(context.name), context: context.name });
  const compiled = resolved.lang === 'expression'
    ? compileExpression(resolved.source, context, resolved.params, resolved.name)
    : compileScript(resolved.source, context, resolved.name);
  return { compiled, params: fromJson(resolved.params) as Map<unknown, unknown> };
}

/** The `_source` of the document at an ordinal, for `params._source` (numbers written `2.0` read as doubles). */
export function documentSource(handle: IndexHandle, ord: number): Record<string, unknown> | undefined {
  const doc = handle.get(handle.inverted!.idOf(ord)!);
  if (!doc) return undefined;
  if (doc.sourceText !== undefined) markWrittenDoubles(doc.source, doc.sourceText);
  return doc.source;
}

export interface DocScriptOptions {
  /** The source of the document at an ordinal (for `params._source`), when the context offers it. */
  source?: (ord: number) => Record<string, unknown> | undefined;
  /** Functions and variables the context adds (`emit`, `saturation`…). */
  globals?: Record<string, unknown>;
  /** The memory account the runs share, when what they build outlives each run (a scripted_metric's state). */
  memory?: ScriptMemory;
}

/** A prepared script bound to one index: runs for a document (ordinal), with its `doc`, `params` and `_score`. */
export class DocScript {
  private readonly fields: IndexDocFields;
  private readonly doc: DocMap;
  private readonly params: SearchParams;
  private readonly globals: Record<string, unknown>;

  constructor(
    private readonly script: PreparedScript,
    index: InvertedIndex,
    mappings: Mappings,
    indexName: string,
    private readonly options: DocScriptOptions = {},
  ) {
    this.fields = new IndexDocFields(index, mappings, indexName);
    this.doc = new DocMap(this.fields);
    this.params = new SearchParams(script.params);
    this.globals = { field: fieldOf, explanation: null, ...options.globals, params: this.params, doc: this.doc, _score: 0 };
  }

  get compiled(): CompiledScript {
    return this.script.compiled;
  }

  /** Sets a variable of the context for the next runs (a value script's `_value`). */
  bind(name: string, value: unknown): void {
    this.globals[name] = value;
  }

  /** Runs the script for the document at `ord`; throws ES's script_exception. */
  run(ord: number, score = 0): unknown {
    this.fields.ord = ord;
    this.doc.moveTo();
    const load = this.options.source;
    if (load) this.params.withSource(() => fromJson(load(ord) ?? {}));
    this.globals._score = score;
    return this.script.compiled.run(this.globals, this.options.memory);
  }
}

/** Runs a prepared script once against a `doc` of any origin (one parsed document). */
export function runOnDocument(script: PreparedScript, fields: DocFields, source: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}): unknown {
  const params = new SearchParams(script.params);
  if (source) params.withSource(() => fromJson(source));
  return script.compiled.run({ field: fieldOf, explanation: null, ...extra, params, doc: new DocMap(fields), _score: extra._score ?? 0 });
}
