import { EsError } from '../../errors/index.js';
import { expandsHiddenIndices, namesOf, splitExpressions, runsPipeline, type BodyReading, type BodyTarget } from './body-indices.js';
import type { ClusterPrivilege } from './cluster-privileges.js';
import type { BulkEntry } from '../../ndjson/index.js';
import { answersTable, type Category, type Classification, type ClassifiableRequest, type GatewayRequest, type PreparedBody, type TextPieces, type ExpressionOperation, type ExpressionSource, type IndexSlot, type Operation, type RouteFamily } from '../../request/index.js';

/**
 * A classification begun: what every request's parameters say, whatever its route — a parameter
 * naming indices (`index=`) is read like a body's index (checked, never narrowed), and a write
 * running an ingest pipeline (`pipeline=`) may send documents to any index (`ctx._index = …`), as
 * `_reindex`'s `dest.pipeline` does.
 */
export function startClassifying(req: ClassifiableRequest): Classifying {
  const method = (req.method || 'GET').toUpperCase();
  const { segments, params } = req;
  const c = new Classifying(method, params, req.body, segments, req.prepared);
  // a request without parameters (nearly every document read) has none of these to read
  if (params.size === 0) return c;
  for (const name of INDEX_PARAMS) for (const value of all(params, name)) c.queryIndex(value);
  if (segments.length && methodOperation(method) === 'write' && all(params, 'pipeline').some(runsPipeline)) c.namesPipeline = true;
  return c;
}

/** Body targets classified between two steps (see `Classifying.bodyTargets`). */
const TARGETS_PER_STEP = 2048;

/** One bit for each place an expression may come from (see `Classifying.listed`). */
const SOURCE_BITS: Record<ExpressionSource['from'], number> = { path: 1, query: 2, body: 4, template: 8 };

/** Parameters that name indices. */
const INDEX_PARAMS = ['index', 'indices'] as const;

function expandsHiddenParam(params: ReadonlyMap<string, string>): boolean {
  const v = params.get('expand_wildcards');
  return v !== undefined && expandsHiddenIndices(v);
}

export const methodOperation = (method: string): Operation =>
  method === 'GET' || method === 'HEAD' ? 'read' : method === 'DELETE' ? 'delete' : 'write';

/** A parameter's values: the edge keeps each parameter's last one, as Elasticsearch reads it. */
function all(params: ReadonlyMap<string, string>, name: string): string[] {
  const v = params.get(name);
  return v === undefined ? [] : [v];
}

function booleanFlag(params: ReadonlyMap<string, string>, name: string): boolean {
  const v = params.get(name);
  return v !== undefined && (v === '' || v.toLowerCase() === 'true');
}

/** Accumulates one classification. */
export class Classifying implements BodyReading {
  private readonly indices: string[] = [];
  private readonly sources: ExpressionSource[] = [];
  private readonly perIndex: ExpressionOperation[] = [];
  // what is already listed, so that a body naming 100,000 patterns is classified in linear time:
  // each expression once, with the sources (SOURCE_BITS) that named it — one lookup an expression
  private readonly listed = new Map<string, number>();
  /** The expressions already in `perIndex`, by operation (a key string per pair would be 100,000 more strings for a credential's list). */
  private readonly operated = new Map<Operation, Set<string>>();
  private readonly pathExpressions: string[] = [];
  private readonly pathLists: string[][] = [];
  private allIndices = false;
  private mixed = false;
  private readsBody = false;
  private known = true;
  private slot: IndexSlot | undefined;
  private narrowable = true;
  private readonly privileges: ClusterPrivilege[] = [];
  family: RouteFamily = 'engine';
  id: string | undefined;
  type: string | undefined;
  forward: string | undefined;
  forwardPieces: TextPieces | undefined;
  parsed: unknown;
  bulk?: readonly BulkEntry[];
  expandsHidden = false;
  namesPipeline = false;
  pointInTime: 'decoded' | 'opaque' | undefined;

  constructor(
    readonly method: string,
    readonly params: ReadonlyMap<string, string>,
    private readonly rawBody: Buffer | string | undefined,
    /** The path's segments; a request may be written in its explicit form (see `writtenAs`). */
    private segments: readonly string[],
    readonly prepared?: PreparedBody,
  ) {}

