import { EsError } from '../../../errors/index.js';
import { tokenName } from '../../../ndjson/index.js';
import { unsupportedValue as unsupported } from '../query-rules/parse-errors.js';
import { JSON_CONTENT_TYPE } from './mustache-template.js';

/** A stored script as Elasticsearch keeps it in its cluster state (`StoredScriptSource`). */
export interface StoredScript {
  lang: string;
  /** The source as text: a source given as an object is kept as its JSON. */
  source: string;
  /** Compiler options; only `content_type` is allowed (set when the source was an object). */
  options?: Record<string, string>;
}

/** The languages a script may be stored in: the template language, and Painless (stored for later use). */
export const STORED_LANGS = new Set(['expression', 'mustache', 'painless']);

function parsing(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function illegal(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const unsupportedValue = (field: string, v: unknown) => unsupported('stored script source', field, v);

/** Java's `Map.toString` of the options, for the message that refuses them. */
function optionsText(options: Record<string, string>): string {
  return `{${Object.entries(options).map(([k, v]) => `${k}=${v}`).join(', ')}}`;
}

/**
 * The body of `PUT _scripts/{id}` read as Elasticsearch's StoredScriptSource reads it:
 * `{"script": {"lang", "source" (text or an object), "options"?}}`, other members of `script`
 * ignored (`params` among them), its errors worded as Elasticsearch's.
 */
export function parseStoredScript(body: unknown): StoredScript {
  if (!isObject(body)) throw parsing(`unexpected token [${tokenName(body)}], expected [{]`);
  const keys = Object.keys(body);
  // `{}` is the empty template Elasticsearch still accepts (with a deprecation warning)
  if (!keys.length) return { lang: 'mustache', source: '' };
  if (keys[0] !== 'script') throw parsing(`unexpected field [${keys[0]}], expected [script]`);
  const script = body.script;
  if (!isObject(script)) throw parsing(`unexpected token [${tokenName(script)}], expected [{, <source>]`);

  let lang: string | undefined;
  if (script.lang !== undefined && script.lang !== null) {
    if (typeof script.lang === 'object') throw unsupportedValue('lang', script.lang);
    lang = String(script.lang);
  }
  let source: string | undefined;
  const options: Record<string, string> = {};
  if (script.source !== undefined && script.source !== null) {
    if (isObject(script.source)) {
      // a template written as JSON: kept as its text, to be rendered as JSON
      source = JSON.stringify(script.source);
      options.content_type = JSON_CONTENT_TYPE;
    } else if (typeof script.source === 'string') {
      source = script.source;
    } else {
      throw unsupportedValue('source', script.source);
    }
  }
  if (script.options !== undefined && script.options !== null) {
    if (!isObject(script.options)) throw unsupportedValue('options', script.options);
    for (const [k, v] of Object.entries(script.options)) options[k] = String(v);
  }

  if (lang === undefined) throw illegal('must specify lang for stored script');
  if (lang === '') throw illegal('lang cannot be empty');
  // an empty template is allowed (deprecated) in the template language only
  if (source === undefined && lang !== 'mustache') throw illegal('must specify source for stored script');
  if (source === '' && lang !== 'mustache') throw illegal('source cannot be empty');
  const names = Object.keys(options);
  if (names.length > 1 || (names.length === 1 && names[0] !== 'content_type')) {
    const { content_type: _ignored, ...rest } = options;
    void _ignored;
    throw illegal(`illegal compiler options [${optionsText(rest)}] specified`);
  }
  return names.length ? { lang, source: source ?? '', options } : { lang, source: source ?? '' };
}
