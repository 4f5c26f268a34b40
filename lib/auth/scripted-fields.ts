import { callJson, type Backend } from '../engine/index.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const NONE: ReadonlySet<string> = new Set();

/**
 * The fields that indices' mappings compute with a script — runtime fields and fields mapped with
 * a `script` — for the field rules: a script reads whatever field it likes, so a credential whose
 * rules hide fields may not read a scripted one (Elasticsearch's field-level security runs such
 * scripts over the filtered source; the gateway, in front of any engine, refuses them instead).
 * Read from the engine's mappings for each request of such a credential (not remembered: a
 * runtime field added a moment ago must be refused at once); requests of one expression that are
 * in flight together share one read.
 */
export class ScriptedFields {
  private readonly inFlight = new Map<string, Promise<ReadonlySet<string>>>();

  constructor(private readonly backend: Backend) {}

  of(indices: readonly string[]): Promise<ReadonlySet<string>> {
    if (!indices.length) return Promise.resolve(NONE);
    const expression = indices.join(',');
    let found = this.inFlight.get(expression);
    if (!found) {
      found = this.read(expression).finally(() => this.inFlight.delete(expression));
      this.inFlight.set(expression, found);
    }
    return found;
  }

  private async read(expression: string): Promise<ReadonlySet<string>> {
    const res = await callJson<Json>(this.backend, 'GET', `/${encodeURIComponent(expression).replace(/%2C/gi, ',').replace(/%2A/gi, '*')}/_mapping`, undefined,
      'ignore_unavailable=true&allow_no_indices=true');
    const names = new Set<string>();
    if (res.status !== 200 || !isObject(res.body)) return names;
    for (const entry of Object.values(res.body)) if (isObject(entry) && isObject(entry.mappings)) collect(entry.mappings, '', names);
    return names;
  }
}

function collect(mapping: Json, prefix: string, names: Set<string>): void {
  const at = (name: string) => (prefix ? `${prefix}.${name}` : name);
  if (isObject(mapping.runtime)) for (const name of Object.keys(mapping.runtime)) names.add(at(name));
  for (const member of ['properties', 'fields'] as const) {
    const fields = mapping[member];
    if (!isObject(fields)) continue;
    for (const [name, sub] of Object.entries(fields)) {
      if (!isObject(sub)) continue;
      if (sub.script !== undefined) names.add(at(name));
      collect(sub, at(name), names);
    }
  }
}
