import { LRUCache } from 'lru-cache';
import type { GatewayRequest } from '../../request/index.js';
import { readRequest, type RequestInput } from './read-request.js';

/** Bodies up to this many characters are remembered with their reading (a search box's, a dashboard's). */
const REMEMBERED_BODY_CHARS = 4 * 1024;
/** What the remembered readings may hold at most (keys and values, counted as twice the key's characters). */
const REMEMBERED_BYTES = 8 * 1024 * 1024;

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
  private readonly known = new LRUCache<string, GatewayRequest>({ maxSize: REMEMBERED_BYTES, sizeCalculation: (_, key) => 2 * key.length + 512 });

  read(input: RequestInput): GatewayRequest {
    const { method, target, body } = input;
    const remembered = (method === 'GET' || method === 'POST') && !input.prepared
      && (body === undefined || (typeof body === 'string' && body.length > 0 && body.length <= REMEMBERED_BODY_CHARS));
    if (!remembered) return readRequest(input);
    // everything readRequest reads of its input, unambiguously
    const key = JSON.stringify([method, target.path, target.segments, target.querystring, [...target.params], body ?? null, input.sentBody === true]);
    const seen = this.known.get(key);
    if (seen) return seen;
    const read = readRequest(input);
    if (read.info.operation === 'read') this.known.set(key, frozenThrough(read));
    return read;
  }
}

/** The value with every object and array in it frozen (maps and byte arrays left as they are: read-only by type). */
function frozenThrough<T>(value: T): T {
  if (value === null || typeof value !== 'object' || value instanceof Map || ArrayBuffer.isView(value)) return value;
  for (const member of Object.values(value as object)) frozenThrough(member);
  return Object.freeze(value);
}
