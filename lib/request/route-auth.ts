import type { Category, ClusterPrivilege, Operation } from './request-info.js';

/**
 * How a route's body names indices: each is one reader of lib/auth's classifier, which reads the
 * body as the engine will (and throws the engine's 400 for a body the engine would refuse).
 * - `search`: a search body's lookups (terms lookup, `more_like_this`, indexed shapes, a `pit`).
 * - `docs`: `docs[]._index` of `_mget` / `_mtermvectors`.
 * - `termvectors`: the `_index` of a `_termvectors` body (one document of `_mtermvectors`).
 * - `bulk`: each action line's `_index`, with its operation; the request deletes only when every item does.
 * - `msearch`, `msearch_template`: each header line's `index`, and each body's lookups.
 * - `search_template`: a template's rendered body (or `*` when it cannot be rendered).
 * - `reindex`: `source.index` read, `dest.index` written (and `dest.pipeline`).
 * - `index_creation`: the aliases a new index gets, their filters' lookups, pipelines its settings set.
 * - `settings`: the pipelines a settings body sets.
 * - `alias_actions`: each `_aliases` action's indices and aliases, with its operation.
 * - `alias_body`: the indices and alias a put-alias body names (`index`, `alias`: they replace the path's), its filter's lookups.
 * - `close_pit`: the indices of the point in time `DELETE /_pit` closes.
 * - `pit_ids`: the indices of each point in time OpenSearch's `DELETE /_search/point_in_time` and `_cat/pit_segments` name (`pit_id`).
 * - `index_template`: the index patterns and aliases a template applies to.
 * - `painless_context`: the index a script runs in the context of.
 * - `credentials`: the indices a credential written may reach.
 * - `declarative`: the indices a declarative (ReactiveSearch) query's components name.
 * - `reroute`, `allocation_explain`: the index a cluster reroute command writes, an allocation explanation reads.
 * - `management_job`: the source index an OpenSearch rollup or transform job (or a transform's preview) reads, its target index.
 */
export type BodyReader =
  | 'search' | 'docs' | 'termvectors' | 'bulk' | 'msearch' | 'msearch_template' | 'search_template' | 'reindex'
  | 'index_creation' | 'settings' | 'alias_actions' | 'alias_body' | 'close_pit' | 'pit_ids' | 'index_template' | 'painless_context' | 'credentials'
  | 'declarative' | 'reroute' | 'allocation_explain' | 'management_job' | 'upload_index';

/**
 * What a route does, for authorization: read from the route table's entry once the request has
 * matched it (same match, same decoded path parameters as the engine's router), never from a
 * second reading of the path.
 */
export interface RouteAuth {
  readonly category: Category;
  /** The operation, when the route's is not the method's (GET/HEAD read, DELETE delete, anything else write). */
  readonly operation?: Operation;
  /** Elasticsearch's action name, or one per operation. */
  readonly action: string | Readonly<Partial<Record<Operation, string>>>;
  /**
   * The path parameter holding the request's index list (default `index`), which a narrowed list
   * may replace. A path of the route without it addresses every index: `every` says where a
   * narrowed list goes then (a segment position), or `strict` when it cannot be narrowed.
   * Absent `every`: such a path names its indices elsewhere (a body), or none.
   */
  readonly index?: string;
  readonly every?: number | 'strict';
  /**
   * A path without the index list takes the `index` parameter's instead (`POST
   * /_cache/clear?index=…`, as Elasticsearch's and OpenSearch's `request.param("index")` read
   * either, the embedded engine alike): such a request is on those indices, not on every index;
   * the parameter's expressions are checked, never narrowed, as any parameter naming indices.
   */
  readonly indexParam?: true;
  /**
   * Other path parameters that name indices or aliases (`{name}` of `/_alias/{name}`, the
   * `{target}` of a resize): checked, never narrowed. `true`: with the request's operation; an
   * operation: that one, for that index (a mixed request, like `_bulk`).
   */
  readonly names?: Readonly<Record<string, true | Operation>>;
  /**
   * Path parameters that hold one name, not a comma list (an alias being put, a data stream being
   * created): read whole, a comma included, as the engine reads them. A route with a document id
   * (`/{index}/_doc/{id}`) reads its index parameter so too.
   */
  readonly single?: readonly string[];
  /**
   * The index parameter is the default index of the body's items (`/{index}/_mget`, `/{index}/_bulk`):
   * read as a list, as the classifier must see every expression, but each item takes it as one name,
   * so no list of exclusions may be written in its place (the engine would echo it in an item's error).
   */
  readonly itemsDefault?: true;
  /**
   * Path parameters naming an index the request creates (a rollover's `{new_index}`, a resize's
   * `{target}`): a name, never an expression — one that is no valid index name (a wildcard, a list)
   * is refused as Elasticsearch refuses it, before it is read as a pattern that matches nothing.
   */
  readonly creates?: readonly string[];
  /** The operation on the index list itself when the request is mixed (a resize reads its source, a rollover writes its alias). */
  readonly sourceOperation?: Operation;
  /** The path parameter holding a document id. */
  readonly id?: string;
  /** The path parameter holding the app-addressed style's type (`{type}` of `/{app}/{type}/{id}`). */
  readonly type?: string;
  /**
   * `false`: no API the gateway knows — the table's answer for a path none of its routes takes
   * (`unknownRoute`). Classified by its shape, refused for scoped credentials ("unknown means
   * refused"), forwarded for the admin.
   */
  readonly known?: false;
  readonly body?: BodyReader;
  /** The body's targets carry their own operations (a mixed request). */
  readonly bodyPerIndex?: boolean;
  /**
   * A `pit` in the body replaces the index list (it reads the point in time's indices, not every
   * index); a point in time the gateway cannot decode leaves the request unknown.
   */
  readonly pointInTime?: boolean;
  /** `stream=true` (or `streamonly`) makes it a live stream: for `GET` only, or for any method. */
  readonly streams?: 'GET' | 'any';
  /**
   * A named cluster privilege the route needs besides its category (a cluster-level resource
   * shared by every tenant: pipelines, templates, scripts, synonyms, query rules). A cluster-level
   * change that names none needs `manage`.
   */
  readonly privilege?: ClusterPrivilege;
  /**
   * `level=indices|shards` breaks a cluster-level answer down by index: `narrowed` — only then
   * does it address every index (narrowed at `every`); `manage` — it then needs `manage`, as it
   * does when `fields`, `fielddata_fields`, `completion_fields` or `groups` break it down by the
   * fields or search groups of every index.
   */
  readonly perIndexLevel?: 'narrowed' | 'manage';
  /**
   * The request acts on indices it does not name — the Flow Framework's provisioning, whose stored
   * template's steps create and delete indices the gateway cannot see: every index, one created
   * since the check among them (`_all` as written), never narrowed. `true`: always; parameter
   * names: when one of these boolean parameters is set (anything but `false`).
   */
  readonly unnamedIndices?: true | readonly string[];
  /** What every index's list holds when `every` narrows it: aliases (`_cat/aliases`), narrowed to those whose every index the credential sees. */
  readonly everyHolds?: 'aliases';
  /** The path's explicit form when it is shorter (`/_cluster/state` is `/_cluster/state/_all`), so that a narrowed list can follow. */
  readonly explicit?: readonly string[];
}
