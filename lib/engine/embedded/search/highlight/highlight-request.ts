import { EsError } from '../../../../errors/index.js';
import { parseQuery, type Query } from '../query/index.js';

export interface HighlightOptions {
  preTags: string[];
  postTags: string[];
  fragmentSize: number;
  numberOfFragments: number;
  requireFieldMatch: boolean;
  noMatchSize: number;
  order: 'none' | 'score';
  encoder: 'default' | 'html';
  type?: string;
  highlightQuery?: Query;
  matchedFields?: string[];
}

export interface HighlightRequest {
  fields: Array<{ pattern: string; options: HighlightOptions }>;
}

const DEFAULTS: HighlightOptions = {
  preTags: ['<em>'], postTags: ['</em>'], fragmentSize: 100, numberOfFragments: 5, requireFieldMatch: true, noMatchSize: 0, order: 'none', encoder: 'default',
};

const STYLED_PRE = ['<em class="hlt1">', '<em class="hlt2">', '<em class="hlt3">', '<em class="hlt4">', '<em class="hlt5">', '<em class="hlt6">', '<em class="hlt7">', '<em class="hlt8">', '<em class="hlt9">', '<em class="hlt10">'];

const OPTION_KEYS = new Set([
  'pre_tags', 'post_tags', 'fragment_size', 'number_of_fragments', 'require_field_match', 'highlight_query', 'type', 'no_match_size', 'order', 'encoder',
  'tags_schema', 'fragmenter', 'boundary_scanner', 'boundary_chars', 'boundary_max_scan', 'boundary_scanner_locale', 'phrase_limit', 'force_source',
  'fragment_offset', 'matched_fields', 'max_analyzed_offset', 'options', 'max_fragment_length',
]);

function parsingError(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

function strings(v: unknown, what: string): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  throw parsingError(`[highlight] ${what} must be an array of strings`);
}

function num(v: unknown, what: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw parsingError(`[highlight] failed to parse field [${what}]`);
  return n;
}

function options(o: Record<string, unknown>, base: HighlightOptions, where: string): HighlightOptions {
  const out: HighlightOptions = { ...base };
  for (const [k, v] of Object.entries(o)) {
    if (k === 'fields') continue;
    if (!OPTION_KEYS.has(k)) throw parsingError(`[${where}] unknown field [${k}]`);
    switch (k) {
      case 'pre_tags': out.preTags = strings(v, k); break;
      case 'post_tags': out.postTags = strings(v, k); break;
      case 'tags_schema':
        if (v === 'styled') {
          out.preTags = STYLED_PRE;
          out.postTags = ['</em>'];
        }
        break;
      case 'fragment_size': out.fragmentSize = num(v, k); break;
      case 'number_of_fragments': out.numberOfFragments = num(v, k); break;
      case 'no_match_size': out.noMatchSize = num(v, k); break;
      case 'require_field_match': out.requireFieldMatch = v === true || v === 'true'; break;
      case 'order': out.order = v === 'score' ? 'score' : 'none'; break;
      case 'encoder': out.encoder = v === 'html' ? 'html' : 'default'; break;
      case 'type':
        if (typeof v !== 'string' || !['unified', 'plain', 'fvh'].includes(v)) throw new EsError(400, 'illegal_argument_exception', `unknown highlighter type [${String(v)}] for the field`);
        out.type = v;
        break;
      case 'highlight_query': out.highlightQuery = parseQuery(v); break;
      case 'matched_fields': out.matchedFields = strings(v, k); break;
    }
  }
  return out;
}

/** `highlight` of a search body: global options, then per-field ones (object or array of objects). */
export function parseHighlight(input: unknown): HighlightRequest {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw parsingError('[highlight] must be an object');
  const h = input as Record<string, unknown>;
  const global = options(h, DEFAULTS, 'highlight');
  const fields: HighlightRequest['fields'] = [];
  const add = (name: string, def: unknown) => {
    const o = def !== null && typeof def === 'object' && !Array.isArray(def) ? (def as Record<string, unknown>) : {};
    fields.push({ pattern: name, options: options(o, global, 'highlight_field') });
  };
  if (Array.isArray(h.fields)) {
    for (const item of h.fields) {
      if (item === null || typeof item !== 'object') throw parsingError('[highlight] fields must be objects');
      for (const [name, def] of Object.entries(item as Record<string, unknown>)) add(name, def);
    }
  } else if (h.fields !== null && typeof h.fields === 'object') {
    for (const [name, def] of Object.entries(h.fields as Record<string, unknown>)) add(name, def);
  } else {
    throw new EsError(400, 'illegal_argument_exception', 'Highlighter requires at least one field to be specified');
  }
  return { fields };
}
