import { entryBoundedCache } from '../breakers/index.js';
import type { GatewayRequest } from '../request/index.js';
import { EsError } from '../errors/index.js';

/**
 * Who opened each scroll. A scroll id names no index, so continuing or clearing a scroll is
 * allowed only to the credential that opened it (the admin excepted). Kept per node: a scroll is
 * continued on the node that opened it (documented limit).
 */
export class ScrollOwners {
  private readonly owners = entryBoundedCache<string, string>(100_000, { ttl: 24 * 3600_000 });

  record(scrollId: string, username: string): void {
    this.owners.set(scrollId, username);
  }

  owns(scrollId: string, username: string): boolean {
    return this.owners.get(scrollId) === username;
  }

  forget(scrollId: string): void {
    this.owners.delete(scrollId);
  }
}

/** The scroll ids a continuation or clear request names (path, query string or body). */
export function scrollIdsOf(req: Pick<GatewayRequest, 'segments' | 'params'>, body: Buffer | undefined): string[] {
  const ids: string[] = [];
  const { segments } = req;
  if (segments.length === 3 && segments[0] === '_search' && segments[1] === 'scroll') ids.push(...segments[2].split(','));
  const q = req.params.get('scroll_id');
  if (q) ids.push(...q.split(','));
  if (body?.length) {
    const text = body.toString('utf8').trim();
    try {
      const parsed = JSON.parse(text) as { scroll_id?: unknown };
      const id = parsed?.scroll_id;
      if (typeof id === 'string') ids.push(...id.split(','));
      else if (Array.isArray(id) && id.every((x) => typeof x === 'string')) ids.push(...(id as string[]));
      // any other value names ids the owner check cannot read: refused, never let through unchecked
      else if (id !== undefined) throw new EsError(400, 'illegal_argument_exception', 'scroll_id must be a string or an array of strings');
    } catch (err) {
      if (err instanceof EsError) throw err;
      if (!text.startsWith('{')) ids.push(text); // a bare id as the body, as clients may send
    }
  }
  return ids;
}
