import type { FieldMapping, Mappings } from '../mapping/index.js';

/** One field of a mapping: its full path and type (`object` for an object without one), multi-fields included. */
export interface MappedField {
  path: string;
  type: string;
  mapping: FieldMapping;
}

/** Every field of a mapping's `properties`, depth first, with multi-fields after their parent. */
export function mappedFields(mappings: Mappings): MappedField[] {
  const out: MappedField[] = [];
  const walk = (props: Record<string, FieldMapping> | undefined, prefix: string) => {
    for (const [name, m] of Object.entries(props ?? {})) {
      const path = prefix + name;
      out.push({ path, type: m.type ?? 'object', mapping: m });
      for (const [sub, sm] of Object.entries(m.fields ?? {})) out.push({ path: `${path}.${sub}`, type: sm.type ?? 'object', mapping: sm });
      if (m.properties) walk(m.properties, `${path}.`);
    }
  };
  walk(mappings.properties, '');
  return out;
}

/** The runtime fields of a mapping (`runtime` section), by name. */
export function runtimeFields(mappings: Mappings): Array<{ name: string; mapping: Record<string, unknown> }> {
  const runtime = mappings.runtime;
  if (!runtime || typeof runtime !== 'object') return [];
  return Object.entries(runtime as Record<string, Record<string, unknown>>).map(([name, mapping]) => ({ name, mapping }));
}
