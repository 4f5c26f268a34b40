import { entryBoundedCache } from '../breakers/index.js';
import { servesSearchPipelines } from './search-pipelines-served.js';
import type { Backend, EngineRoute } from '../engine/index.js';
import { callJson } from '../engine/index.js';
import { checkEngineRoute } from '../engine/embedded/index.js';
import { EsError } from '../errors/index.js';
import type { Principal } from './authenticator.js';
import {
  authorizeIndices, holdsClusterPrivilege, patternsCoverPattern, resolveIndices,
  type Classification, type ClusterPrivilege, type ResolvedIndices,
} from './classify/index.js';
import { SELF_ACTIONS, narrowRequest, paramList, pathNames, pathOfSegments, serializeQuery, streamRead, type GatewayRequest } from '../request/index.js';
import { followStructure, type ChangeBus } from '../changes/index.js';
import { ScriptedFields } from './scripted-fields.js';
import { fieldVisibilityOf, intersectIncludes, reindexSourceFilter, searchRefusal, type DerivedFields } from './field-rules.js';
import { msearchText, parseJsonText, readMsearch, type MsearchEntry } from '../ndjson/index.js';
import { readsIndexMetadata } from './classify/classifying.js';
import { accessOf } from './credentials/credential-access.js';
import { isWithin } from './credentials/grant.js';
import { changedTemplatePatterns } from './template-targets.js';
import { isSystemExclusion } from './system-index-guard.js';
import type { CredentialStore } from './credentials/credential-store.js';
import type { Credential } from './credentials/credential.js';
import type { RateLimits } from './rate-limits.js';

/** Where a request comes from, beside the request itself: what the credential's source and referer rules read. */
export interface RequestOrigin {
  ip: string;
  referer?: string;
  /** The request's Accept and Content-Type, where the caller has them: they say whether the request is read in Elasticsearch 7's compatible form. */
  headers?: { accept?: string; 'content-type'?: string };
}


/** The categories whose answers carry documents' `_source`, filtered by include/exclude_fields. */
const SOURCE_CATEGORIES = new Set(['docs', 'search', 'streams']);

const forbidden = (action: string, user: string, indices?: string[]) =>
  new EsError(403, 'security_exception', `action [${action}] is unauthorized for user [${user}]` + (indices?.length ? ` on indices [${indices.join(',')}]` : ''));

/** ES's refusal of an action a cluster privilege grants; running a pipeline on a write is said as such. */
function lacksPrivilege(action: string, user: string, privilege: ClusterPrivilege): EsError {
  const granting = privilege === 'manage' ? 'manage' : `${privilege},manage`;
  const what = privilege === 'manage_pipeline' && !action.startsWith('cluster:admin/ingest/') && !action.startsWith('cluster:admin/search/pipeline/') ? 'running or setting an ingest pipeline' : 'this action';
  return new EsError(403, 'security_exception', `action [${action}] is unauthorized for user [${user}], ${what} is granted by the cluster privileges [${granting}]`);
}

/**
 * Decides whether a scoped credential may make a request, and how the request must be narrowed:
 * where it comes from (sources, referers), how often (rate limits), what it does (category,
 * operation), which indices it reaches (patterns; wildcards expand only to indices the credential
 * may see; aliases only if every index behind them is allowed; `.gateway-*` never), how much
 * (max_size) and which fields of `_source` it may see. The admin is not asked.
 */
export class Authorizer {
  /**
   * What index expressions stand for, remembered for a second: a scoped request would otherwise
   * cost the engine extra calls (settings, aliases) every time. Forgotten at once when any node
   * says which indices exist or what a name stands for may have changed (an index created or
   * deleted, an alias moved: the search cache's signal on the bus, sent before the change is
   * answered) — on an HTTP engine authorization is the only check of what an alias reaches. A
   * change made at the engine behind the gateway's back is seen within the second. With a bus
   * shared by nodes, only while it is looked up (`sharedBus`).
   */
  private readonly resolved = entryBoundedCache<string, Promise<ResolvedIndices>>(10_000, { ttl: 1000 });

  private readonly scripted: ScriptedFields;

  /**
   * `bus`: what tells the scripted fields and resolutions kept to drop (without one, fields are read for every request).
   * `sharedBus`: the bus is shared by nodes (Redis): another node's change reaches this one a moment
   * after it is answered, possibly after a request sent once it was — a resolution is then shared
   * by the requests that ask while it is looked up, and not remembered after.
   */
  constructor(private readonly backend: Backend, private readonly rateLimits: RateLimits, private readonly store?: CredentialStore, bus?: ChangeBus, private readonly sharedBus = false) {
    this.scripted = new ScriptedFields(backend, bus);
    if (bus) this.forgetResolutionsOn(bus);
  }

