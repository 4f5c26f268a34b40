import { errors } from '../../../errors/index.js';
import type { IndexHandle } from '../indices/index.js';
import { executeQuery, type Query } from './query/index.js';
import type { SearchRequest } from './search-request.js';
import { filterSource } from './source-filter.js';

interface Hit {
  handle: IndexHandle;
  handleOrder: number;
  ord: number;
  score: number;
}

function shardsOf(handles: IndexHandle[]) {
  const total = handles.reduce((n, h) => n + Number(h.meta.settings['index.number_of_shards'] ?? '1'), 0);
  return { total, successful: total, skipped: 0, failed: 0 };
}

function ensureSearchable(handles: IndexHandle[]): void {
  for (const h of handles) if (!h.isOpen) throw errors.indexClosed(h.name, h.uuid);
}

/** Runs a search over resolved indices and builds ES's response body. */
export function runSearch(handles: IndexHandle[], req: SearchRequest, started: number): Record<string, unknown> {
  ensureSearchable(handles);
  const hits: Hit[] = [];
  handles.forEach((handle, handleOrder) => {
    const scored = executeQuery(req.query, { index: handle.inverted!, mappings: handle.mappings, registry: handle.registry });
    for (const [ord, score] of scored) {
      if (req.minScore !== undefined && score < req.minScore) continue;
      hits.push({ handle, handleOrder, ord, score });
    }
  });
  hits.sort((a, b) => b.score - a.score || a.handleOrder - b.handleOrder || a.ord - b.ord);
  const page = hits.slice(req.from, req.from + req.size);
  const out: Record<string, unknown>[] = [];
  for (const h of page) {
    const id = h.handle.inverted!.idOf(h.ord)!;
    const doc = h.handle.get(id);
    if (!doc) continue;
    const hit: Record<string, unknown> = { _index: h.handle.name, _type: '_doc', _id: id };
    if (req.version) hit._version = doc.version;
    if (req.seqNoPrimaryTerm) {
      hit._seq_no = doc.seqNo;
      hit._primary_term = doc.primaryTerm;
    }
    hit._score = h.score;
    if (doc.routing !== undefined) hit._routing = doc.routing;
    const source = filterSource(doc.source, req.source);
    if (source !== undefined) hit._source = source;
    out.push(hit);
  }
  const maxScore = hits.length ? hits.reduce((m, h) => Math.max(m, h.score), -Infinity) : null;
  const hitsBody: Record<string, unknown> = {};
  if (req.trackTotalHits !== false) {
    const limit = req.trackTotalHits === true ? Infinity : req.trackTotalHits;
    const total = hits.length > limit ? { value: limit, relation: 'gte' } : { value: hits.length, relation: 'eq' };
    hitsBody.total = req.totalAsInt ? hits.length : total;
  }
  hitsBody.max_score = maxScore;
  hitsBody.hits = out;
  return {
    took: Math.max(0, Math.round(performance.now() - started)),
    timed_out: false,
    _shards: shardsOf(handles),
    hits: hitsBody,
  };
}

export function runCount(handles: IndexHandle[], query: Query): Record<string, unknown> {
  ensureSearchable(handles);
  let count = 0;
  for (const h of handles) count += executeQuery(query, { index: h.inverted!, mappings: h.mappings, registry: h.registry }, false).size;
  return { count, _shards: shardsOf(handles) };
}
