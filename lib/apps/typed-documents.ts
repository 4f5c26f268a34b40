import { callJson, type InterceptedBackend } from '../engine/index.js';
import { EsError, errorBody, toEsError } from '../errors/index.js';
import { readBulk, type BulkEntry } from '../ndjson/index.js';
import { queryString, withParam } from '../request/index.js';
import { APP_MAPPINGS, relay } from './app-registry.js';
import { TYPE_FIELD } from './type-field.js';
import { withoutTypeField } from './type-field-hiding.js';

type Json = Record<string, unknown>;
export interface Reply {
  status: number;
  body: Json;
}

const enc = encodeURIComponent;

/** `_index, _type, …rest`: the type goes where Elasticsearch 7 put it. */
function withType(body: Json, type: string): Json {
  const { _index, _type: _engineType, ...rest } = body;
  return _index === undefined ? { _type: type, ...rest } : { _index, _type: type, ...rest };
}

function stripTypeField(source: unknown): unknown {
  if (source && typeof source === 'object' && TYPE_FIELD in source) {
    const { [TYPE_FIELD]: _hidden, ...rest } = source as Json;
    return rest;
  }
  return source;
}

function documentBody(body: unknown): Json {
  if (body === undefined) throw new EsError(400, 'parse_exception', 'request body is required');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new EsError(400, 'mapper_parsing_exception', 'failed to parse: the document must be a JSON object');
  }
  if (TYPE_FIELD in body) {
    throw new EsError(400, 'mapper_parsing_exception', `field [${TYPE_FIELD}] is reserved by the gateway`);
  }
  return body as Json;
}

/** Query parameters, decoded (the request value's `params`), as the typed calls take them. */
export type Params = ReadonlyMap<string, string>;

/**
 * Translates app-addressed calls (/{app}/{type}/…) into index-addressed engine calls. The type is
 * an ordinary keyword field; ids are unique per app, as in Elasticsearch 6+ (one type per index).
 * The calls go through the user-facing Backend, whose interceptors publish their changes (the type
 * travels in the source).
 */
export class TypedDocuments {
  /** Indices whose type field is known to be mapped as keyword (dropped when an index is deleted). */
  private readonly prepared = new Set<string>();

  constructor(private readonly backend: InterceptedBackend) {}

  forgetIndices(names?: string[]): void {
    if (!names) this.prepared.clear();
    else for (const n of names) this.prepared.delete(n);
  }

  /** The type field must be a keyword before the first typed write, or type filters would not be exact. */
  private async prepare(app: string): Promise<void> {
    if (this.prepared.has(app)) return;
    const mapped = await callJson<{ error?: { type: string; reason: string } }>(
      this.backend, 'PUT', `/${enc(app)}/_mapping`, APP_MAPPINGS,
    );
    if (mapped.status === 404) {
      const created = await callJson<{ error?: { type: string; reason: string } }>(
        this.backend, 'PUT', `/${enc(app)}`, { mappings: APP_MAPPINGS },
      );
      if (created.status >= 300 && created.body.error?.type !== 'resource_already_exists_exception') {
        throw relay(created.status, created.body);
      }
    } else if (mapped.status >= 300) {
      throw relay(mapped.status, mapped.body);
    }
    this.prepared.add(app);
  }

  async index(app: string, type: string, id: string | undefined, body: unknown, params: Params): Promise<Reply> {
    const doc = { ...documentBody(body), [TYPE_FIELD]: type };
    await this.prepare(app);
    const path = id === undefined ? `/${enc(app)}/_doc` : `/${enc(app)}/_doc/${enc(id)}`;
    const res = await callJson<Json>(this.backend, id === undefined ? 'POST' : 'PUT', path, doc, queryString(params));
    if (res.status >= 300) return { status: res.status, body: res.body };
    return { status: res.status, body: withType(res.body, type) };
  }

