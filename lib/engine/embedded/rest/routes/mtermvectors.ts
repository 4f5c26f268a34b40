import { TimeSlice } from '../../../../cooperative/index.js';
import { EsError, errorBody, toEsError } from '../../../../errors/index.js';
import { isPlainObject, type JsonObject } from '../../indices/index.js';
import { requestBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { termVectorsOf } from './termvectors.js';
import type { UrlParams } from '../params.js';

/** Options an item may set for itself; the URL's give every item its defaults. */
const ITEM_OPTIONS: Record<string, string> = {
  fields: 'fields', positions: 'positions', offsets: 'offsets', payloads: 'payloads', field_statistics: 'field_statistics',
  term_statistics: 'term_statistics', routing: 'routing', version: 'version', version_type: 'version_type', realtime: 'realtime',
};

interface Item {
  index: string | undefined;
  id: string | undefined;
  params: UrlParams;
  body: JsonObject;
}

/**
 * What a document of `docs` may hold (TermVectorsRequest.parseRequest): its target, its options
 * (`termStatistics`, `fieldStatistics` and `perFieldAnalyzer` also camel-cased), an artificial
 * `doc`, a `filter`; `realtime`, as the URL's; a 7.x client's `_type`. Another field fails the whole
 * request to parse.
 */
const ITEM_FIELDS = new Set([
  ...Object.keys(ITEM_OPTIONS), '_index', '_id', '_type', 'doc', 'filter', 'per_field_analyzer', 'perFieldAnalyzer', 'termStatistics', 'fieldStatistics', 'dfs',
]);

function checkItemFields(d: JsonObject): void {
  for (const k of Object.keys(d)) {
    if (!ITEM_FIELDS.has(k)) throw new EsError(400, 'parse_exception', `failed to parse term vectors request. unknown field [${k}]`);
  }
  if (d.dfs !== undefined) throw new EsError(400, 'illegal_argument_exception', 'distributed frequencies is not supported anymore for term vectors');
}

function validation(reason: string): EsError {
  return new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: ${reason};`);
}

/**
 * The documents asked for: `docs` (each with its `_index`, `_id` and options), or `ids` with the
 * path's index — in the body, or as the `ids` URL parameter (a comma list), which GET clients use.
 */
function itemsOf(req: RestRequest): Item[] {
  const body = requestBody(req) ?? {};
  for (const k of Object.keys(body)) {
    if (k !== 'docs' && k !== 'ids' && k !== 'parameters') throw new EsError(400, 'illegal_argument_exception', `unknown parameter [${k}] in request body or parameter is of the wrong type[${typeof body[k] === 'object' ? 'START_OBJECT' : 'VALUE_STRING'}] `);
  }
  let defaults = req.params.without('ids');
  if (isPlainObject(body.parameters)) {
    const given = Object.entries(body.parameters).filter(([k]) => k in ITEM_OPTIONS && !defaults.has(k));
    defaults = defaults.with(given.map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]));
  }
  const items: Item[] = [];
  const pathIndex = req.pathParams.index;
  if (Array.isArray(body.docs)) {
    for (const d of body.docs) {
      if (!isPlainObject(d)) throw new EsError(400, 'illegal_argument_exception', 'docs array element should include an object');
      checkItemFields(d);
      const options = Object.entries(d).filter(([k]) => k in ITEM_OPTIONS);
      const params = defaults.with(options.map(([k, v]) => [ITEM_OPTIONS[k], Array.isArray(v) ? v.join(',') : String(v)]));
      const { _index, _id, doc, ...rest } = d;
      void rest;
      if (doc !== undefined) throw new EsError(400, 'illegal_argument_exception', '[doc] (artificial documents) is not supported by the embedded engine');
      items.push({ index: typeof _index === 'string' ? _index : pathIndex, id: _id === undefined ? undefined : String(_id), params, body: {} });
    }
  }
  const ids = Array.isArray(body.ids) ? body.ids.map(String) : (req.params.get('ids')?.split(',').map((s) => s.trim()).filter(Boolean) ?? []);
  for (const id of ids) items.push({ index: pathIndex, id, params: defaults, body: {} });
  if (!items.length) throw validation('multi term vectors: no documents requested');
  items.forEach((item, i) => {
    if (item.index === undefined) throw validation(`index is missing for doc ${i}`);
  });
  return items;
}

/**
 * `_mtermvectors` (GET or POST): each document's term vectors, or its own error, in request order;
 * the items a time slice at a time (a request may name thousands, each read and analyzed again).
 */
async function mtermvectors(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const docs: unknown[] = [];
  const slice = new TimeSlice();
  for (const item of itemsOf(req)) {
    await slice.pause();
    try {
      docs.push(termVectorsOf(ctx, item.index!, item.id, item.params, item.body));
    } catch (err) {
      const e = toEsError(err);
      if (e.status >= 500) throw err;
      docs.push({ _index: item.index, _id: item.id, error: errorBody(e).error });
    }
  }
  return { status: 200, body: { docs } };
}

export const mtermvectorsRoutes: Route[] = [
  { id: 'mtermvectors', handler: mtermvectors },
];
