import { EsError } from '../errors/index.js';
import type { BodyForm } from './typed-request.js';
import { TYPES_REMOVAL } from './warnings.js';

/** A body put in its Elasticsearch 8 form: the text, and the warning owed if it named types. */
export interface TypelessBody {
  text: string;
  warning?: string;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function parsed(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined; // left as written: the engine gives its own error for it
  }
}

/** Keys that start an Elasticsearch 8 mapping: a body made of one of them is typeless already. */
const MAPPING_KEYS = new Set([
  'properties', 'dynamic', 'dynamic_templates', 'dynamic_date_formats', 'date_detection', 'numeric_detection', 'runtime',
  '_source', '_meta', '_routing', '_field_names', '_data_stream_timestamp', 'enabled', 'subobjects',
]);

/**
 * A mapping written under its type (`{"my_type": {"properties": …}}`) → the typeless mapping; as
 * Elasticsearch 8 does with `include_type_name=true`, whatever the type's name, but an empty one
 * (prepareMappingsV7, prepareV7Mappings).
 */
function untypedMapping(mapping: unknown): unknown {
  if (!isObject(mapping)) return mapping;
  const keys = Object.keys(mapping);
  if (keys.length !== 1 || MAPPING_KEYS.has(keys[0])) return mapping;
  if (!keys[0].trim()) throw new EsError(400, 'illegal_argument_exception', 'name cannot be empty string');
  return mapping[keys[0]];
}

/** Bulk NDJSON: each action line without `_type`; source lines untouched. */
function bulkBody(text: string): TypelessBody {
  const lines = text.split('\n');
  let typed = false;
  let expectAction = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    if (!expectAction) {
      expectAction = true;
      continue;
    }
    const action = parsed(line);
    const [op] = isObject(action) ? Object.keys(action) : [];
    const meta = op === undefined ? undefined : (action as Json)[op];
    if (isObject(meta) && '_type' in meta) {
      delete meta._type;
      lines[i] = JSON.stringify(action);
      typed = true;
    }
    expectAction = op === 'delete';
  }
  return typed ? { text: lines.join('\n'), warning: TYPES_REMOVAL.bulk } : { text };
}

/** Multi-search NDJSON (search or template): header lines without `type`; bodies untouched. */
function msearchBody(text: string): TypelessBody {
  const lines = text.split('\n');
  let typed = false;
  let header = true;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    if (header) {
      const h = parsed(lines[i]);
      if (isObject(h) && ('type' in h || 'types' in h)) {
        delete h.type;
        delete h.types;
        lines[i] = JSON.stringify(h);
        typed = true;
      }
    }
    header = !header;
  }
  return typed ? { text: lines.join('\n'), warning: TYPES_REMOVAL.msearch } : { text };
}

/** Multi-get: `docs` items without `_type`. */
function mgetBody(text: string): TypelessBody {
  const body = parsed(text);
  if (!isObject(body) || !Array.isArray(body.docs)) return { text };
  let typed = false;
  for (const doc of body.docs) {
    if (isObject(doc) && '_type' in doc) {
      delete doc._type;
      typed = true;
    }
  }
  return typed ? { text: JSON.stringify(body), warning: TYPES_REMOVAL.mget } : { text };
}

/**
 * Create index or legacy template (`mappings` under a type) or put mapping (the body under a type),
 * with `include_type_name=true`.
 */
function mappingsBody(text: string, createIndex: boolean): TypelessBody {
  const body = parsed(text);
  if (!isObject(body)) return { text };
  if (createIndex) {
    if (!('mappings' in body)) return { text };
    const mappings = untypedMapping(body.mappings);
    return mappings === body.mappings ? { text } : { text: JSON.stringify({ ...body, mappings }) };
  }
  const mapping = untypedMapping(body);
  return mapping === body ? { text } : { text: JSON.stringify(mapping) };
}

/**
 * A rollover's body without `include_type_name`: `mappings` nested under the type `_doc` are refused
 * as RolloverRequest's V7 parser refuses them (the field's failure, caused by the mapping's).
 */
function rolloverBody(text: string): TypelessBody {
  const body = parsed(text);
  if (isObject(body) && isObject(body.mappings) && Object.keys(body.mappings).length === 1 && '_doc' in body.mappings) {
    throw new EsError(400, 'x_content_parse_exception', '[rollover] failed to parse field [mappings]', {
      caused_by: { type: 'illegal_argument_exception', reason: 'The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true.' },
    });
  }
  return { text };
}

/**
 * A search body's deprecated bucket order key, `_term` or `_time` (7.x's names of `_key`): Elasticsearch 8
 * takes them only in compatibility mode, with this warning (InternalOrder.Parser). The body is left as it
 * is: the engine reads them as `_key`.
 */
function deprecatedOrderKey(body: unknown): string | undefined {
  const aggs = (node: unknown): unknown[] => (isObject(node) ? [node.aggs, node.aggregations].filter(isObject).flatMap((a) => Object.values(a)) : []);
  const queue = aggs(body);
  for (let agg = queue.shift(); agg !== undefined; agg = queue.shift()) {
    if (!isObject(agg)) continue;
    for (const spec of Object.values(agg)) {
      if (!isObject(spec)) continue;
      for (const order of Array.isArray(spec.order) ? spec.order : [spec.order]) {
        const key = isObject(order) ? Object.keys(order).find((k) => k === '_term' || k === '_time') : undefined;
        if (key) return `Deprecated aggregation order key [${key}] used, replaced by [_key]`;
      }
    }
    queue.push(...aggs(agg));
  }
  return undefined;
}

/**
 * A compatibility-mode body in its Elasticsearch 8 form. The text is only rewritten when it names a
 * type (a quick look for the key first: most bodies are given back as they came).
 */
export function typelessBody(form: BodyForm, text: string): TypelessBody {
  switch (form) {
    case 'bulk':
      return text.includes('"_type"') ? bulkBody(text) : { text };
    case 'mget':
      return text.includes('"_type"') ? mgetBody(text) : { text };
    case 'msearch':
      return /"types?"/.test(text) ? msearchBody(text) : { text };
    case 'mapping':
      return mappingsBody(text, false);
    case 'index-mappings':
      return mappingsBody(text, true);
    case 'rollover':
      return text.includes('"_doc"') ? rolloverBody(text) : { text };
    case 'search':
      return /"_t(erm|ime)"/.test(text) ? { text, warning: deprecatedOrderKey(parsed(text)) } : { text };
  }
}
