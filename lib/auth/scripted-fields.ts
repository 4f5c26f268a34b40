import { entryBoundedCache } from '../breakers/index.js';
import type { Subscription } from 'rxjs';
import type { ChangeBus } from '../changes/index.js';
import { callJson, type Backend } from '../engine/index.js';
import { NO_DERIVED_FIELDS, type DerivedFields } from './field-rules.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What an expression's mappings make scripted, and whether it may be kept until a mapping change. */
interface Reading {
  fields: DerivedFields;
  keep: boolean;
}

/**
 * The fields that indices' mappings compute with a script — runtime fields and fields mapped with
 * a `script` — for the field rules: a script reads whatever field it likes, so a credential whose
 * rules hide fields may not read a scripted one (Elasticsearch's field-level security runs such
 * scripts over the filtered source; the gateway, in front of any engine, refuses them instead).
 * And the `alias` fields, with the field each stands for: an alias of a hidden field is hidden.
 *
 * Read from the engine's mappings, and kept per expression until a mapping may have changed: a
 * stale answer here lets a script read hidden fields, so an answer is kept only when it cannot
 * change but by an event the bus carries to every node —
 * - the expression names concrete indices only (no pattern, alias, data stream or missing name:
 *   an index created or an alias moved would change what it covers);
 * - no mapping of them adds runtime fields by itself (`dynamic: runtime`, a dynamic template
 *   mapping to `runtime`): a document write would;
 * - and it is dropped on any mapping change (an index created, a mapping put) or index event
 *   (deleted, closed) from any node, on a reconnection of the bus, and not used while the bus is
 *   not connected (an announcement may have been lost).
 * Without a bus nothing is kept. Requests of one expression in flight together share one read.
 */
export class ScriptedFields {
  private readonly inFlight = new Map<string, Promise<Reading>>();
  private readonly kept = entryBoundedCache<string, DerivedFields>(10_000);
  /** Bumped by every invalidation: a read that started before one is not kept. */
  private generation = 0;
  private reconnects: number | undefined;
  private readonly feeds: Subscription[] = [];

  constructor(private readonly backend: Backend, private readonly bus?: ChangeBus) {
    if (!bus) return;
    this.reconnects = bus.reconnects;
    this.feeds.push(bus.mappingChanges().subscribe(() => this.forget()), bus.indexChanges().subscribe(() => this.forget()));
  }

  async of(indices: readonly string[]): Promise<DerivedFields> {
    if (!indices.length) return NO_DERIVED_FIELDS;
    const expression = indices.join(',');
    if (this.trusted()) {
      const kept = this.kept.get(expression);
      if (kept) return kept;
    }
    let found = this.inFlight.get(expression);
    if (!found) {
      const generation = this.generation;
      found = this.read(expression, indices).finally(() => this.inFlight.delete(expression));
      this.inFlight.set(expression, found);
      void found.then(({ fields, keep }) => {
        if (keep && generation === this.generation && this.trusted()) this.kept.set(expression, fields);
      }, () => undefined);
    }
    return (await found).fields;
  }

  /** Stops following the bus. */
  close(): void {
    for (const feed of this.feeds) feed.unsubscribe();
    this.forget();
  }

  /** Whether what is kept can be used: the bus is connected and has not reconnected since it was kept. */
  private trusted(): boolean {
    if (!this.bus || !this.bus.connection().connected) return false;
    if (this.bus.reconnects !== this.reconnects) {
      this.reconnects = this.bus.reconnects;
      this.forget();
    }
    return true;
  }

  private forget(): void {
    this.generation++;
    this.kept.clear();
  }

  private async read(expression: string, indices: readonly string[]): Promise<Reading> {
    const res = await callJson<Json>(this.backend, 'GET', `/${encodeURIComponent(expression).replace(/%2C/gi, ',').replace(/%2A/gi, '*')}/_mapping`, undefined,
      'ignore_unavailable=true&allow_no_indices=true');
    const fields = { scripted: new Set<string>(), aliases: new Map<string, string>() };
    if (res.status !== 200 || !isObject(res.body)) return { fields, keep: false };
    let keep = this.bus !== undefined && sameNames(Object.keys(res.body), indices);
    for (const entry of Object.values(res.body)) {
      if (!isObject(entry) || !isObject(entry.mappings)) continue;
      collect(entry.mappings, '', fields);
      if (keep && addsRuntimeFields(entry.mappings)) keep = false;
    }
    return { fields, keep };
  }
}

/** The answer's indices are exactly the names asked for: each a concrete index, none missing, no pattern or alias. */
function sameNames(answered: readonly string[], asked: readonly string[]): boolean {
  const names = new Set(asked);
  return answered.length === names.size && answered.every((name) => names.has(name));
}

/** A mapping that maps new fields as runtime fields by itself, when documents bring them. */
function addsRuntimeFields(mapping: Json): boolean {
  if (mapping.dynamic === 'runtime') return true;
  if (Array.isArray(mapping.dynamic_templates)) {
    for (const named of mapping.dynamic_templates) {
      if (!isObject(named)) return true;
      for (const template of Object.values(named)) if (!isObject(template) || template.runtime !== undefined) return true;
    }
  }
  for (const member of ['properties', 'fields'] as const) {
    const fields = mapping[member];
    if (!isObject(fields)) continue;
    for (const sub of Object.values(fields)) if (isObject(sub) && addsRuntimeFields(sub)) return true;
  }
  return false;
}

function collect(mapping: Json, prefix: string, found: { scripted: Set<string>; aliases: Map<string, string> }): void {
  const at = (name: string) => (prefix ? `${prefix}.${name}` : name);
  if (isObject(mapping.runtime)) for (const name of Object.keys(mapping.runtime)) found.scripted.add(at(name));
  for (const member of ['properties', 'fields'] as const) {
    const fields = mapping[member];
    if (!isObject(fields)) continue;
    for (const [name, sub] of Object.entries(fields)) {
      if (!isObject(sub)) continue;
      if (sub.script !== undefined) found.scripted.add(at(name));
      // an alias's path is the full path of the field it stands for
      if (sub.type === 'alias') found.aliases.set(at(name), typeof sub.path === 'string' ? sub.path : '');
      collect(sub, at(name), found);
    }
  }
}