  private forgetResolutionsOn(bus: ChangeBus): void {
    const forget = () => this.resolved.clear();
    bus.indexChanges().subscribe({ next: forget, error: forget });
    // a feed that failed (history lost): what was missed is forgotten
    followStructure(bus, (event) => {
      if (event.op === 'create') forget();
    }, forget);
  }

  /**
   * The fields the indices a request reaches derive from others (by a script, or as an alias),
   * when the principal has field rules (none else: nothing is asked of the engine): its field
   * rules refuse reading a scripted one, and an alias of a hidden one.
   */
  async derivedFieldsFor(principal: Principal, info: Classification): Promise<DerivedFields | undefined> {
    const cred = principal.credential;
    if (principal.role === 'admin' || !(cred.include_fields?.length || cred.exclude_fields?.length)) return undefined;
    // a request that names no index (`/_search`) reaches every index the credential may see
    return this.scripted.of(info.indices.length && !info.allIndices ? info.indices : cred.indices);
  }

  /**
   * The request (the value its transport built, lib/request's `GatewayRequest`) as this principal
   * may make it: the same value, or a narrowed one (index wildcards expanded to what the
   * credential may see, its field rules as the source filter); a refusal is thrown. The system
   * indices are not this method's concern: `checkSystemIndices` guards them for every principal.
   */
  async authorize(principal: Principal, req: GatewayRequest, origin: RequestOrigin): Promise<GatewayRequest> {
    const cred = principal.credential;
    const user = principal.username;
    if (principal.role === 'admin') return req;
    const classification = req.info;

    const access = accessOf(cred);
    if (!access.allowsSource(origin.ip)) throw new EsError(403, 'security_exception', `requests from [${origin.ip}] are not allowed for user [${user}]`);
    if (!access.allowsReferer(origin.referer)) throw new EsError(403, 'security_exception', `referer [${origin.referer ?? ''}] is not allowed for user [${user}]`);
    await this.rateLimits.consume(user, origin.ip, cred.rate_limit);

    const { action } = classification;
    // fail closed: an API the classifier does not know, or an index request whose indices it
    // could not tell, is refused (the admin may still pass anything through)
    if (!classification.known) throw forbidden(action, user);
    if (TASK_ACTIONS.has(action)) throw forbidden(action, user);
    if (INDEX_CATEGORIES.has(classification.category) && !classification.indices.length && !classification.allIndices && !INDEXLESS_ACTIONS.has(action)) {
      throw forbidden(action, user);
    }
    // who am I: every credential may ask (Elasticsearch asks no privilege for it, nor the Security plugin)
    if (SELF_ACTIONS.has(action)) return req;
    // an index's metadata is read by its readers too (classifying.ts, readsIndexMetadata)
    const readerMetadata = readsIndexMetadata(req) && cred.categories.includes('search');
    if (!cred.categories.includes(classification.category) && !readerMetadata) throw forbidden(action, user);
    const operations = classification.perIndex?.length ? new Set(classification.perIndex.map((p) => p.operation)) : new Set([classification.operation]);
    for (const op of operations) if (!cred.ops.includes(op)) throw forbidden(action, user);
    for (const privilege of classification.clusterPrivileges ?? []) {
      if (!holdsClusterPrivilege(cred.cluster_privileges, privilege)) throw lacksPrivilege(action, user, privilege);
    }

    // a template put or removed by name: the one stored under it may be another tenant's
    const changedTemplates = await changedTemplatePatterns(this.backend, req.route, pathNames(req.pathParams.name));
    if (changedTemplates?.some((pattern) => !patternsCoverPattern(cred.indices, pattern))) throw forbidden(action, user, [req.pathParams.name!]);

    let segments: readonly string[] | undefined;
    if (classification.category === 'credentials') {
      // a credential may only hand out access it has itself
      for (const expr of classification.indices) {
        if (!patternsCoverPattern(cred.indices, expr)) throw forbidden(action, user, [expr]);
      }
      // what a new or changed credential may hold is decided where it is written, on its parsed
      // value and the stored record (credentials/grant.ts, used by the credentials routes)
      await this.checkCredentialTarget(req, principal);
    } else if (classification.indices.length || classification.allIndices) {
      let resolved: ResolvedIndices;
      ({ segments, resolved } = await this.authorizeIndices(classification, req, cred.indices, user));
      await this.checkAliasFilters(principal, classification, resolved);
    }

    // an engine request is one the engine's own route table describes, parameters included, read
    // as the engine reads it: once the rights allow it, a route, method or parameter the table does
    // not know is refused with the engine's own error (on an HTTP backend too, whose engine may know more)
    // a stream's is the engine read it makes (its document, its search), without the stream's own parameters
    const engineRoute = classification.family === 'engine'
      ? checkEngineRoute({ method: req.method, path: req.path, querystring: req.querystring, headers: origin.headers, target: req }, req.path, req)
      : classification.family === 'stream' ? checkStreamRead(req, origin) : undefined;
    let params: ReadonlyMap<string, string> | undefined;
    // an `_msearch`'s searches, read once for the checks below and the narrowing after them
    const msearch = msearchEntries(req);
    // a search that names no size gets the engine's default of 10 hits: above a lower max_size, it is sent with the bound
    let sizeCap: number | undefined;
    if (cred.max_size !== undefined && (classification.category === 'search' || classification.category === 'streams')) {
      const sized = checkSize(req, cred.max_size, action === MSEARCH_ACTION ? msearch() : undefined);
      if (cred.max_size < DEFAULT_SEARCH_SIZE) sizeCap = cred.max_size;
      if (sizeCap !== undefined && !sized && ONE_SEARCH_ROUTES.has(req.route)) params = new Map(req.params).set('size', String(sizeCap));
    }
    const fieldRules = Boolean(cred.include_fields?.length || cred.exclude_fields?.length);
    // on an HTTP engine, which checks no rights where a stored pipeline's filter_query looks
    // another index up, no scoped credential runs a pipeline (the embedded engine checks them)
    const unchecked = this.backend.kind === 'http';
    if ((fieldRules || cred.max_size !== undefined || unchecked) && SEARCH_PIPELINE_CATEGORIES.has(classification.category) && namesSearchPipeline(req, msearch)) {
      throw new EsError(403, 'security_exception',
        `action [${action}] is unauthorized for user [${user}]: a search pipeline may change the query and size of a search, which this credential's field rules or max_size bound`);
    }
    if (fieldRules && SOURCE_CATEGORIES.has(classification.category) && classification.operation === 'read' && answersWithSource(req)) {
      params = enforceSourceFilter(req.params, askedSource(req), cred.include_fields, cred.exclude_fields);
    }
    if (action === CLUSTER_STATE_ACTION) params = clusterStateFilter(params ?? req.params);
    // nor does it run an index's default pipeline (the admin's program over every search of the
    // index, whose oversample, script or filter_query would go past the same bounds): `_none`
    // (sent only to an engine that has search pipelines: Elasticsearch refuses the parameter)
    const searching = ONE_SEARCH_ROUTES.has(req.route) || action === MSEARCH_ACTION;
    const noPipeline = searching && (fieldRules || cred.max_size !== undefined || unchecked) && (await servesSearchPipelines(this.backend));
    if (noPipeline && ONE_SEARCH_ROUTES.has(req.route)) params = new Map(params ?? req.params).set('search_pipeline', '_none');
    const json = action === REINDEX_ACTION ? reindexAsReader(req, cred, user) : action === MSEARCH_ACTION ? msearchAsReader(msearch, cred, noPipeline, sizeCap) : undefined;
    // the engine reuses the route found here, unless narrowing changed the request since
    return segments || params || engineRoute || json ? narrowRequest(req, { segments, params, engineRoute, json }) : req;
  }

