/**
 * `{"idx": {"mappings": {…}}}` (a get index, get mapping or get field mapping answer) as
 * Elasticsearch 7 gives it with `include_type_name=true`: each index's mappings under the single
 * type, `{"idx": {"mappings": {"_doc": {…}}}}`; an index without mappings has no type either.
 */
export function typedMappings(answer: unknown): unknown {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return answer;
  const out: Record<string, unknown> = {};
  for (const [index, entry] of Object.entries(answer as Record<string, unknown>)) {
    const mappings = (entry as { mappings?: unknown } | null)?.mappings;
    if (!mappings || typeof mappings !== 'object' || Array.isArray(mappings)) {
      out[index] = entry;
      continue;
    }
    const typed = Object.keys(mappings).length ? { _doc: mappings } : {};
    out[index] = { ...(entry as Record<string, unknown>), mappings: typed };
  }
  return out;
}