  /** The stored document's type and concurrency token, or undefined when it does not exist. */
  private async current(app: string, id: string): Promise<{ type?: string; seqNo: number; primaryTerm: number } | undefined> {
    const res = await callJson<Json & { found?: boolean; _source?: Json; _seq_no: number; _primary_term: number }>(
      this.backend, 'GET', `/${enc(app)}/_doc/${enc(id)}`, undefined, `_source_includes=${TYPE_FIELD}`,
    );
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw relay(res.status, res.body as { error?: { type: string; reason: string } });
    return { type: res.body._source?.[TYPE_FIELD] as string | undefined, seqNo: res.body._seq_no, primaryTerm: res.body._primary_term };
  }

  async get(app: string, type: string, id: string, asked: Params): Promise<Reply> {
    const params = new Map(asked);
    let dropSource = false;
    const source = params.get('_source');
    if (source === 'false') {
      params.delete('_source');
      params.set('_source_includes', TYPE_FIELD);
      dropSource = true;
    } else if (source !== undefined && source !== 'true') {
      params.set('_source', `${source},${TYPE_FIELD}`);
    }
    const includes = params.get('_source_includes');
    if (includes !== undefined && !dropSource) params.set('_source_includes', `${includes},${TYPE_FIELD}`);
    const res = await callJson<Json>(this.backend, 'GET', `/${enc(app)}/_doc/${enc(id)}`, undefined, queryString(params));
    if (res.status !== 200) return { status: res.status, body: res.body.found === false ? withType(res.body, type) : res.body };
    const stored = (res.body._source as Json | undefined)?.[TYPE_FIELD];
    if (stored !== type) return { status: 404, body: { _index: res.body._index, _type: type, _id: id, found: false } };
    const body = withType(res.body, type);
    if (dropSource) delete body._source;
    return { status: 200, body: withoutTypeField(body) };
  }