  /** The same request with the path's implicit parts spelled out (`/_cluster/state` is `/_cluster/state/_all`), so that a list can follow. */
  writtenAs(segments: readonly string[]): void {
    this.segments = segments;
  }

  /** A named cluster privilege the request needs (see Classification.clusterPrivileges). */
  needs(privilege: ClusterPrivilege): void {
    if (!this.privileges.includes(privilege)) this.privileges.push(privilege);
  }

  /** The body, for a reader: asking for it is what makes the classifier need it. */
  get body(): Buffer | string | undefined {
    this.readsBody = true;
    return this.rawBody;
  }

  get op(): Operation {
    return methodOperation(this.method);
  }

  get hasPathIndex(): boolean {
    return this.pathExpressions.length > 0;
  }

  /** The index expressions the path named so far. */
  get pathList(): readonly string[] {
    return [...this.pathExpressions];
  }

  get streaming(): boolean {
    return booleanFlag(this.params, 'stream') || booleanFlag(this.params, 'streamonly');
  }

  /**
   * A path segment that holds index expressions (a comma list); `segment` is its position when a
   * narrowed list may take its place (the request's primary index list). `single`: the segment is
   * one name, read whole; `itemsDefault`: a list read as one name by each body item that takes it.
   */
  pathIndex(list: string, segment?: number, operation?: Operation, single = false, itemsDefault = false): void {
    if (!this.slot && segment !== undefined) this.slot = single || itemsDefault ? { segment, insert: false, single: true } : { segment, insert: false };
    const expressions = single ? namesOf(list) : splitExpressions(list);
    this.pathLists.push(expressions);
    for (const e of expressions) {
      this.add(e, 'path');
      this.pathExpressions.push(e);
      if (operation) this.addOperation(e, operation);
    }
  }

  /** A parameter that names indices. */
  queryIndex(list: string): void {
    for (const e of splitExpressions(list)) this.add(e, 'query');
  }

  /**
   * Every index, named by no expression (bare `/_search`). `insertAt`: where a narrowed list may be
   * placed in the path (`/{list}/_search`); without it the request cannot be narrowed.
   */
  everyIndex(insertAt?: number, holds?: 'aliases'): void {
    this.allIndices = true;
    if (insertAt === undefined) this.narrowable = false;
    else if (!this.slot) this.slot = holds ? { segment: insertAt, insert: true, holds } : { segment: insertAt, insert: true };
  }

  /** Body targets; an item without an index falls back to the path's expressions, or to every index. */
  bodyTargets(targets: Iterable<BodyTarget>, perIndex: boolean): void {
    const steps = this.bodyTargetSteps(targets, perIndex);
    while (!steps.next().done);
  }

  /**
   * `bodyTargets` as steps: a `yield` after each TARGETS_PER_STEP targets, so that a caller that
   * runs them cooperatively (`classifyRouteCooperatively`) lets the event loop in between.
   */
  *bodyTargetSteps(targets: Iterable<BodyTarget>, perIndex: boolean): Generator<void, void, void> {
    if (perIndex) this.mixed = true;
    let i = 0;
    for (const t of targets) {
      if (i++ % TARGETS_PER_STEP === TARGETS_PER_STEP - 1) yield;
      if (t.expression === null) {
        if (!this.hasPathIndex) this.everyIndex();
        else if (perIndex) for (const e of this.pathExpressions) this.addOperation(e, t.operation);
        continue;
      }
      this.add(t.expression, 'body');
      if (perIndex) this.addOperation(t.expression, t.operation);
    }
  }

  markMixed(): void {
    this.mixed = true;
  }

  /** An API this classifier does not know: classified by its shape, refused for scoped credentials. */
  unknown(): void {
    this.known = false;
  }

  /** The request acts on indices it does not name (RouteAuth.unnamedIndices): every index, one created since the check among them — `_all` as if written. */
  actsOnUnnamedIndices(): void {
    this.add('_all', 'body');
  }

  addOperation(expression: string, operation: Operation): void {
    this.mixed = true;
    let seen = this.operated.get(operation);
    if (seen === undefined) this.operated.set(operation, (seen = new Set()));
    if (seen.has(expression)) return;
    seen.add(expression);
    this.perIndex.push({ expression, operation });
  }

