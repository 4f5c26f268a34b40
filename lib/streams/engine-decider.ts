import type { DocumentChange } from '../changes/index.js';
import { callJson, type Backend } from '../engine/index.js';

interface Hits {
  hits?: { total?: number | { value: number }; hits?: Array<{ _seq_no?: number }> };
}

const total = (body: Hits | undefined) => {
  const t = body?.hits?.total;
  return typeof t === 'number' ? t : t?.value ?? 0;
};

export interface EngineWaitOptions {
  attempts?: number;
  waitMs?: number;
}

/**
 * Waits until the engine's searches reflect a change: Elasticsearch searches see a write after
 * its next refresh, so the change is visible once a search shows the document at (or after) the
 * change's `_seq_no` — or, for a delete, no longer shows it. False when the engine does not show
 * it after all attempts (or refuses the search).
 */
export async function engineReflects(backend: Backend, index: string, change: DocumentChange, options: EngineWaitOptions = {}): Promise<boolean> {
  const attempts = options.attempts ?? 8;
  const waitMs = options.waitMs ?? 200;
  const path = `/${encodeURIComponent(index)}/_search`;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const seen = await callJson<Hits>(backend, 'POST', path, { size: 1, _source: false, seq_no_primary_term: true, query: { ids: { values: [change.id] } } });
    if (seen.status !== 200) return false;
    const seqNo = seen.body?.hits?.hits?.[0]?._seq_no;
    if (change.op === 'delete' ? seqNo === undefined || seqNo > change.seqNo : seqNo !== undefined && seqNo >= change.seqNo) return true;
    await new Promise((r) => setTimeout(r, waitMs));
  }
  return false;
}

/**
 * Asks the engine whether a changed document matches a query: the query restricted to that id,
 * once the engine reflects the change (`engineReflects`); a document the engine no longer has
 * matches nothing.
 */
export function engineDecider(backend: Backend, index: string, query: unknown, options: EngineWaitOptions = {}) {
  const path = `/${encodeURIComponent(index)}/_search`;
  return async (change: DocumentChange): Promise<boolean> => {
    if (change.op === 'delete' || !(await engineReflects(backend, index, change, options))) return false;
    const res = await callJson<Hits>(backend, 'POST', path, {
      size: 0, track_total_hits: true, query: { bool: { filter: [{ ids: { values: [change.id] } }], must: [query ?? { match_all: {} }] } },
    });
    return res.status === 200 && total(res.body) > 0;
  };
}
