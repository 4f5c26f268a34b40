/** Processors that move values around: set, remove, rename, append, dot_expander, sort (Elasticsearch's reference pages of the same names). */
import { deepCopy, illegalArgument, isMap, javaType, METADATA_FIELDS, type IngestDocument } from '../ingest-document.js';
import { ingestBytes } from '../ingest-budget.js';
import type { ProcessorFactory } from '../processor.js';
import { compileStringTemplate, compileValueSource, readMediaType } from '../templates.js';

export const set: ProcessorFactory = (config) => {
  const field = compileStringTemplate(config.requiredString('field'), config, 'field');
  const copyFrom = config.optionalString('copy_from');
  const rawValue = config.take('value');
  if (copyFrom !== undefined && rawValue !== undefined) throw config.error('copy_from', 'cannot set both `copy_from` and `value` in the same processor');
  if (copyFrom === undefined && rawValue === undefined) throw config.error('value', 'required property is missing');
  const override = config.boolean('override', true);
  const ignoreEmpty = config.boolean('ignore_empty_value', false);
  const mediaType = readMediaType(config);
  const value = rawValue === undefined ? undefined : compileValueSource(rawValue, config, 'value', mediaType);
  return (doc) => {
    const path = field(doc);
    if (!override && doc.has(path) && doc.get(path) !== null) return;
    let v: unknown;
    if (copyFrom !== undefined) {
      const from = doc.get(copyFrom);
      doc.budget.charge('set', ingestBytes(from)); // before the copy is made
      v = deepCopy(from);
    } else {
      v = value!(doc);
      doc.budget.charge('set', ingestBytes(v)); // a template may repeat a field: set after set doubles it
    }
    if (ignoreEmpty && (v === null || v === undefined || v === '')) return;
    doc.set(path, v);
  };
};

export const remove: ProcessorFactory = (config) => {
  const fields = config.optionalList('field', true);
  const keep = config.optionalList('keep', true);
  if (fields !== undefined && keep !== undefined) throw config.error('keep', 'Too many fields specified');
  if (fields === undefined && keep === undefined) throw config.error('keep', 'At least one of [field] or [keep] must be specified');
  const ignoreMissing = config.boolean('ignore_missing', false);
  if (keep) {
    const kept = keep.map((f) => compileStringTemplate(String(f), config, 'keep'));
    return (doc) => keepOnly(doc, kept.map((k) => k(doc)));
  }
  const removed = fields!.map((f) => compileStringTemplate(String(f), config, 'field'));
  return (doc) => {
    for (const f of removed) {
      const path = f(doc);
      if (ignoreMissing && !doc.has(path)) continue;
      doc.remove(path);
    }
  };
};

/** `keep`: the source keeps the named fields (and the objects on their paths), nothing else; metadata stays. */
function keepOnly(doc: IngestDocument, paths: string[]): void {
  const next: Record<string, unknown> = {};
  for (const path of paths) {
    if (METADATA_FIELDS.has(path) || !doc.has(path)) continue;
    const segments = path.replace(/^_source\./, '').split('.');
    let out: Record<string, unknown> = next;
    let src: unknown = doc.source;
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i];
      src = isMap(src) ? src[seg] : undefined;
      if (i === segments.length - 1) out[seg] = src;
      else {
        if (!isMap(out[seg])) out[seg] = {};
        out = out[seg] as Record<string, unknown>;
      }
    }
  }
  doc.source = next;
}

export const rename: ProcessorFactory = (config) => {
  const field = compileStringTemplate(config.requiredString('field'), config, 'field');
  const target = compileStringTemplate(config.requiredString('target_field'), config, 'target_field');
  const ignoreMissing = config.boolean('ignore_missing', false);
  const override = config.boolean('override', false);
  return (doc) => {
    const from = field(doc);
    const to = target(doc);
    if (!doc.has(from)) {
      if (ignoreMissing) return;
      throw illegalArgument(`field [${from}] doesn't exist`);
    }
    if (doc.has(to) && !override) throw illegalArgument(`field [${to}] already exists`);
    const value = doc.get(from);
    doc.remove(from);
    try {
      doc.set(to, value);
    } catch (e) {
      doc.set(from, value);
      throw e;
    }
  };
};

