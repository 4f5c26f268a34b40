/**
 * A `script` as requests write it: the short form (`"script": "ctx._source.n += 1"`) or an
 * object with `source` (or the old `inline`) or a stored script's `id`, plus `lang`, `params` and
 * `options`. Stored scripts are read through `StoredScripts`, which whoever stores them provides.
 */
import { EsError } from '../../../errors/index.js';

export interface ScriptSpec {
  /** The inline source; undefined for a stored script. */
  source?: string;
  /** A stored script's id. */
  id?: string;
  lang?: string;
  params: Record<string, unknown>;
}

/**
 * Stored scripts (`PUT /_scripts/{id}`), as scripts that name one (`"script": {"id": "x"}`) read
 * them. Contract: `get` answers the script as last stored, or undefined when there is none.
 */
export interface StoredScripts {
  get(id: string): { lang: string; source: string } | undefined;
}

/** No stored scripts at all: every `id` is unknown. */
export const NO_STORED_SCRIPTS: StoredScripts = { get: () => undefined };

/** A script ready to compile: its source, the name errors show, its params. */
export interface ResolvedScript {
  source: string;
  /** What ES reports as the script in errors: the source of an inline script, the id of a stored one. */
  name: string;
  params: Record<string, unknown>;
  /** `painless`, or `expression` where the caller allowed it. */
  lang: 'painless' | 'expression';
}

/**
 * Which languages a caller runs: Painless always; the expression language where `expression` is
 * set (search scripts, search/scripts/doc-script.ts). `context` names the script context in the
 * refusal of an expression elsewhere, as Elasticsearch words it.
 */
export interface ScriptLangs {
  expression?: boolean;
  context?: string;
}

const KEYS = new Set(['source', 'inline', 'id', 'lang', 'params', 'options']);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Parses a `script` value; `where` names the enclosing object in errors (`[script]`, `[script_score]`…). */
export function parseScriptSpec(raw: unknown, where = 'script'): ScriptSpec {
  if (typeof raw === 'string') return { source: raw, params: {} };
  if (!isObject(raw)) throw new EsError(400, 'parsing_exception', `[${where}] unknown token [${Array.isArray(raw) ? 'START_ARRAY' : 'VALUE'}] after [script]`, { line: 1, col: 1 });
  for (const k of Object.keys(raw)) {
    if (!KEYS.has(k)) throw new EsError(400, 'x_content_parse_exception', `[1:2] [script] unknown field [${k}]`);
  }
  const source = raw.source ?? raw.inline;
  if (source !== undefined && raw.id !== undefined) {
    throw new EsError(400, 'illegal_argument_exception', 'must only use one of [source, inline, id] for defining a script');
  }
  if (source === undefined && raw.id === undefined) {
    throw new EsError(400, 'illegal_argument_exception', 'must specify either [source] for an inline script or [id] for a stored script');
  }
  if (raw.params !== undefined && raw.params !== null && !isObject(raw.params)) {
    throw new EsError(400, 'parsing_exception', `[params] must be an object`, { line: 1, col: 1 });
  }
  if (raw.id !== undefined && raw.lang !== undefined) throw new EsError(400, 'illegal_argument_exception', 'illegally specified <lang> for a stored script');
  if (raw.lang !== undefined && typeof raw.lang !== 'string') throw new EsError(400, 'parsing_exception', '[lang] must be a string', { line: 1, col: 1 });
  const params = isObject(raw.params) ? raw.params : {};
  if (raw.id !== undefined) return { id: String(raw.id), params };
  if (typeof source !== 'string') {
    // An object source is a template (mustache); only painless sources are strings.
    throw new EsError(400, 'illegal_argument_exception', `script_lang not supported [${String(raw.lang ?? 'painless')}]`);
  }
  return { source, lang: raw.lang as string | undefined, params };
}

/** The source of a script spec: inline, or the stored script it names (404 when there is none). */
export function resolveScript(spec: ScriptSpec, stored: StoredScripts = NO_STORED_SCRIPTS, langs: ScriptLangs = {}): ResolvedScript {
  if (spec.id !== undefined) {
    const s = stored.get(spec.id);
    if (!s) throw new EsError(404, 'resource_not_found_exception', `unable to find script [${spec.id}] in cluster state`);
    return { source: s.source, name: spec.id, params: spec.params, lang: checkLang(s.lang, langs) };
  }
  return { source: spec.source!, name: spec.source!, params: spec.params, lang: checkLang(spec.lang ?? 'painless', langs) };
}

function checkLang(lang: string, langs: ScriptLangs): 'painless' | 'expression' {
  if (lang === 'painless') return lang;
  if (lang === 'expression' && langs.expression) return lang;
  if (lang === 'expression' && langs.context !== undefined) {
    throw new EsError(400, 'illegal_argument_exception', `expression engine does not know how to handle script context [${langs.context}]`);
  }
  throw new EsError(400, 'illegal_argument_exception', `script_lang not supported [${lang}]`);
}