  private add(expression: string, from: ExpressionSource['from']): void {
    // A name holding a path separator is no index (Elasticsearch refuses it at creation and
    // resolution alike); read here as one name, it would be another path to anything that decoded
    // it again. Date math (`<logs-{now/d}>`) is resolved, not read as a name.
    // So is a name holding a comma (only a slot of one name can hold one: a list is split at its
    // commas): it would be a list to anything that joined names into a path again.
    if (!expression.startsWith('<') && (expression.includes('/') || expression.includes('\\') || expression.includes(','))) {
      throw new EsError(400, 'invalid_index_name_exception', `Invalid index name [${expression}], must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]`, { index_uuid: '_na_', index: expression });
    }
    const bit = SOURCE_BITS[from];
    const named = this.listed.get(expression);
    if (named === undefined) {
      this.listed.set(expression, bit);
      this.indices.push(expression);
      this.sources.push({ expression, from });
    } else if ((named & bit) === 0) {
      this.listed.set(expression, named | bit);
      this.sources.push({ expression, from });
    }
    if (expression === '_all' || (expression.charCodeAt(0) === 42 /* * */ && /^\*+$/.test(expression))) this.allIndices = true;
  }

  done(category: Category, operation: Operation, action: string): Classification {
    if (this.namesPipeline) this.needs('manage_pipeline');
    // changing the cluster (settings, snapshots, nodes…) is the admin's, unless a named privilege covers it
    if (category === 'cluster' && operation !== 'read' && !this.privileges.length) this.needs('manage');
    const out: Classification = {
      family: category === 'streams' ? 'stream' : this.family,
      category,
      operation,
      action,
      indices: this.indices,
      allIndices: this.allIndices,
      sources: this.sources,
      segments: this.segments,
      readsBody: this.readsBody,
      known: this.known,
      expandsHidden: this.expandsHidden || expandsHiddenParam(this.params),
    };
    if (this.mixed) out.perIndex = this.perIndex;
    if (this.id !== undefined) out.id = this.id;
    if (this.type !== undefined) out.type = this.type;
    if (this.forward !== undefined) out.forward = this.forward;
    if (this.forwardPieces !== undefined) out.forwardPieces = this.forwardPieces;
    if (this.parsed !== undefined) out.parsed = this.parsed;
    if (this.bulk !== undefined) out.bulk = this.bulk;
    if (this.slot && this.narrowable) out.slot = this.slot;
    if (this.pathLists.length) out.pathLists = this.pathLists;
    if (this.privileges.length) out.clusterPrivileges = [...this.privileges];
    return out;
  }
}

/**
 * The reads of an index's metadata that its readers hold too: its mappings (and a field's), its
 * statistics, its line in `_cat/indices` and its `_cat/count` — Elasticsearch's
 * `view_index_metadata` and `monitor` index privileges, which roles that read an index are given
 * in practice (a search UI needs the fields it searches; appbase-js's `getMappings()` asks for
 * them). Classified `indices` (index administration holds them), and granted as well to a
 * credential with `search`, on its own indices only: they are narrowed and checked like any index
 * read. `_cat/shards` (node addresses) and `_settings` stay the index administrator's. Read from
 * the request value's route (the one table's match), not its path.
 */
export function readsIndexMetadata(req: Pick<GatewayRequest, 'route' | 'method' | 'info'>): boolean {
  const c = req.info;
  if (c.category !== 'indices' || c.operation !== 'read' || c.perIndex?.length) return false;
  // a table: the index lines and counts only (OpenSearch's `_list/indices` pages `_cat/indices`;
  // `_list/shards`, `_cat/shards`'s node addresses, stays the index administrator's)
  if (answersTable(req.route)) return READER_TABLES.has(req.route);
  // `HEAD /{index}`: whether the index exists, which clients ask before using one (Elasticsearch's
  // view_index_metadata holds it); `GET /{index}` shows settings too, which stay `indices`
  if (c.action === 'indices:admin/get') return req.route === 'indices.get' && req.method === 'HEAD';
  return INDEX_METADATA_READS.has(c.action);
}

/** The `_cat` and `_list` tables an index's readers hold. */
const READER_TABLES = new Set(['cat.indices', 'cat.count', 'opensearch.list_indices']);

const INDEX_METADATA_READS = new Set(['indices:admin/mappings/get', 'indices:admin/mappings/fields/get', 'indices:monitor/stats']);
