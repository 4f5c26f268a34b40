import { EsError } from '../../../errors/index.js';
import type { Store } from '../store/index.js';
import { compileTemplate, type CompiledTemplate } from './mustache-template.js';
import { SCRIPT_CONTEXTS, TEMPLATE_CONTEXTS } from './script-contexts.js';
import { STORED_LANGS, parseStoredScript, type StoredScript } from './stored-script-source.js';

const KEY_PREFIX = 'stored_script:';
/** `script.max_size_in_bytes`: Elasticsearch's default. */
const MAX_SIZE_IN_BYTES = 65535;

/**
 * What other engine code needs of the stored scripts: a script by id. Contract: `get` answers the
 * last acknowledged version of the script (or undefined), synchronously, and never throws.
 */
export interface StoredScriptLookup {
  get(id: string): StoredScript | undefined;
}

function illegal(reason: string, extra: Record<string, unknown> = {}): EsError {
  return new EsError(400, 'illegal_argument_exception', reason, extra);
}

/**
 * The engine's stored scripts (`_scripts`), durable as cluster metadata in the store (one record
 * per script under `stored_script:`). A change is made in memory at once and acknowledged once
 * stored. Templates are compiled when first used and the compiled form kept with the script.
 */
export class StoredScripts implements StoredScriptLookup {
  private readonly scripts = new Map<string, StoredScript>();
  private readonly compiled = new WeakMap<StoredScript, CompiledTemplate>();

  constructor(private readonly store: Store) {
    for (const { key, value } of store.loadCluster()) {
      if (key.startsWith(KEY_PREFIX)) this.scripts.set(key.slice(KEY_PREFIX.length), value as StoredScript);
    }
  }

  get(id: string): StoredScript | undefined {
    return this.scripts.get(id);
  }

  /**
   * PUT _scripts/{id}[/{context}]: `body` as sent (its size is limited), parsed as Elasticsearch
   * parses it. With a context, the script is compiled in it first, as Elasticsearch does.
   */
  async put(id: string, body: unknown, bodyBytes: number, context: string | undefined): Promise<void> {
    const script = parseStoredScript(body);
    if (id.includes('#')) throw new EsError(400, 'action_request_validation_exception', "Validation Failed: 1: id cannot contain '#' for stored script;");
    if (bodyBytes > MAX_SIZE_IN_BYTES) {
      throw illegal(`exceeded max allowed stored script size in bytes [${MAX_SIZE_IN_BYTES}] with size [${bodyBytes}] for script [${id}]`);
    }
    if (!STORED_LANGS.has(script.lang)) throw illegal(`unable to put stored script with unsupported lang [${script.lang}]`);
    if (context !== undefined) this.checkCompiles(id, script, context);
    this.scripts.set(id, script);
    await this.store.write([{ kind: 'cluster', key: KEY_PREFIX + id, value: script }]);
  }

  private checkCompiles(id: string, script: StoredScript, context: string): void {
    if (!SCRIPT_CONTEXTS.has(context)) throw illegal(`Unknown context [${context}]`);
    const failed = (reason: string) =>
      illegal(`failed to parse/compile stored script [${id}]`, { caused_by: { type: 'illegal_argument_exception', reason } });
    if (script.lang === 'mustache') {
      if (!TEMPLATE_CONTEXTS.has(context)) throw failed(`mustache engine does not know how to handle context [${context}]`);
      // a template that does not compile is Elasticsearch's script_exception, thrown as it is
      this.compiled.set(script, compileTemplate(script.source, script.options?.content_type));
    } else if (TEMPLATE_CONTEXTS.has(context)) {
      throw failed(`painless does not know how to handle context [${context}]`);
    }
    // Painless in its own contexts: kept without compiling (the embedded engine runs no Painless yet)
  }

  /** DELETE _scripts/{id}. */
  async delete(id: string): Promise<void> {
    if (!this.scripts.has(id)) throw new EsError(404, 'resource_not_found_exception', `stored script [${id}] does not exist and cannot be deleted`);
    this.scripts.delete(id);
    await this.store.write([{ kind: 'cluster', key: KEY_PREFIX + id, value: undefined }]);
  }

  /**
   * The stored template `id`, compiled: 404 when there is none, as Elasticsearch's search
   * templates answer; a script of another language cannot run as a template.
   */
  template(id: string): CompiledTemplate {
    const script = this.scripts.get(id);
    if (!script) throw new EsError(404, 'resource_not_found_exception', `unable to find script [${id}] in cluster state`);
    if (script.lang !== 'mustache') {
      // Elasticsearch's answer when a non-template engine is asked to compile a template
      throw new EsError(500, 'general_script_exception', `Failed to compile stored script [${id}] using lang [${script.lang}]`);
    }
    let compiled = this.compiled.get(script);
    if (!compiled) {
      compiled = compileTemplate(script.source, script.options?.content_type);
      this.compiled.set(script, compiled);
    }
    return compiled;
  }
}
