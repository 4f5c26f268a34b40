import type { BulkEntry } from '../../../ndjson/index.js';
import type { ReadableText } from '../../../cooperative/index.js';
import type { ApiDialect } from './dialect.js';
import type { IndexAccess } from '../access/index.js';
import type { ClusterSettings } from '../cluster-settings/index.js';
import type { IngestPipelines } from '../ingest/index.js';
import type { Indices } from '../indices/index.js';
import type { LocalNode } from '../node/index.js';
import type { QueryRules } from '../query-rules/index.js';
import type { SearchPipelines } from '../search-pipelines/index.js';
import type { IsmPolicies, ManagementJobs } from '../index-state-management/index.js';
import type { LtrStores } from '../learning-to-rank/index.js';
import type { StoredScripts } from '../scripts/index.js';
import type { TaskManager } from '../tasks/index.js';
import type { EsRouteId } from '../../../request/index.js';
import type { UrlParams } from './params.js';

/** A request as a REST handler sees it: decoded path parameters, URL parameters, the body as text. */
export interface RestRequest {
  method: string;
  /** Percent-encoded path as received, for messages ("request [/x] contains …"). */
  path: string;
  querystring: string;
  pathParams: Record<string, string>;
  /** The route table's pattern the request matched (`/_ltr/{store}/_feature/{name}`): what a handler serving several reads of its literal parts. */
  pattern?: string;
  /** The URL parameters, decoded once at the edge. */
  params: UrlParams;
  headers: Record<string, string | string[] | undefined>;
  /** The body, decoded as UTF-8 ('' when there is none). */
  body: string;
  /** The body already parsed by the caller, saying exactly what `body` says (EngineRequest.json). */
  json?: unknown;
  /** A `_bulk` body's items as the caller read them, saying exactly what `body` says (`readBulkItems`). */
  bulk?: readonly BulkEntry[];
  /** A large streamed body as the pieces it was decoded in, which `body` concatenates (a `_bulk` is read from them). */
  bodyPieces?: ReadableText;
  started: number;
}

export interface RestResponse {
  status: number;
  /** A JSON value, or text (for _cat), or undefined (HEAD-style answers). */
  body?: unknown;
  text?: string;
  /** A binary answer (a `_cat` table as CBOR or Smile), sent as it is with the content type `headers` give. */
  bytes?: Buffer;
  headers?: Record<string, string>;
}

export interface EngineContext {
  indices: Indices;
  /** Query rulesets: the query rules API, and what `rule` queries read. */
  queryRules: QueryRules;
  /** Stored scripts: the `_scripts` API, stored search templates, and (through `get`) any script reference by id. */
  storedScripts: StoredScripts;
  /** Ingest pipelines: the `_ingest` API, and what writes run (`pipeline=`, default and final pipelines). */
  ingestPipelines: IngestPipelines;
  /** Search pipelines (OpenSearch): the `_search/pipeline` API, and what searches run (`search_pipeline`, `index.search.default_pipeline`). */
  searchPipelines: SearchPipelines;
  /** The Index State Management plugin's policies and managed indices (`_plugins/_ism`). */
  ism: IsmPolicies;
  /** The Learning to Rank plugin's feature stores (`_ltr`). */
  ltr: LtrStores;
  /** The index-management plugin's rollup and transform jobs (`_plugins/_rollup`, `_plugins/_transform`). */
  jobs: ManagementJobs;
  /** The cluster's dynamic settings (`_cluster/settings`). */
  clusterSettings: ClusterSettings;
  /** The one node the engine is: identity and live figures for the node-level APIs. */
  node: LocalNode;
  /** Running tasks and stored results of background tasks (`_tasks`, by-scroll operations). */
  tasks: TaskManager;
  nodeName: string;
  clusterName: string;
  clusterUuid: string;
  /** Whose answers differing parts get (dialect.ts); unset: `auto`. */
  apiDialect?: ApiDialect;
  /** `search.default_search_timeout` in ms, for searches that name no `timeout` (-1: none); unset: DEFAULT_SEARCH_TIMEOUT_MS. */
  defaultSearchTimeoutMs?: number;
  /**
   * The rights of the request this context serves, when it carries some (EngineRequest.access):
   * `indices` is then a view that checks them (authorizedContext); this is for the few checks
   * outside it (a point in time's frozen indices). Absent: unrestricted.
   */
  access?: IndexAccess;
  /** Told when the request names a field its field rules hide (views made outside `indices`: a point in time's). */
  onHiddenField?: () => void;
}

export type Handler = (req: RestRequest, ctx: EngineContext) => Promise<RestResponse> | RestResponse;

/** The engine's handler of one API of the route table (lib/request's `ES_API`), which says its paths and parameters. */
export interface Route {
  id: EsRouteId;
  handler: Handler;
}
