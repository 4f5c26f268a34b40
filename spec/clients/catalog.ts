import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from '../support/servers.js';

const require = createRequire(import.meta.url);

/** One API of a client: its canonical (REST spec) name, and how to call it on that client. */
export interface ClientApi {
  /** `indices.put_mapping`: the name of the REST API spec, whatever the client's own spelling. */
  name: string;
  call(params: Record<string, unknown>): Promise<unknown>;
}

/** Members of a client that are not APIs of the server: the client's own machinery. */
const NOT_APIS = new Set([
  'constructor', 'child', 'close', 'extend', 'emit', 'on', 'once', 'off', 'helpers', 'transport', 'serializer', 'connectionPool',
  'diagnostic', 'name', 'extensions', 'Serializer', 'Transport', 'ConnectionPool', 'Connection', 'Helpers', 'events', 'options',
  'addListener', 'removeListener', 'removeAllListeners', 'listeners', 'rawListeners', 'listenerCount', 'prependListener',
  'prependOnceListener', 'eventNames', 'setMaxListeners', 'getMaxListeners',
]);

export const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

function methodsOf(obj: object): Map<string, (p: unknown) => Promise<unknown>> {
  const found = new Map<string, (p: unknown) => Promise<unknown>>();
  for (let proto = Object.getPrototypeOf(obj); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || key.startsWith('_') || found.has(key)) continue;
      const d = Object.getOwnPropertyDescriptor(proto, key)!;
      if (typeof d.value === 'function') found.set(key, d.value as (p: unknown) => Promise<unknown>);
    }
  }
  for (const key of Object.keys(obj)) {
    const v = (obj as Record<string, unknown>)[key];
    if (typeof v === 'function' && !key.startsWith('_') && !found.has(key)) found.set(key, v as (p: unknown) => Promise<unknown>);
  }
  return found;
}

/**
 * Every API a client instance offers, read from the instance itself (its methods, and its
 * namespaces' methods), named as the REST API spec names them. A client that spells an API twice
 * (the 7.x client's `putMapping` and `put_mapping`) lists it once.
 */
export function clientApis(client: object): ClientApi[] {
  const apis = new Map<string, ClientApi>();
  const add = (name: string, target: object, fn: (p: unknown) => Promise<unknown>) => {
    if (!apis.has(name)) apis.set(name, { name, call: (params) => fn.call(target, params) });
  };
  const seen = new Set<string>();
  // the instance first (OpenSearch 3 defines its namespaces there), then its classes
  for (let proto: object | null = client; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (NOT_APIS.has(key) || key.startsWith('_') || seen.has(key)) continue;
      seen.add(key);
      const d = Object.getOwnPropertyDescriptor(proto, key)!;
      if (typeof d.value === 'function') {
        add(snake(key), client, d.value as (p: unknown) => Promise<unknown>);
      } else if (d.get) {
        const ns = (client as Record<string, unknown>)[key];
        if (ns && typeof ns === 'object') for (const [m, fn] of methodsOf(ns)) add(`${snake(key)}.${snake(m)}`, ns, fn);
      }
    }
  }
  // a client that sets its APIs on the instance (OpenSearch 3)
  for (const key of Object.keys(client)) {
    if (NOT_APIS.has(key) || key.startsWith('_')) continue;
    const v = (client as Record<string, unknown>)[key];
    if (typeof v === 'function') add(snake(key), client, v as (p: unknown) => Promise<unknown>);
  }
  return [...apis.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export interface RestSpec {
  /** Path parts over the API's (non-deprecated) paths. */
  parts: string[];
  bodyRequired: boolean;
}

/** The REST API spec (shared/conformance/api): each API's path parts, and whether it needs a body. */
export function restSpecs(): Map<string, RestSpec> {
  const dir = path.resolve(REPO_ROOT, '../shared/conformance/api');
  const specs = new Map<string, RestSpec>();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.json') || file.startsWith('_')) continue;
    const doc = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, {
      url: { paths: Array<{ parts?: Record<string, { deprecated?: boolean }>; deprecated?: unknown }> };
      body?: { required?: boolean };
    }>;
    for (const [name, api] of Object.entries(doc)) {
      const parts = new Set<string>();
      for (const p of api.url.paths) {
        if (p.deprecated) continue;
        for (const [part, def] of Object.entries(p.parts ?? {})) if (!def.deprecated) parts.add(part);
      }
      specs.set(name, { parts: [...parts], bodyRequired: api.body?.required === true });
    }
  }
  return specs;
}

/**
 * The path parts of the APIs the Elasticsearch 8 and 9 clients know, from their own sources (their
 * `acceptedPath` / `acceptedParams` tables), for the APIs the REST spec files do not cover.
 */
export function clientPathParts(): Map<string, string[]> {
  const parts = new Map<string, Set<string>>();
  const add = (name: string, list: string) => {
    const set = parts.get(name) ?? new Set<string>();
    for (const m of list.matchAll(/'([^']+)'/g)) set.add(m[1]);
    parts.set(name, set);
  };
  // the package's main is index.js, beside lib/api/api
  const apiDir = (pkg: string) => path.join(path.dirname(require.resolve(pkg, { paths: [REPO_ROOT] })), 'lib/api/api');
  for (const file of readdirSync(apiDir('@elastic/elasticsearch9'))) {
    if (!file.endsWith('.js')) continue;
    const text = readFileSync(path.join(apiDir('@elastic/elasticsearch9'), file), 'utf8');
    for (const m of text.matchAll(/['"]?([\w.]+)['"]?: \{\s*path: \[([^\]]*)\]/g)) add(m[1], m[2]);
  }
  for (const file of readdirSync(apiDir('@elastic/elasticsearch'))) {
    if (!file.endsWith('.js')) continue;
    const text = readFileSync(path.join(apiDir('@elastic/elasticsearch'), file), 'utf8');
    const ns = file.replace(/\.js$/, '');
    for (const m of text.matchAll(/async (\w+)\(params, options\) \{\s*const acceptedPath = \[([^\]]*)\]/g)) add(`${ns}.${snake(m[1])}`, m[2]);
    for (const m of text.matchAll(/async function \w+Api\(params, options\) \{\s*const acceptedPath = \[([^\]]*)\]/g)) add(ns, m[1]);
  }
  return new Map([...parts].map(([k, v]) => [k, [...v]]));
}
