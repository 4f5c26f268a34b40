/**
 * Elasticsearch's versioned media types (`application/vnd.elasticsearch+json;compatible-with=8`,
 * and `+x-ndjson`), which the official 8.x and 9.x clients send on every request, name the REST
 * API version the engine serves anyway: asking for 8 is asking for nothing. OpenSearch refuses
 * them (406 `Content-Type header [...] is not supported`), so the engine is sent the plain types
 * every engine accepts, and the answer is labelled again as the client asked. Compatibility mode
 * (`compatible-with=7`) changes the API and is left as it is.
 */
const VERSIONED = /^application\/vnd\.elasticsearch\+(json|x-ndjson)\s*;\s*compatible-with\s*=\s*8\s*$/i;

const NAMES_VERSION = /compatible-with/i;

export const COMPATIBLE_JSON_8 = 'application/vnd.elasticsearch+json;compatible-with=8';

/**
 * The header with each versioned media type naming the engine's own version made plain (an
 * `Accept` may list several: `application/vnd.elasticsearch+json; compatible-with=8,text/plain`);
 * undefined when it names none.
 */
export function plainMediaType(value: string | string[] | undefined): string | undefined {
  // nearly every header names no version (`application/json`, `*/*`): no split for those
  if (typeof value !== 'string' || !NAMES_VERSION.test(value)) return undefined;
  let changed = false;
  const types = value.split(',').map((type) => {
    const m = VERSIONED.exec(type.trim());
    if (!m) return type;
    changed = true;
    return `application/${m[1].toLowerCase()}`;
  });
  return changed ? types.join(',') : undefined;
}

/** Whether an engine's answer is plain JSON, to be labelled as the versioned type the client asked for. */
export function isPlainJson(value: string | string[] | undefined): boolean {
  return typeof value === 'string' && /^application\/json\b/i.test(value.trim());
}