  /**
   * Another credential is reachable only if it lies within this credential's rights (its indices,
   * categories, operations, field rules, limits: grant.ts): a tenant manages the credentials it
   * could have granted, never another tenant's or a wider one; the full list is the admin's.
   * Read from the request value's route and decoded path parameters (the one table's match),
   * never the path; a shape the credentials API does not have (`/_credentials/a/b`,
   * `/{index}/_credentials/x`) matches no credentials route and is refused.
   */
  private async checkCredentialTarget(req: GatewayRequest, principal: Principal): Promise<void> {
    const refuse = () => forbidden(req.info.action, principal.username);
    switch (req.route) {
      // `/{index}/_credentials`: its index was checked against this credential's patterns
      case 'index_credentials.list':
      case 'index_credentials.create':
      // creating is checked where the credential is written
      case 'credentials.create':
        return;
      case 'credentials.get':
      case 'credentials.update':
      case 'credentials.delete':
        break;
      // listing every credential is the admin's
      default:
        throw refuse();
    }
    const username = req.pathParams.username;
    if (username === undefined) throw refuse();
    const target = await this.store?.get(username).catch(() => undefined);
    if (!target) return; // the API answers 404 (or 400 for a malformed name)
    // within the caller's rights as a whole (grant.ts), not only its indices: a pair the admin
    // minted for the caller's index with more categories is not the caller's to read, reset or delete
    if (target.role === 'admin' || !target.indices.length || !isWithin(target, principal.credential)) throw refuse();
  }

