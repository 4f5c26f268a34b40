import { LRUCache } from 'lru-cache';
import type { GatewayRequest } from '../../request/index.js';
import { readRequest, type RequestInput } from './read-request.js';

/** Bodies up to this many characters are remembered with their reading (a search box's, a dashboard's). */
const REMEMBERED_BODY_CHARS = 4 * 1024;
/** What the remembered readings may hold at most (keys and values, counted as twice the key's characters and READING_BYTES). */
const REMEMBERED_BYTES = 8 * 1024 * 1024;
/**
 * What a reading holds besides its key, at most as measured: ~1.6 KB an entry for small bodies
 * (14,074 entries held 23 MB when this was counted as 512, rev12), so 8 MB is 8 MB.
 */
const READING_BYTES = 2048;

/**
 * `readRequest` for the reads sent again and again (a search's repeats, which the search cache
 * answers): its value is a pure function of the method, the target and the body, whoever sends
 * them and whenever — the route table is fixed, wildcards, aliases and date math (`<logs-{now/d}>`)
 * are kept as written, and nothing of the principal, the indices, the stores or the clock is read.
 * What reads those (authentication, authorization, template rendering, resolution) runs on every
 * request all the same. So a remembered reading needs no invalidation.
 *
 * Remembered: a GET or POST, without its body (the edge's first reading, which says whether the
 * body is needed) or with a body of at most REMEMBERED_BODY_CHARS, whose reading is a read
 * (`operation: 'read'`); a request the reading refuses is refused again each time. The value is
 * frozen through (its classification's lists and records too): one request's later steps cannot
 * change what another reads — the value is immutable by contract, and this makes it so.
 */
export class ClassifiedRequests {
  private readonly known = new LRUCache<string, Reading>({ maxSize: REMEMBERED_BYTES, sizeCalculation: (_, key) => 2 * key.length + READING_BYTES });

  read(input: RequestInput): GatewayRequest {
    const { method, target, body } = input;
    const remembered = (method === 'GET' || method === 'POST') && !input.prepared
      && (body === undefined || (typeof body === 'string' && body.length > 0 && body.length <= REMEMBERED_BODY_CHARS));
    if (!remembered) return readRequest(input);
    // the method (one of two), the path and query string (each after its length), what is known of the body, the body
    const key = `${method} ${target.path.length}:${target.path}${target.querystring.length}:${target.querystring}${body === undefined ? (input.sentBody ? 'S' : 'N') : 'B' + body}`;
    const seen = this.known.get(key);
    // the rest of what readRequest reads of the target, compared rather than keyed (the edge's are made of the path and query string)
    if (seen && sameList(seen.segments, target.segments) && sameMap(seen.params, target.params)) return seen.value;
    const read = readRequest(input);
    if (read.info.operation === 'read') this.known.set(key, { segments: target.segments, params: target.params, value: frozenThrough(read) });
    return read;
  }
}

/** A remembered reading, with the parts of its target that its key does not spell. */
interface Reading {
  segments: readonly string[];
  params: ReadonlyMap<string, string>;
  value: GatewayRequest;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameMap(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [name, value] of a) if (b.get(name) !== value || !b.has(name)) return false;
  return true;
}

/** The value with every object and array in it frozen (maps and byte arrays left as they are: read-only by type). */
function frozenThrough<T>(value: T): T {
  if (value === null || typeof value !== 'object' || value instanceof Map || ArrayBuffer.isView(value)) return value;
  for (const member of Object.values(value as object)) frozenThrough(member);
  return Object.freeze(value);
}
