import { hasUnpairedSurrogate } from '../indices/index-name.js';
import { EsError } from '../../../errors/index.js';
import { queryString } from '../../../request/index.js';
import type { VersionType, WriteParams } from '../indices/index.js';

/**
 * URL parameters as the engine reads them: `get` and `has` as on the WHATWG URL's search parameters (a
 * missing one is null), and its `[name, value]` pairs. A request's parameters (UrlParams) or a caller's own.
 */
export interface ParamReader extends Iterable<[string, string]> {
  get(name: string): string | null;
  has(name: string): boolean;
}

/**
 * A request's URL parameters, decoded once at the edge (RequestTarget.params): each name once,
 * with its last value, as Elasticsearch reads them. Immutable: `with`/`without` make a changed
 * copy (a multi search header's options over the URL's, say).
 */
export class UrlParams implements ParamReader {
  static readonly NONE = new UrlParams(new Map());

  private constructor(private readonly map: ReadonlyMap<string, string>) {}

  /** The parameters of a decoded target (taken as they are, not copied), or pairs (a later pair of a name wins). */
  static of(source: ReadonlyMap<string, string> | Iterable<readonly [string, string]> | Record<string, string>): UrlParams {
    if (source instanceof Map) return source.size ? new UrlParams(source) : UrlParams.NONE;
    const pairs = Symbol.iterator in source ? (source as Iterable<readonly [string, string]>) : Object.entries(source);
    return new UrlParams(new Map(pairs));
  }

  get size(): number {
    return this.map.size;
  }

  get(name: string): string | null {
    return this.map.get(name) ?? null;
  }

  has(name: string): boolean {
    return this.map.has(name);
  }

  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.map.entries();
  }

  /** A copy with these values set (each replacing the name's value). */
  with(values: Iterable<readonly [string, string]>): UrlParams {
    const map = new Map(this.map);
    for (const [k, v] of values) map.set(k, v);
    return new UrlParams(map);
  }

  /** A copy without these names. */
  without(...names: string[]): UrlParams {
    if (!names.some((n) => this.map.has(n))) return this;
    const map = new Map(this.map);
    for (const n of names) map.delete(n);
    return new UrlParams(map);
  }

  /** The query string that says the same (for a request handed on, or a URL in an answer). */
  toString(): string {
    return queryString(this.map);
  }
}

export function booleanParam(params: ParamReader, name: string, fallback: boolean): boolean {
  const v = params.get(name);
  if (v === null) return fallback;
  if (v === '' || v === 'true') return true;
  if (v === 'false') return false;
  throw new EsError(400, 'illegal_argument_exception', `Failed to parse value [${v}] as only [true] or [false] are allowed.`);
}

export function integerParam(params: ParamReader, name: string): number | undefined {
  const v = params.get(name);
  if (v === null) return undefined;
  if (!/^-?\d+$/.test(v)) throw new EsError(400, 'illegal_argument_exception', `Failed to parse long parameter [${name}] with value [${v}]`);
  return Number(v);
}

/** An int parameter as Elasticsearch's RestRequest.paramAsInt reads it: past ±2^31 - 1, or not a number, it is refused. */
export function intParam(params: ParamReader, name: string): number | undefined {
  const v = params.get(name);
  if (v === null) return undefined;
  const n = /^[-+]?\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n > 2147483647 || n < -2147483648) {
    throw new EsError(400, 'illegal_argument_exception', `Failed to parse int parameter [${name}] with value [${v}]`);
  }
  return n;
}

/** `refresh=true` (or empty): ES refreshes at once and says so with `forced_refresh: true`. */
export function forcedRefresh(params: ParamReader): boolean {
  const v = params.get('refresh');
  return v === '' || v === 'true';
}

export function checkRefresh(params: ParamReader): void {
  const v = params.get('refresh');
  if (v === null || v === '' || v === 'true' || v === 'false' || v === 'wait_for') return;
  throw new EsError(400, 'illegal_argument_exception', `Unknown value for refresh: [${v}].`);
}

const VERSION_TYPES = new Set(['internal', 'external', 'external_gt', 'external_gte']);

export function versionType(v: unknown): VersionType | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !VERSION_TYPES.has(v)) {
    throw new EsError(400, 'illegal_argument_exception', `No version type match [${String(v)}]`);
  }
  return v as VersionType;
}

/** Concurrency and routing parameters of a single-document write, from the URL. */
export function writeParams(params: ParamReader): WriteParams {
  checkRefresh(params);
  return {
    ifSeqNo: integerParam(params, 'if_seq_no'),
    ifPrimaryTerm: integerParam(params, 'if_primary_term'),
    version: integerParam(params, 'version'),
    versionType: versionType(params.get('version_type') ?? undefined),
    routing: params.get('routing') ?? undefined,
  };
}

const MAX_ID_BYTES = 512;

export function validateId(id: string): void {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: only a long id needs its bytes counted.
  const bytes = id.length * 3 <= MAX_ID_BYTES ? 0 : Buffer.byteLength(id, 'utf8');
  if (bytes > MAX_ID_BYTES) {
    throw new EsError(400, 'illegal_argument_exception', `id [${id}] is too long, must be no longer than 512 bytes but was: ${bytes}`);
  }
  if (id.length === 0) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: if _id is specified it must not be empty;');
  // stored as UTF-8: an id with an unpaired surrogate would be read back as another id (U+FFFD),
  // and two such ids as one — refused rather than acknowledged and lost
  if (hasUnpairedSurrogate(id)) throw new EsError(400, 'illegal_argument_exception', 'id must be well-formed UTF-8: it contains an unpaired surrogate');
  if (id.includes('\u0000')) throw new EsError(400, 'illegal_argument_exception', 'id must not contain a NUL character');
}

let lastMillis = 0;
let sequence = Math.floor(Math.random() * 0xffffff);

/** A 20-character id, time-based like ES's auto-generated ids (base64url of 15 bytes). */
export function generateId(): string {
  const now = Math.max(Date.now(), lastMillis);
  lastMillis = now;
  sequence = (sequence + 1) & 0xffffff;
  const buf = Buffer.alloc(15);
  buf.writeUIntBE(now, 0, 6);
  buf.writeUIntBE(sequence, 6, 3);
  for (let i = 9; i < 15; i++) buf[i] = Math.floor(Math.random() * 256);
  return buf.toString('base64url');
}