  /**
   * A search through a filtered alias runs the alias's filter, a query the caller did not write:
   * for a credential with field rules, one that reads a field the rules hide is refused (on the
   * HTTP backend it would match on the hidden value — a value oracle —, on the embedded engine it
   * would match nothing, as under Elasticsearch's field-level security, and the profile or
   * explanation of either prints it). The refusal names neither the alias's filter nor its field.
   */
  private async checkAliasFilters(principal: Principal, c: Classification, resolved: ResolvedIndices): Promise<void> {
    const filters = Object.values(resolved.aliasFilters).flat();
    if (!filters.length || !(FILTERED_READ_CATEGORIES.has(c.category) || FILTERED_READ_ACTIONS.has(c.action))) return;
    const rules = fieldVisibilityOf(principal.credential);
    if (!rules) return;
    const derived = await this.derivedFieldsFor(principal, c);
    const visibility = derived ? rules.withDerived(derived) : rules;
    for (const filter of filters) {
      if (searchRefusal(visibility, { query: filter, _source: false }) !== undefined) {
        throw new EsError(403, 'security_exception', `action [${c.action}] is unauthorized for user [${principal.username}]: the filter of an alias the request reads reads a field the credential's field rules hide`);
      }
    }
  }

  /** Checks every index expression; returns the path's segments with its wildcard expressions narrowed (undefined: as they are), and the resolution. */
  private async authorizeIndices(c: Classification, req: GatewayRequest, patterns: string[], user: string): Promise<{ segments: readonly string[] | undefined; resolved: ResolvedIndices }> {
    // A request that reaches every index besides the ones it names (a bare `/_search` whose body
    // looks an index up, an `_msearch` header without an index beside one naming it) is checked
    // for every index too: the named ones alone would let it read the rest.
    const everyIndexToo = c.allIndices && !c.indices.some((e) => e === '_all' || /^\*+$/.test(e));
    const expressions = !c.indices.length ? ['_all'] : everyIndexToo ? [...c.indices, '_all'] : c.indices;
    const expandWildcards = req.params.get('expand_wildcards');
    const key = `${expandWildcards ?? ''}\u0000${expressions.join('\u0000')}`;
    let pending = this.resolved.get(key);
    if (!pending) {
      const looked = resolveIndices(this.backend, expressions, { expandWildcards });
      const forget = () => this.resolved.get(key) === looked && this.resolved.delete(key);
      this.resolved.set(key, looked);
      looked.then(this.sharedBus ? forget : undefined, forget);
      pending = looked;
    }
    const resolved = await pending;
    const fromElsewhere = c.sources.some((s) => s.from !== 'path');
    const narrowable = c.operation === 'read' && !fromElsewhere && c.slot !== undefined;
    const allWritten = c.sources.some((s) => s.from !== 'template' && s.expression === '_all');
    const verdict = authorizeIndices(patterns, resolved, { strictWildcards: !narrowable, allWritten });
    // named as the request wrote them: never the indices a wildcard or alias stands for (another
    // tenant's, backing indices), nor what a stored template reads (its author wrote it, not the caller)
    const denied = verdict.decisions.filter((d) => d.verdict === 'deny');
    if (denied.length) throw forbidden(c.action, user, written(c, denied.map((d) => d.expression)));
    return { segments: await this.narrowedExpressions(c, verdict, expressions, patterns, user), resolved };
  }

  /** The path's segments with its wildcard expressions narrowed to what the credential may see (undefined: as they are). */
  private async narrowedExpressions(c: Classification, verdict: ReturnType<typeof authorizeIndices>, expressions: string[], patterns: string[], user: string): Promise<readonly string[] | undefined> {
    if (!verdict.decisions.some((d) => d.verdict === 'narrow')) return undefined;
    // wildcards and _all stand for the indices this credential may see, and nothing else
    const names: string[] = [];
    // an exclusion is applied already to the names a narrowed wildcard stands for: kept only behind
    // a wildcard left as written, else it would follow names only and be read as a name of its own
    // (`a,-.gateway-*`: index_not_found with allow_no_indices=false)
    let wildcardLeft = false;
    for (const d of verdict.decisions) {
      if (d.kind === 'exclusion' && !wildcardLeft) continue;
      if ((d.kind === 'wildcard' || d.kind === 'all') && d.verdict !== 'narrow') wildcardLeft = true;
      names.push(...(d.verdict === 'narrow' ? d.allowed : [d.expression]));
    }
    if (!names.length) throw forbidden(c.action, user, written(c, expressions));
    if (c.slot?.holds === 'aliases') return narrowedSegments(c, await this.aliasesWithin(names, patterns));
    return narrowedSegments(c, names);
  }

  /**
   * The aliases whose every index the credential may see, among those of `indices`; when there
   * are none, the index names themselves (no alias is named like an index: nothing is listed).
   */
  private async aliasesWithin(indices: string[], patterns: string[]): Promise<string[]> {
    const aliases = new Set<string>();
    const reply = await callJson<Record<string, { aliases?: Record<string, unknown> }>>(
      this.backend, 'GET', `/${indices.map(encodeURIComponent).join(',')}/_alias`, undefined, 'expand_wildcards=all',
    );
    if (reply.status === 200 && reply.body) for (const entry of Object.values(reply.body)) for (const a of Object.keys(entry?.aliases ?? {})) aliases.add(a);
    const names = [...aliases];
    if (!names.length) return indices;
    const resolved = await resolveIndices(this.backend, names, { expandWildcards: 'all' });
    const allowed = authorizeIndices(patterns, resolved).decisions.filter((d) => d.verdict === 'allow').map((d) => d.expression);
    return allowed.length ? allowed : indices;
  }
}

