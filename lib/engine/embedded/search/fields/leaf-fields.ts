import { OBJECT_TYPES, fieldType, type FieldMapping, type Mappings } from '../../mapping/index.js';

/** A mapped leaf field: its full name, mapping, and where its values come from in `_source`. */
export interface LeafField {
  name: string;
  mapping: FieldMapping;
  sourcePath: string;
}

const cache = new WeakMap<Mappings, LeafField[]>();

/** Every leaf field of a mapping, multi-fields included (`title.keyword` reads `title`). */
export function leafFields(mappings: Mappings): LeafField[] {
  let out = cache.get(mappings);
  if (out) return out;
  out = [];
  const walk = (props: Record<string, FieldMapping> | undefined, prefix: string) => {
    for (const [name, m] of Object.entries(props ?? {})) {
      const path = prefix + name;
      if (OBJECT_TYPES.has(fieldType(m))) {
        if (m.enabled !== false) walk(m.properties, path + '.');
        continue;
      }
      out!.push({ name: path, mapping: m, sourcePath: path });
      for (const [sub, sm] of Object.entries(m.fields ?? {})) out!.push({ name: `${path}.${sub}`, mapping: sm, sourcePath: path });
    }
  };
  walk(mappings.properties, '');
  cache.set(mappings, out);
  return out;
}

/**
 * What a leaf field reads: itself, or for a field alias the field its `path` names (a field alias is
 * another name of its target wherever fields are fetched); undefined for an alias whose target is
 * not a leaf of these mappings (hidden by field rules, say).
 */
export function readLeaf(leaf: LeafField, leaves: readonly LeafField[]): LeafField | undefined {
  if (fieldType(leaf.mapping) !== 'alias') return leaf;
  const target = leaf.mapping.path;
  return typeof target === 'string' ? leaves.find((l) => l.name === target && fieldType(l.mapping) !== 'alias') : undefined;
}

/** The values at a dotted path of a source document, through arrays and dotted keys. */
export function valuesAtPath(source: unknown, path: string, isValue?: (array: unknown[]) => boolean): unknown[] {
  const out: unknown[] = [];
  const visit = (node: unknown, rest: string) => {
    // an array that is one value (a geo point's [lon, lat], when `isValue` says so) is not a list of values
    if (Array.isArray(node) && !(rest === '' && isValue?.(node))) {
      for (const n of node) visit(n, rest);
      return;
    }
    if (rest === '') {
      if (node !== undefined) out.push(node);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const obj = node as Record<string, unknown>;
    // Try every prefix of the rest as a key: {"a.b": 1} and {"a": {"b": 1}} are the same field.
    let i = rest.indexOf('.');
    while (true) {
      const key = i < 0 ? rest : rest.slice(0, i);
      if (key in obj) visit(obj[key], i < 0 ? '' : rest.slice(i + 1));
      if (i < 0) break;
      i = rest.indexOf('.', i + 1);
    }
  };
  visit(source, path);
  return out;
}