  async delete(app: string, type: string, id: string, params: Params): Promise<Reply> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const cur = await this.current(app, id);
      if (cur && cur.type !== type) {
        return { status: 404, body: { _index: app, _type: type, _id: id, result: 'not_found', _shards: { total: 1, successful: 1, failed: 0 } } };
      }
      const sent = cur ? withParam(withParam(params, 'if_seq_no', String(cur.seqNo)), 'if_primary_term', String(cur.primaryTerm)) : params;
      const res = await callJson<Json>(this.backend, 'DELETE', `/${enc(app)}/_doc/${enc(id)}`, undefined, queryString(sent));
      // a concurrent write changed the document between the type check and the delete: check again
      if (res.status === 409 && cur && !params.has('if_seq_no')) continue;
      return { status: res.status, body: res.status < 300 || res.body.result ? withType(res.body, type) : res.body };
    }
    throw new EsError(409, 'version_conflict_engine_exception', `[${id}]: the document kept changing while it was being deleted`);
  }

  async update(app: string, type: string, id: string, body: unknown, params: Params): Promise<Reply> {
    const req = documentBody(body);
    const cur = await this.current(app, id);
    if (cur && cur.type !== type) {
      throw new EsError(404, 'document_missing_exception', `[${type}][${id}]: document missing`, { index: app, shard: '0' });
    }
    const translated: Json = { ...req };
    if (req.upsert !== undefined) translated.upsert = { ...documentBody(req.upsert), [TYPE_FIELD]: type };
    if (req.doc_as_upsert === true && req.doc !== undefined && !cur) {
      delete translated.doc_as_upsert;
      translated.upsert = { ...documentBody(req.doc), [TYPE_FIELD]: type };
    }
    if (translated.doc !== undefined) documentBody(translated.doc);
    await this.prepare(app);
    const res = await callJson<Json>(this.backend, 'POST', `/${enc(app)}/_update/${enc(id)}`, translated, queryString(params));
    if (res.status < 300) {
      const out = withType(res.body, type);
      if (out.get && typeof out.get === 'object') {
        const got = out.get as Json;
        out.get = { ...got, _source: stripTypeField(got._source) };
      }
      return { status: res.status, body: out };
    }
    return { status: res.status, body: res.body };
  }

  /**
   * `POST /{app}/{type}/_bulk` (appbase-js's `bulk({type})`): each item is the typed write it names
   * — index, create, update or delete of a document of that type, with the same type checks as the
   * single-document calls — and the answer is Elasticsearch's bulk answer. An item naming another
   * `_index` fails alone (a typed bulk writes its app only); `refresh` applies once, at the end.
   */
  async bulk(app: string, type: string, text: string, asked: Params): Promise<Reply> {
    const started = performance.now();
    const entries = readBulk(text);
    const refresh = asked.get('refresh');
    const params = withParam(asked, 'refresh', undefined);
    const items: Json[] = [];
    let failed = false;
    for (const entry of entries) {
      const item = await this.bulkItem(app, type, entry, params).catch((err: unknown) => {
        const e = toEsError(err);
        return { status: e.status, body: { _index: app, _type: type, _id: entry.meta._id ?? null, status: e.status, error: errorBody(e).error } as Json };
      });
      if (item.status >= 300) failed = true;
      items.push({ [entry.action]: { ...item.body, status: item.status } });
    }
    if (refresh !== undefined && refresh !== 'false') await callJson(this.backend, 'POST', `/${enc(app)}/_refresh`);
    return { status: 200, body: { took: Math.round(performance.now() - started), errors: failed, items } };
  }

  private async bulkItem(app: string, type: string, entry: BulkEntry, params: Params): Promise<Reply> {
    if (entry.index !== undefined && entry.index !== app) {
      throw new EsError(400, 'illegal_argument_exception', `a typed bulk writes documents of app [${app}] only, not of [${entry.index}]`);
    }
    const id = entry.meta._id === undefined || entry.meta._id === null ? undefined : String(entry.meta._id);
    const qs = new Map(params);
    for (const name of ['routing', 'if_seq_no', 'if_primary_term', 'pipeline', 'version', 'version_type']) {
      const v = entry.meta[name] ?? entry.meta[`_${name}`];
      if (v !== undefined && v !== null) qs.set(name, String(v));
    }
    const source = () => {
      try {
        return JSON.parse(entry.sourceText ?? '') as unknown;
      } catch (err) {
        throw new EsError(400, 'mapper_parsing_exception', `failed to parse: ${(err as Error).message}`);
      }
    };
    switch (entry.action) {
      case 'index':
        return this.index(app, type, id, source(), qs);
      case 'create':
        qs.set('op_type', 'create');
        return this.index(app, type, id, source(), qs);
      case 'update':
        if (id === undefined) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: id is missing;');
        return this.update(app, type, id, source(), qs);
      case 'delete':
        if (id === undefined) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: id is missing;');
        return this.delete(app, type, id, qs);
    }
  }

  /** `/{app}/{type}/_search` and `_count`: the query restricted to the type; hits.total an integer. */
  async search(app: string, type: string, endpoint: '_search' | '_count', body: unknown, asked: Params): Promise<Reply> {
    const req: Json = body === undefined ? {} : (documentBody(body), { ...(body as Json) });
    const params = new Map(asked);
    let query = req.query as Json | undefined;
    const q = params.get('q');
    if (q !== undefined) {
      const qs: Json = { query: q };
      for (const [param, key] of [['df', 'default_field'], ['default_operator', 'default_operator'], ['analyzer', 'analyzer'], ['lenient', 'lenient']]) {
        const v = params.get(param);
        if (v !== undefined) qs[key] = v;
        params.delete(param);
      }
      params.delete('q');
      query = { query_string: qs };
    }
    req.query = { bool: { must: query ?? { match_all: {} }, filter: { term: { [TYPE_FIELD]: type } } } };
    if (endpoint === '_search') params.set('rest_total_hits_as_int', 'true');
    const res = await callJson<Json>(this.backend, 'POST', `/${enc(app)}/${endpoint}`, req, queryString(params));
    if (res.status !== 200 || endpoint === '_count') return { status: res.status, body: res.body };
    // the type field out of sources, `fields`, highlights and inner hits alike (it reads the engine inside the hiding)
    const answer = withoutTypeField(res.body);
    const hits = answer.hits as { hits?: Json[] } | undefined;
    if (hits?.hits) hits.hits = hits.hits.map((hit) => withType(hit, type));
    return { status: 200, body: answer };
  }
}