/**
 * The request's path with the narrowed index list in its slot (replacing the list there, or
 * inserted where the path had none: `/_search` → `/a,b/_search`, `/_cat/indices` →
 * `/_cat/indices/a,b`), built from the decoded segments the request was classified on.
 */
function narrowedSegments(c: Classification, names: string[]): readonly string[] {
  const slot = c.slot!;
  const segments = [...c.segments];
  const list = names.join(',');
  if (slot.insert) segments.splice(slot.segment, 0, list);
  else segments[slot.segment] = list;
  return segments;
}

/** Of `expressions`, the ones the caller wrote (in the path, a parameter or the body): what a refusal may name. */
function written(c: Classification, expressions: readonly string[]): string[] {
  const theirs = new Set(c.sources.filter((s) => s.from !== 'template').map((s) => s.expression));
  // `_all` named by no source stands for a request that reaches every index (a bare `/_search`)
  const templates = new Set(c.sources.filter((s) => s.from === 'template').map((s) => s.expression));
  // the system indices' exclusions a narrowed path was given are the gateway's words, not theirs
  return expressions.filter((e) => (theirs.has(e) && !isSystemExclusion(e)) || (e === '_all' && !templates.has(e)));
}

/** The route check of the engine read a stream request makes, naming the path the caller wrote; undefined for no stream's read. */
function checkStreamRead(req: GatewayRequest, origin: RequestOrigin): EngineRoute | undefined {
  const read = streamRead(req.method, req.segments, req.params);
  if (!read) return undefined;
  const path = pathOfSegments(read.segments);
  const querystring = serializeQuery(read.params);
  return checkEngineRoute({ method: read.method, path, querystring, headers: origin.headers, target: { path, segments: read.segments, querystring, params: read.params } }, req.path);
}

/**
 * The task management API (`_tasks`, `_cat/tasks`, `_rethrottle`) is cluster-wide: a task's status
 * and stored result carry another tenant's counts, failures (ids, reasons) and descriptions (index
 * names), and cancel or rethrottle act on another tenant's work. No index scope can narrow it, so
 * it is refused to every scoped credential, whatever its categories; the admin uses it.
 */
const TASK_ACTIONS = new Set(['cluster:monitor/tasks/lists', 'cluster:monitor/task/get', 'cluster:admin/tasks/cancel', 'cluster:admin/reindex/rethrottle']);

/** Requests that run a filtered alias's filter: searches of every kind, by-query writes, a reindex's source. */
const FILTERED_READ_CATEGORIES = new Set(['search', 'streams', 'declarative']);
const FILTERED_READ_ACTIONS = new Set(['indices:data/write/delete/byquery', 'indices:data/write/update/byquery', 'indices:data/write/reindex']);

/** Categories whose requests reach indices: one whose indices are unknown is refused. */
const INDEX_CATEGORIES = new Set(['docs', 'search', 'indices', 'streams', 'declarative']);
/** Actions of those categories that reach no index: by an id of their own, or on text alone. */
const INDEXLESS_ACTIONS = new Set([
  'indices:admin/analyze', 'indices:data/read/scroll', 'indices:data/read/scroll/clear', 'indices:data/read/close_point_in_time',
  'indices:data/read/point_in_time/delete',
  'indices:data/read/async_search/get', 'indices:data/read/search/template',
]);

/** Requests whose searches may name an OpenSearch search pipeline (`search_pipeline`). */
const SEARCH_PIPELINE_CATEGORIES = new Set(['search', 'streams']);

/**
 * Whether a search names a search pipeline to run (OpenSearch): the `search_pipeline` parameter,
 * or a body's (a search's, or any of a multi search's) `search_pipeline` member, by id or inline;
 * `_none` names none. A pipeline is the admin's (or, inline, the caller's) program over the search:
 * its `filter_query` may read any field, its `oversample` raises the size, and on an HTTP backend
 * the gateway cannot see what a stored one does, so credentials bounded by field rules or
 * `max_size` run none. An index's default search pipeline is set with `manage_pipeline` only.
 */
