const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Does a mappings body (or an index creation's or rollover's, under `mappings`) define what reads
 * one field into another: a runtime field (or OpenSearch's derived field), a field with a script, `copy_to`, an `alias` field,
 * runtime dynamic mapping, or a dynamic template that makes any of these? Under field rules such
 * a mapping is refused (by the gateway and by the engine where the mapping is written): `copy_to`
 * from a hidden field puts its value into a visible one the next time the document is written
 * (a partial update, `_update_by_query`, another writer).
 */
export function mappingReadsFields(body: unknown): boolean {
  if (!isObject(body)) return false;
  const field = (def: unknown): boolean => isObject(def) && (def.script !== undefined || def.copy_to !== undefined || def.type === 'alias' || walk(def));
  const walk = (mapping: unknown): boolean => {
    if (!isObject(mapping)) return false;
    if (mapping.runtime !== undefined || mapping.derived !== undefined || mapping.script !== undefined || mapping.dynamic === 'runtime') return true;
    if (Array.isArray(mapping.dynamic_templates) && mapping.dynamic_templates.some((t) => isObject(t) && Object.values(t).some((d) => isObject(d) && (d.runtime !== undefined || field(d.mapping))))) return true;
    for (const member of ['properties', 'fields']) {
      const fields = mapping[member];
      if (isObject(fields) && Object.values(fields).some(field)) return true;
    }
    // typed forms (`{"_doc": {...}}`)
    return Object.entries(mapping).some(([k, v]) => k !== 'properties' && k !== 'fields' && isObject(v) && (isObject(v.properties) || v.runtime !== undefined || v.derived !== undefined || v.dynamic_templates !== undefined) && walk(v));
  };
  return walk(body) || walk(body.mappings);
}
