import type { SearchRequest } from '../search-request.js';

/** What a search's fetch phase does for each hit, as its profile names it. */
export interface FetchPlan {
  /** The fetch sub-phases that run, in Elasticsearch's order (StoredFieldsPhase last). */
  phases: string[];
  /** The stored fields each hit loads (`debug.stored_fields`). */
  storedFields: string[];
  /** Whether each hit loads its `_source`. */
  loadsSource: boolean;
}

type FetchRequest = Pick<SearchRequest,
  'storedFields' | 'source' | 'sourceRequested' | 'scriptFields' | 'docvalueFields' | 'fields' | 'explain' | 'version' | 'seqNoPrimaryTerm' | 'namedQueries' | 'highlight'>;

/**
 * The fetch sub-phases Elasticsearch 8 runs for a request: each registered phase that has work for
 * it (SearchModule's order: explain, doc values, script fields, source, fields, version, sequence
 * numbers, matched queries, highlight; then inner hits and, unless `stored_fields` is `_none_`, the
 * stored fields). `_source` is loaded when it is shown or `fields` or `highlight` read it.
 */
export function fetchPlanOf(req: FetchRequest, innerHits: boolean): FetchPlan {
  const none = req.storedFields === '_none_';
  const source = !none && req.source.fetch && (req.sourceRequested || (req.storedFields === undefined && req.scriptFields.length === 0));
  const phases = [
    req.explain && 'ExplainPhase',
    req.docvalueFields.length > 0 && 'FetchDocValuesPhase',
    req.scriptFields.length > 0 && 'ScriptFieldsPhase',
    source && 'FetchSourcePhase',
    req.fields.length > 0 && 'FetchFieldsPhase',
    req.version && 'FetchVersionPhase',
    req.seqNoPrimaryTerm && 'SeqNoPrimaryTermPhase',
    (req.namedQueries?.length ?? 0) > 0 && 'MatchedQueriesPhase',
    req.highlight !== undefined && 'HighlightPhase',
    innerHits && 'InnerHitsPhase',
    !none && 'StoredFieldsPhase',
  ].filter((p): p is string => typeof p === 'string');
  const loadsSource = !none && (source || req.fields.length > 0 || req.highlight !== undefined);
  const named = Array.isArray(req.storedFields) ? req.storedFields.filter((f) => f !== '_source' && f !== '_id' && f !== '_routing') : [];
  return { phases, storedFields: none ? [] : ['_id', '_routing', ...(loadsSource ? ['_source'] : []), ...named], loadsSource };
}