function namesSearchPipeline(req: GatewayRequest, msearch: () => MsearchEntry[] | undefined): boolean {
  const named = (v: unknown) => v !== undefined && v !== null && v !== '_none';
  if (named(req.params.get('search_pipeline'))) return true;
  if (req.route === 'msearch') return msearch()?.some((entry) => named(entry.body.search_pipeline)) ?? false;
  let parsed = req.info.parsed;
  if (parsed === undefined && req.body?.trim()) {
    try {
      parsed = parseJsonText(req.body);
    } catch {
      return false; // the engine reports a malformed body
    }
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && named((parsed as Record<string, unknown>).search_pipeline);
}

/**
 * The searches of an `_msearch` body (as forwarded), read on the first call and kept for the
 * request's authorization; undefined for an empty body or one that does not read (the engine
 * reports it).
 */
function msearchEntries(req: GatewayRequest): () => MsearchEntry[] | undefined {
  let read: { entries: MsearchEntry[] | undefined } | undefined;
  return () => {
    if (read) return read.entries;
    const text = req.info.forward ?? req.body;
    try {
      read = { entries: text === undefined || text.trim() === '' ? undefined : readMsearch(text) };
    } catch {
      read = { entries: undefined };
    }
    return read.entries;
  };
}

/**
 * `max_size` bounds what each search returns: `size` (the URL's, the body's) and a `knn` option's
 * k — of the request's body, and of each search of an `_msearch` (a `_msearch/template` rendered
 * into one), whose lines are searches as much as a `_search` is.
 */
/** The hits a search gives when it names no `size` (Elasticsearch's and the embedded engine's default). */
const DEFAULT_SEARCH_SIZE = 10;
/**
 * The routes that run one search, read from its parameters and body: `_search`, and OpenSearch's
 * asynchronous submit (which runs an index's default search pipeline as a search does). Sent on
 * with a `size` parameter when they name none and `max_size` is below the default, and with
 * `search_pipeline=_none` for a bounded credential.
 */
const ONE_SEARCH_ROUTES = new Set(['search', 'opensearch.asynchronous_search_submit']);

/**
 * Refuses a size or knn `k` above `max`, in the parameters or the body (each search of an
 * `_msearch`); returns whether a single search names its size (in the parameters or its body).
 */
function checkSize(req: GatewayRequest, max: number, msearch: readonly MsearchEntry[] | undefined): boolean {
  const sizes: Array<[string, number]> = [];
  const size = req.params.get('size');
  if (size !== undefined) sizes.push(['size', Number(size)]);
  if (msearch) {
    for (const entry of msearch) sizesOf(entry.body, sizes);
  } else {
    const parsed = req.info.parsed;
    let body: unknown;
    if (parsed !== undefined) body = parsed;
    else if (req.body && req.body.length) {
      try {
        body = JSON.parse(req.body) as unknown;
      } catch {
        /* the engine reports a malformed body */
      }
    }
    sizesOf(body, sizes);
  }
  for (const [name, n] of sizes) {
    if (n > max) throw new EsError(400, 'illegal_argument_exception', `[${name}] ${n} is above this credential's max_size of ${max}`);
  }
  return sizes.some(([name]) => name === 'size');
}

/**
 * A search body's `size` and its `knn` option's k (each of a list): how many nearest documents it
 * finds, its hits when no size is given; and the hits it returns nested anywhere in it.
 */
function sizesOf(value: unknown, sizes: Array<[string, number]>): void {
  const body = value as { size?: unknown; knn?: unknown } | null | undefined;
  const size = countOf(body?.size);
  if (size !== undefined) sizes.push(['size', size]);
  for (const knn of Array.isArray(body?.knn) ? body.knn : body?.knn !== undefined ? [body.knn] : []) {
    const k = countOf((knn as { k?: unknown } | null)?.k);
    if (k !== undefined) sizes.push(['knn.k', k]);
  }
  nestedHitSizes(body, sizes);
}

/**
 * Hits returned inside a search, each group up to its own `size`: `top_hits` and `top_metrics`
 * aggregations, `inner_hits` (of nested, has_child, has_parent queries and of `collapse`, one or
 * a list), completion suggestions (`suggest.{name}.completion`: documents, `_source` and all) —
 * each group counts as a search (Elasticsearch's defaults: 3 hits, 1 for top_metrics, 5 for a
 * completion, CompletionSuggestionBuilder's).
 * Read wherever such a key stands, so no nesting hides one: a field that happens to carry the
 * name is read too, which can only refuse. A walk with its own stack, whatever the body's depth.
 */
const NESTED_HITS: ReadonlyMap<string, number> = new Map([['top_hits', 3], ['inner_hits', 3], ['top_metrics', 1], ['completion', 5]]);

function nestedHitSizes(body: unknown, sizes: Array<[string, number]>): void {
  const pending: unknown[] = [body];
  while (pending.length) {
    const value = pending.pop();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object') pending.push(item);
      continue;
    }
    for (const [key, inner] of Object.entries(value)) {
      const byDefault = NESTED_HITS.get(key);
      for (const group of byDefault === undefined ? [] : Array.isArray(inner) ? inner : [inner]) {
        if (group !== null && typeof group === 'object') sizes.push([`${key}.size`, countOf((group as { size?: unknown }).size) ?? byDefault!]);
      }
      pending.push(inner);
    }
  }
}

