import type { DocumentChange } from '../changes/index.js';
import { callJson, type Backend } from '../engine/index.js';

interface Hits {
  hits?: { total?: number | { value: number }; hits?: Array<{ _seq_no?: number }> };
}

const total = (body: Hits | undefined) => {
  const t = body?.hits?.total;
  return typeof t === 'number' ? t : t?.value ?? 0;
};

/**
 * Asks the engine whether a changed document matches a query: the query restricted to that id.
 * Elasticsearch searches see a write after its next refresh, so the engine is asked only once it
 * shows the document at (or after) the change's `_seq_no`; a document the engine no longer has
 * matches nothing.
 */
export function engineDecider(backend: Backend, index: string, query: unknown, options: { attempts?: number; waitMs?: number } = {}) {
  const attempts = options.attempts ?? 8;
  const waitMs = options.waitMs ?? 200;
  const path = `/${encodeURIComponent(index)}/_search`;
  return async (change: DocumentChange): Promise<boolean> => {
    const byId = { ids: { values: [change.id] } };
    for (let attempt = 0; attempt < attempts; attempt++) {
      const seen = await callJson<Hits>(backend, 'POST', path, { size: 1, _source: false, seq_no_primary_term: true, query: byId });
      const seqNo = seen.body?.hits?.hits?.[0]?._seq_no;
      if (seen.status !== 200) return false;
      if (seqNo === undefined && attempt > 0 && change.op === 'delete') return false;
      if (seqNo !== undefined && seqNo >= change.seqNo) {
        const res = await callJson<Hits>(backend, 'POST', path, {
          size: 0, track_total_hits: true, query: { bool: { filter: [byId], must: [query ?? { match_all: {} }] } },
        });
        return res.status === 200 && total(res.body) > 0;
      }
      await new Promise((r) => setTimeout(r, waitMs));
    }
    return false;
  };
}