export const append: ProcessorFactory = (config) => {
  const field = compileStringTemplate(config.requiredString('field'), config, 'field');
  const raw = config.take('value');
  if (raw === undefined) throw config.error('value', 'required property is missing');
  const allowDuplicates = config.boolean('allow_duplicates', true);
  const value = compileValueSource(raw, config, 'value', readMediaType(config));
  return (doc) => {
    const v = value(doc);
    doc.budget.charge('append', ingestBytes(v));
    doc.set(field(doc), v, true, allowDuplicates);
  };
};

/**
 * `dot_expander`: a field whose name has dots (`foo.bar`, at the top or in the object at `path`;
 * `*` for every such field there) becomes the object path it names. An existing value there is
 * replaced with `override`, else both are kept as a list, as Elasticsearch's DotExpanderProcessor.
 */
export const dotExpander: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  if (!field.includes('.') && field !== '*') throw config.error('field', 'field does not contain a dot and is not a wildcard');
  if (field.startsWith('.') || field.endsWith('.')) throw config.error('field', 'Field can\'t start or end with a dot');
  if (field.includes('..')) throw config.error('field', 'No space between dots');
  const path = config.optionalString('path');
  const override = config.boolean('override', false);
  return (doc) => {
    let map: Record<string, unknown> = doc.source;
    if (path !== undefined) {
      const value = doc.get(path);
      if (!isMap(value)) throw illegalArgument(`field [${path}] of type [${value === null ? 'null' : javaType(value)}] cannot be cast to [java.util.Map]`);
      map = value;
    }
    const keys = field === '*' ? Object.keys(map).filter((k) => k.indexOf('.') > 0) : [field];
    for (const key of keys) {
      if (!Object.prototype.hasOwnProperty.call(map, key)) continue;
      const full = path === undefined ? key : `${path}.${key}`;
      if (doc.has(full)) {
        const value = map[key];
        delete map[key];
        doc.set(full, value, !override);
        continue;
      }
      // a part of the path holding a value (not an object) cannot become an object
      for (let i = full.indexOf('.'); i !== -1; i = full.indexOf('.', i + 1)) {
        const partial = full.slice(0, i);
        if (!doc.has(partial)) break;
        if (!isMap(doc.get(partial))) throw illegalArgument(`cannot expend [${full}], because [${partial}] is not an object field, but a value field`);
      }
      const value = map[key];
      delete map[key];
      doc.set(full, value);
    }
  };
};

/** `sort`: the list at `field` in ascending (or `order: desc`) natural order, written to `target_field` (default `field`). */
export const sort: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const order = config.optionalString('order', 'asc')!;
  if (order !== 'asc' && order !== 'desc') throw config.error('order', `Sort direction [${order}] not recognized. Valid values are: [asc, desc]`);
  const target = config.optionalString('target_field', field)!;
  return (doc) => {
    const list = doc.get(field);
    if (list === null) throw illegalArgument(`field [${field}] is null, cannot sort.`);
    if (!Array.isArray(list)) throw illegalArgument(`field [${field}] of type [${javaType(list)}] cannot be cast to [java.util.List]`);
    const sorted = [...list].sort((a, b) => naturalOrder(a, b, field));
    if (order === 'desc') sorted.reverse();
    doc.set(target, sorted);
  };
};

/** Java's natural order (Comparable) of two list elements of one kind: strings by UTF-16 code units, numbers, booleans. */
function naturalOrder(a: unknown, b: unknown, field: string): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  throw illegalArgument(`field [${field}] holds values of types [${javaType(a)}] and [${javaType(b)}] that cannot be compared`);
}