/**
 * A count as the engine reads it: a number, or a string holding one (Elasticsearch coerces
 * `"50"`, and the embedded engine reads `" 50 "`, `"+50"`, `"5e1"` as 50), so that no spelling
 * of a number passes the bound; anything else the engine refuses.
 */
function countOf(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isNaN(n) ? undefined : n;
}

const CLUSTER_STATE_ACTION = 'cluster:monitor/state';

/**
 * What of the cluster state a scoped credential sees besides its own indices' entries (the
 * request's index list is narrowed to them): on Elasticsearch the metadata also holds every
 * template, ingest pipeline, stored script, data stream and deleted index name, which no index
 * list narrows. The answer is kept to these paths (`filter_path`), within which the request's own
 * `filter_path` still applies.
 */
const CLUSTER_STATE_PATHS = [
  'cluster_name', 'cluster_uuid', 'version', 'state_uuid', 'master_node', 'blocks', 'nodes',
  'metadata.cluster_uuid', 'metadata.cluster_uuid_committed', 'metadata.cluster_coordination', 'metadata.indices',
  'routing_table', 'routing_nodes',
];

function clusterStateFilter(params: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const asked = paramList(params, 'filter_path');
  const within = (p: string) => CLUSTER_STATE_PATHS.some((safe) => p === safe || p.startsWith(`${safe}.`));
  // an exclusion only takes away; an inclusion outside the paths (`metadata.templates`, `*`) is dropped
  const kept = asked.filter((p) => p.startsWith('-') || within(p));
  const includes = kept.some((p) => !p.startsWith('-'));
  return new Map(params).set('filter_path', [...(includes ? [] : CLUSTER_STATE_PATHS), ...kept].join(','));
}

const REINDEX_ACTION = 'indices:data/write/reindex';
const MSEARCH_ACTION = 'indices:data/read/msearch';

/**
 * A reindex by a credential with field rules copies what the credential reads (Elasticsearch runs
 * its search as the user, under field-level security): a source reading every field gets the
 * rules as its `_source` filter, on every backend (the embedded engine also reads its source
 * without the hidden fields). A source naming its fields was checked by the field rules.
 */
function reindexAsReader(req: GatewayRequest, cred: Pick<Credential, 'include_fields' | 'exclude_fields'>, user: string): { text: string; value: unknown } | undefined {
  if (!cred.include_fields?.length && !cred.exclude_fields?.length) return undefined;
  const value = jsonBodyOf(req);
  // a reindex body the classifier did not read cannot be narrowed: refused (fail closed)
  if (value === undefined) throw forbidden(REINDEX_ACTION, user);
  const narrowed = reindexSourceFilter(value, { include: cred.include_fields, exclude: cred.exclude_fields });
  return narrowed && { text: JSON.stringify(narrowed), value: narrowed };
}

/** The request's JSON body as the classifier read it (undefined: none); a body that does not parse is the engine's to refuse. */
function jsonBodyOf(req: GatewayRequest): unknown {
  const { info } = req;
  if (info.parsed !== undefined) return info.parsed;
  const text = info.forward ?? req.body;
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return parseJsonText(text);
  } catch {
    return undefined;
  }
}

/** Actions whose JSON body is a search body, whose `_source` the URL's source parameters replace. */
const SEARCH_BODY_ACTIONS = new Set(['indices:data/read/search', 'indices:data/read/async_search/submit', 'cluster:admin/opendistro/asynchronous_search/submit', 'indices:data/read/explain']);

/**
 * A source filter (what a request asks for, or what it is narrowed to): `fetch: false`, no
 * `_source` at all; `includes` undefined, every field but the excluded ones.
 */
interface SourceFilter {
  fetch: boolean;
  includes?: string[];
  excludes: string[];
}

/** The URL's source filter parameters (with Elasticsearch 7's singular names). */
const SOURCE_PARAMS = ['_source', '_source_includes', '_source_excludes', '_source_include', '_source_exclude'];

const EVERY_FIELD: SourceFilter = { fetch: true, excludes: [] };

/**
 * The source filter a request asks for: from the URL's `_source`, `_source_includes` and
 * `_source_excludes` when it has any (they replace a body's, as in Elasticsearch), else from a
 * search body's `_source`.
 */
function askedSource(req: GatewayRequest): SourceFilter {
  const { params } = req;
  if (SOURCE_PARAMS.some((name) => params.has(name))) {
    const source = params.get('_source');
    if (source === 'false') return { fetch: false, excludes: [] };
    const fromSource = source === undefined || source === 'true' ? [] : paramList(params, '_source');
    const named = [...paramList(params, '_source_includes'), ...paramList(params, '_source_include')];
    const includes = named.length ? named : fromSource;
    return { fetch: true, includes: includes.length ? includes : undefined, excludes: [...paramList(params, '_source_excludes'), ...paramList(params, '_source_exclude')] };
  }
  return SEARCH_BODY_ACTIONS.has(req.info.action) ? bodySource(jsonBodyOf(req)) : EVERY_FIELD;
}

