import type { BulkEntry } from '../ndjson/index.js';
/** What a request is, for access control: which indices it reaches, in which category, how. */

export type Category =
  | 'docs'
  | 'search'
  | 'indices'
  | 'streams'
  | 'declarative'
  | 'pipelines'
  | 'credentials'
  | 'rules'
  | 'searchrelevancy'
  | 'cache'
  | 'analytics'
  | 'logs'
  | 'cluster';

export type Operation = 'read' | 'write' | 'delete';

export const CATEGORIES: readonly Category[] = [
  'docs', 'search', 'indices', 'streams', 'declarative', 'pipelines', 'credentials', 'rules', 'searchrelevancy', 'cache', 'analytics', 'logs', 'cluster',
];
export const OPERATIONS: readonly Operation[] = ['read', 'write', 'delete'];

/**
 * Named cluster-level rights, each admin-equivalent for what it names (cluster resources are
 * shared by all tenants): `manage` covers every other one, as in Elasticsearch.
 */
export const CLUSTER_PRIVILEGES = [
  'manage', 'manage_pipeline', 'manage_index_templates', 'manage_search_synonyms', 'manage_search_query_rules', 'manage_scripts',
] as const;
export type ClusterPrivilege = (typeof CLUSTER_PRIVILEGES)[number];

export interface ExpressionSource {
  expression: string;
  /**
   * `query`: a parameter naming indices (`index=`); like a body's, never narrowed. `template`: a
   * stored search template's rendered body names it — authorized like a body's, but the caller did
   * not write it, so a refusal never names it (it would tell a tenant what another's template reads).
   */
  from: 'path' | 'body' | 'query' | 'template';
}

export interface ExpressionOperation {
  expression: string;
  operation: Operation;
}

/**
 * Which part of the gateway answers a request: the engine (the thin path, or a feature wrapping
 * an engine call), a live stream, the app-addressed style, or one of the gateway's own APIs.
 */
export type RouteFamily = 'engine' | 'stream' | 'app' | 'apps' | 'declarative' | 'pipelines' | 'credentials' | 'gateway';

/** Where an index list sits in the path, so that a narrowed list can take its place. */
export interface IndexSlot {
  /** Position among the path's segments. */
  segment: number;
  /** True when the path has no list there yet (`/_search`, `/_cat/indices`): the list is inserted. */
  insert: boolean;
  /**
   * What the slot lists: indices, or (`/_cat/aliases/{name}`) aliases — narrowed to the aliases
   * whose every index the credential may see.
   */
  holds?: 'aliases';
  /**
   * True when the slot holds one name, not a list (`/{index}/_doc/{id}`, `/{index}/_explain/{id}`),
   * or the default index of a body's items, which each reads as one (`/{index}/_mget`, `_bulk`):
   * a wildcard there expands to nothing, so no list of exclusions may be written in its place.
   */
  single?: true;
}

export interface Classification {
  family: RouteFamily;
  category: Category;
  /** The request's operation; for mixed requests (`perIndex` present) the strongest write-side one. */
  operation: Operation;
  /** The ES action name for 403 messages, e.g. "indices:data/read/search", "cluster:monitor/health". */
  action: string;
  /**
   * Index expressions the request names, each as written (names, aliases, wildcards, `_all`,
   * `-excluded`), from the path and from bodies, without duplicates. An index name present in a
   * body but unreadable (not a string, or a body that is not JSON) is reported as `*`.
   */
  indices: string[];
  /** True when the request addresses every index (bare `/_search`, `/_all/…`, `*`, a `_bulk` item with no index…). */
  allIndices: boolean;
  /** Where each expression came from, to rewrite it later. One entry per (expression, from). */
  sources: ExpressionSource[];
  /**
   * Operation per expression for mixed requests (`_bulk`, `_reindex`, resize, rollover): when
   * present it is authoritative, one entry per (expression, operation).
   */
  perIndex?: ExpressionOperation[];
  /**
   * The index lists of the path, each in order as written (duplicates kept): where an exclusion
   * stands among a list's wildcards, which `indices` (de-duplicated across lists) cannot say.
   */
  pathLists?: ReadonlyArray<readonly string[]>;
  /** The path's segments, percent-decoded, empty ones dropped. */
  segments: readonly string[];
  /** The document id, for single-document requests. */
  id?: string;
  /** The app-addressed type (`/{app}/{type}/…`). */
  type?: string;
  /** The request's body says what it reaches: the classifier must read it (and did, if given one). */
  readsBody: boolean;
  /**
   * The body as the classifier read it, rebuilt (NDJSON lines, JSON re-serialized): what goes on to
   * the engine instead of the bytes as sent. Undefined when the body was not read.
   */
  forward?: string;
  /**
   * A large JSON body written anew, as the pieces it was written in (`text` their concatenation):
   * a sender encodes them one at a time (forwardedPieces) instead of all of the text at once,
   * which would first copy it whole into one flat string. They stand for `forward` only while it
   * is that very text: a step that changes `forward` leaves them behind.
   */
  forwardPieces?: TextPieces;
  /**
   * A large JSON body as the classifier parsed it, when `forward` says exactly that value: an
   * in-process engine may take it instead of parsing `forward` again (EngineRequest.json). Handed
   * over with the request: whoever forwards it gives it up.
   */
  parsed?: unknown;
  /**
   * A large `_bulk` body's items as the classifier read them (from the pieces the body was decoded
   * in), which `forward` says exactly: later readers (field rules, change capture, an in-process
   * engine) take them instead of reading `forward` again, which would make the 50 MB text one
   * string (a quarter of a second in one piece).
   */
  bulk?: readonly BulkEntry[];
  /** False for an API the classifier does not know: refused for scoped credentials. */
  known: boolean;
  /**
   * Wildcards expand to hidden indices too: `expand_wildcards` (the URL's, decoded, or an
   * `_msearch` header's) includes `all` or `hidden`.
   */
  expandsHidden: boolean;
  /**
   * Where the path's index list is, when a wildcard or every-index request can be narrowed to the
   * indices a credential may see; absent when it cannot be (the indices are then checked strictly).
   */
  slot?: IndexSlot;
}

/** What the classifier needs of a request: its target as the edge decoded it (`requestTarget`), never the text as sent. */
export interface ClassifiableRequest {
  method: string;
  /** The path's decoded segments (`RequestTarget.segments`). */
  segments: readonly string[];
  /** The decoded query parameters (`RequestTarget.params`). */
  params: ReadonlyMap<string, string>;
  body?: Buffer | string;
  /** The body read ahead by a caller that can wait (see `PreparedBody`). */
  prepared?: PreparedBody;
}

/**
 * A large body read ahead of the classifier, cooperatively (lib/server/classify does it, so that
 * tens of megabytes do not hold the event loop in one piece), by the same readers the classifier
 * uses: the classifier takes what it finds here instead of reading the text again.
 */
export interface PreparedBody {
  /** A `_bulk` body's items (lib/ndjson's bulk reader). */
  bulk?: readonly BulkEntry[];
  /** A JSON body: its value, read within Elasticsearch's limits, and the text to forward for it. */
  /** `exact`: `forward` says exactly what `value` holds (no integer a JS number rounded). */
  /** `forwardPieces`: `forward` as the pieces it was written in, when it was written anew. */
  json?: { value: unknown; forward: string; exact: boolean; forwardPieces?: TextPieces };
}

/** A text and the pieces it is the concatenation of. */
export interface TextPieces {
  readonly text: string;
  readonly pieces: readonly string[];
}
