import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** One URL template of an API, as listed in `api/<name>.json`. */
export interface ApiPath {
  path: string;
  methods: string[];
  parts: string[];
}

/** The REST API spec of one API (`index`, `indices.create`, …). */
export interface ApiSpec {
  name: string;
  paths: ApiPath[];
  params: ReadonlySet<string>;
  /** `bulk` when the body is newline-delimited JSON. */
  bodySerialize?: string;
}

export type ApiSpecs = ReadonlyMap<string, ApiSpec>;

/** A request as the runner will send it. */
export interface HttpCall {
  method: string;
  /** Path and query string, already encoded. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A `do` argument the API spec does not know: what `catch: param` expects. */
export class ParamError extends Error {}

/** Args of a `do` that are never sent: they steer the runner. */
const RUNNER_ARGS = new Set(['body', 'ignore']);

interface RawPath {
  path: string;
  methods?: string[];
  parts?: Record<string, unknown>;
}

interface RawApi {
  url?: { paths?: RawPath[] };
  params?: Record<string, unknown>;
  body?: { serialize?: string } | null;
}

/** Reads every `api/*.json` of a suite directory; `_common.json` params apply to all APIs. */
export async function loadApiSpecs(apiDir: string): Promise<ApiSpecs> {
  const files = (await readdir(apiDir)).filter((file) => file.endsWith('.json'));
  const raw = await Promise.all(
    files.map(async (file) => ({
      file,
      json: JSON.parse(await readFile(path.join(apiDir, file), 'utf8')) as Record<string, unknown>,
    })),
  );
  const common = raw.find((entry) => entry.file === '_common.json');
  const commonParams = Object.keys((common?.json.params as Record<string, unknown> | undefined) ?? {});
  const specs = new Map<string, ApiSpec>();
  for (const { file, json } of raw) {
    if (file === '_common.json') continue;
    for (const [name, value] of Object.entries(json)) {
      specs.set(name, toApiSpec(name, value as RawApi, commonParams));
    }
  }
  return specs;
}

export function toApiSpec(name: string, raw: RawApi, commonParams: readonly string[] = []): ApiSpec {
  const paths = (raw.url?.paths ?? []).map((entry) => ({
    path: entry.path,
    methods: entry.methods ?? ['GET'],
    parts: Object.keys(entry.parts ?? {}),
  }));
  return {
    name,
    paths,
    params: new Set([...Object.keys(raw.params ?? {}), ...commonParams]),
    bodySerialize: raw.body?.serialize,
  };
}

/**
 * Builds the HTTP call for `do: { <api>: args }`: the most specific path whose parts are all
 * given, the remaining args as query string, the body serialised as the clients do.
 * Throws ParamError for an arg that is neither a path part nor a known param.
 */
export function buildCall(spec: ApiSpec, args: Record<string, unknown>, extraHeaders: Record<string, string> = {}): HttpCall {
  const given = new Set(Object.keys(args).filter((key) => args[key] !== undefined && args[key] !== null));
  const chosen = choosePath(spec, given);
  if (!chosen) throw new ParamError(`no path of [${spec.name}] can be built from [${[...given].join(', ')}]`);

  const query: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (RUNNER_ARGS.has(key) || chosen.parts.includes(key) || value === undefined || value === null) continue;
    if (!spec.params.has(key) && !isPathPartOfAnyPath(spec, key)) {
      throw new ParamError(`request [${spec.name}] does not support parameter [${key}]`);
    }
    if (isPathPartOfAnyPath(spec, key) && !spec.params.has(key)) continue;
    query.push(`${encodeURIComponent(key)}=${encodeURIComponent(paramText(value))}`);
  }

  const filledPath = chosen.path.replace(/\{([^}]+)\}/g, (_m, part: string) => encodePart(args[part]));
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (args.body !== undefined && args.body !== null) {
    const ndjson = spec.bodySerialize === 'bulk' || Array.isArray(args.body);
    body = serialiseBody(args.body, ndjson);
    headers['content-type'] = ndjson ? 'application/x-ndjson' : 'application/json';
  }
  for (const [name, value] of Object.entries(extraHeaders)) headers[name.toLowerCase()] = value;

  return {
    method: chooseMethod(chosen.methods, body !== undefined),
    url: query.length > 0 ? `${filledPath}?${query.join('&')}` : filledPath,
    headers,
    body,
  };
}

/** The path with the most parts among those whose parts are all given. */
export function choosePath(spec: ApiSpec, given: ReadonlySet<string>): ApiPath | undefined {
  let best: ApiPath | undefined;
  for (const candidate of spec.paths) {
    if (!candidate.parts.every((part) => given.has(part))) continue;
    if (!best || candidate.parts.length > best.parts.length) best = candidate;
  }
  return best;
}

/** With a body, POST where GET and POST are both allowed; otherwise the spec's first. */
export function chooseMethod(methods: readonly string[], hasBody: boolean): string {
  if (hasBody && methods.includes('GET') && methods.includes('POST')) return 'POST';
  return methods[0] ?? 'GET';
}

function isPathPartOfAnyPath(spec: ApiSpec, key: string): boolean {
  return spec.paths.some((candidate) => candidate.parts.includes(key));
}

function encodePart(value: unknown): string {
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => encodeURIComponent(paramText(item))).join(',');
}

function paramText(value: unknown): string {
  if (Array.isArray(value)) return value.map(paramText).join(',');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** NDJSON bodies are one line per item (strings as written) and end with a newline. */
export function serialiseBody(body: unknown, ndjson: boolean): string {
  if (typeof body === 'string') return body;
  if (!ndjson) return JSON.stringify(body);
  const items = Array.isArray(body) ? body : [body];
  return items.map((item) => (typeof item === 'string' ? item.replace(/\n$/, '') : JSON.stringify(item))).join('\n') + '\n';
}