/** The source filter of a search body's `_source` (false, true, a name or list, `{includes, excludes}`). */
function bodySource(body: unknown): SourceFilter {
  const source = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { _source?: unknown })._source : undefined;
  const strings = (v: unknown) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  if (source === false) return { fetch: false, excludes: [] };
  if (typeof source === 'string' || Array.isArray(source)) {
    const includes = strings(source);
    return { fetch: true, includes: includes.length ? includes : undefined, excludes: [] };
  }
  if (source !== null && typeof source === 'object') {
    const s = source as Record<string, unknown>;
    const includes = strings(s.includes ?? s.include);
    return { fetch: true, includes: includes.length ? includes : undefined, excludes: strings(s.excludes ?? s.exclude) };
  }
  return EVERY_FIELD;
}

/**
 * What both the request's source filter and the credential's field rules let through: the
 * request's includes within the credential's include list, the request's excludes and the
 * credential's together; nothing in common is an empty source (as Elasticsearch answers it).
 */
function sourceWithin(asked: SourceFilter, include: readonly string[] = [], exclude: readonly string[] = []): SourceFilter {
  if (!asked.fetch) return asked;
  const excludes = [...asked.excludes, ...exclude];
  let includes = asked.includes;
  if (include.length) {
    includes = includes ? intersectIncludes(includes, include) : [...include];
    if (!includes.length) {
      includes = [...include];
      excludes.push('*');
    }
  }
  return { fetch: true, includes, excludes };
}

/** The credential's field rules narrow the request's own source filter (URL or body), set as the URL's parameters, which the engine reads over a body's `_source`. */
function enforceSourceFilter(
  current: ReadonlyMap<string, string>, asked: SourceFilter, include?: string[], exclude?: string[],
): ReadonlyMap<string, string> | undefined {
  if (!include?.length && !exclude?.length) return undefined;
  const params = new Map(current);
  for (const name of SOURCE_PARAMS) params.delete(name);
  const narrowed = sourceWithin(asked, include, exclude);
  if (!narrowed.fetch) return params.set('_source', 'false');
  if (narrowed.includes?.length) params.set('_source_includes', narrowed.includes.join(','));
  if (narrowed.excludes.length) params.set('_source_excludes', narrowed.excludes.join(','));
  return params;
}

/**
 * An `_msearch` by a credential with field rules: each search's `_source` narrowed as a search's
 * URL parameters are (`sourceWithin`), written into its body (an `_msearch` has no URL filter per
 * search), so that it is answered with the hidden fields absent rather than refused.
 */
function msearchAsReader(msearch: () => MsearchEntry[] | undefined, cred: Pick<Credential, 'include_fields' | 'exclude_fields'>, noPipeline = false, sizeCap?: number): { text: string; value: undefined } | undefined {
  const fieldRules = Boolean(cred.include_fields?.length || cred.exclude_fields?.length);
  if (!fieldRules && !noPipeline && sizeCap === undefined) return undefined;
  const entries = msearch();
  if (!entries) return undefined;
  const narrowed = entries.map((entry) => {
    let body: Record<string, unknown> = noPipeline ? { ...entry.body, search_pipeline: '_none' } : entry.body;
    // a search naming no size is sent with the credential's lower max_size (checkSize refused larger ones)
    if (sizeCap !== undefined && countOf(entry.body.size) === undefined) body = { ...body, size: sizeCap };
    if (fieldRules) {
      const within = sourceWithin(bodySource(entry.body), cred.include_fields, cred.exclude_fields);
      body = { ...body, _source: within.fetch ? { ...(within.includes ? { includes: within.includes } : {}), excludes: within.excludes } : false };
    }
    return { ...entry, body, bodyText: JSON.stringify(body) };
  });
  return { text: msearchText(narrowed), value: undefined };
}

/** Routes of the source-filtered categories whose answers carry no `_source` (and which refuse its parameters). */
const SOURCELESS_ROUTES = new Set([
  'count', 'typed.count', 'render_search_template', 'msearch', 'msearch_template', 'field_caps', 'indices.validate_query', 'terms_enum',
  'knn_search', 'open_point_in_time', 'close_point_in_time', 'search_shards', 'mtermvectors', 'termvectors',
]);

/** Whether the answer carries `_source`, so that the credential's field rules go on as its source filter (read from the request value's route). */
function answersWithSource(req: Pick<GatewayRequest, 'route' | 'info'>): boolean {
  if (req.info.action === 'indices:data/read/scroll' || req.info.action === 'indices:data/read/scroll/clear') return false;
  return !SOURCELESS_ROUTES.has(req.route);
}
