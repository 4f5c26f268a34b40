import { TimeSlice } from '../../cooperative/index.js';
import { validateIndexName } from '../../request/index.js';
import type { BodyReader, Classification, ClassifiableRequest, Operation, RouteAuth, RouteMatch } from '../../request/index.js';
import {
  aliasActionTargets,
  aliasBodyTargets,
  bulkTargets,
  closePointInTimeTargets,
  credentialTargets,
  declarativeTargets,
  docsTargets,
  termVectorsTargets,
  indexCreationTargets,
  indexTemplateTargets,
  msearchTargets,
  namedIndexTargets,
  uploadIndexTargets,
  painlessContextTargets,
  reindexTargets,
  managementJobTargets,
  searchBodyTargets,
  settingsTargets,
  templateBodyTargets,
  type BodyTarget,
} from './body-indices.js';
import { methodOperation, startClassifying, type Classifying } from './classifying.js';

/**
 * Parameters that break a node-level answer down by field or search group (`_nodes/stats`'s
 * `fields`, `fielddata_fields`, `completion_fields`, `groups`): Elasticsearch names there every
 * field whose field data is loaded and every search group, of every index.
 */
const PER_FIELD_PARAMS = ['fields', 'fielddata_fields', 'completion_fields', 'groups'];

/**
 * A request classified by its route in the one route table: the entry's authorization metadata
 * (`RouteAuth`) read with the path parameters the table matched — the same match the embedded
 * engine's router makes — and the body read by the entry's reader. Every route of the table has
 * metadata, and a path none of them takes reaches the table's unknown route (`findRoute`): nothing
 * else reads the path.
 */
export function classifyRoute(req: ClassifiableRequest, match: RouteMatch): Classification {
  const steps = classifySteps(req, match);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * `classifyRoute` for a large body read ahead (a credential naming 100,000 index patterns): the
 * same classification, its body's targets taken a time slice at a time, the event loop getting a
 * turn whenever the slice is used up.
 */
export async function classifyRouteCooperatively(req: ClassifiableRequest, match: RouteMatch): Promise<Classification> {
  const steps = classifySteps(req, match);
  const slice = new TimeSlice();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await slice.pause();
  }
}

/** The classification, as work that stops (yields) now and then while it takes a body's targets. */
function* classifySteps(req: ClassifiableRequest, match: RouteMatch): Generator<void, Classification, void> {
  const { route, slots } = match;
  const auth = route.owner === 'gateway' ? route.route.auth : route.auth;
  const c = startClassifying(req);
  if (auth.known === false) c.unknown();
  // who answers it: the engine, or the gateway API's module
  if (route.owner === 'gateway') c.family = route.route.family;
  if (auth.explicit && req.segments.length < auth.explicit.length) c.writtenAs(auth.explicit);
  if (auth.privilege) c.needs(auth.privilege);
  const unnamed = auth.unnamedIndices;
  if (unnamed === true || unnamed?.some((name) => req.params.has(name) && req.params.get(name) !== 'false')) c.actsOnUnnamedIndices();
  const level = req.params.get('level');
  const perIndexLevel = level === 'indices' || level === 'shards';
  // a breakdown by index, or by field or search group of every index (nodes stats' `fields`, `groups`…): names what other tenants hold
  if (auth.perIndexLevel === 'manage' && (perIndexLevel || PER_FIELD_PARAMS.some((p) => req.params.has(p)))) c.needs('manage');
  // without an index in the path: every index (per index only, for a cluster-level answer broken down by index)
  const every = auth.perIndexLevel === 'narrowed' && !perIndexLevel ? undefined : auth.every;
  const indexParam = auth.index ?? 'index';
  const list = pathParam(req, slots, indexParam);
  // a path without its list whose `index` parameter gives one: on those indices, not on every index
  const namedByParam = list === undefined && auth.indexParam === true && req.params.has('index');
  // a document's index is one name (`/{index}/_doc/{id}`), as are the parameters the route says are
  const single = (name: string) => (name === indexParam && auth.id !== undefined) || (auth.single?.includes(name) ?? false);
  if (list !== undefined) c.pathIndex(list, slots[indexParam], auth.sourceOperation, single(indexParam), auth.itemsDefault);
  let named = false;
  // a name the request creates is a name: date math resolves to one, anything else must be one
  if (auth.creates) {
    for (const name of auth.creates) {
      const value = pathParam(req, slots, name);
      if (value !== undefined && !(value.startsWith('<') && value.endsWith('>'))) validateIndexName(value);
    }
  }
  if (auth.names) {
    for (const [name, operation] of Object.entries(auth.names)) {
      const value = pathParam(req, slots, name);
      if (value === undefined) continue;
      named = true;
      c.pathIndex(value, undefined, operation === true ? undefined : operation, single(name));
    }
  }
  if (auth.id !== undefined) c.id = pathParam(req, slots, auth.id);
  if (auth.type !== undefined) c.type = pathParam(req, slots, auth.type);
  let operation = auth.operation ?? methodOperation(c.method);
  if (auth.body) {
    const targets = readBody(c, auth.body);
    if (auth.body === 'bulk' && Array.isArray(targets) && targets.length > 0 && targets.every((t) => t.operation === 'delete')) operation = 'delete';
    // without an index in the path: every index — unless the body searches a point in time, whose indices it names
    if (list === undefined && !named && !namedByParam && every !== undefined && !(auth.pointInTime && c.pointInTime !== undefined)) everyIndex(c, every, auth);
    yield* c.bodyTargetSteps(targets, auth.bodyPerIndex === true);
  } else if (list === undefined && !named && !namedByParam && every !== undefined) everyIndex(c, every, auth);
  if (auth.pointInTime && c.pointInTime === 'opaque') c.unknown();
  const streams = auth.streams !== undefined && c.streaming && (auth.streams === 'any' || c.method === auth.streams);
  return c.done(streams ? 'streams' : auth.category, operation, actionOf(auth, operation));
}

/** The path segment a parameter of the matched pattern took, if the pattern has it. */
function pathParam(req: ClassifiableRequest, slots: Readonly<Record<string, number>>, name: string): string | undefined {
  const at = slots[name];
  return at === undefined ? undefined : req.segments[at];
}

function everyIndex(c: Classifying, every: number | 'strict', auth: RouteAuth): void {
  if (every === 'strict') c.everyIndex();
  else c.everyIndex(every, auth.everyHolds);
}

function actionOf(auth: RouteAuth, operation: Operation): string {
  if (typeof auth.action === 'string') return auth.action;
  const action = auth.action[operation];
  if (action === undefined) throw new Error(`route table: no action for ${operation}`);
  return action;
}

/**
 * The targets the entry's body reader finds (reading the body makes the request need it: `readsBody`):
 * a list, or for a credential's patterns one at a time as they are taken.
 */
function readBody(c: Classifying, reader: BodyReader): readonly BodyTarget[] | Iterable<BodyTarget> {
  switch (reader) {
    case 'search':
      return searchBodyTargets(c.body, c);
    case 'docs':
      return docsTargets(c.body, c);
    case 'termvectors':
      return termVectorsTargets(c.body, c);
    case 'bulk':
      return bulkTargets(c.body, c);
    case 'msearch':
    case 'msearch_template': {
      const targets = msearchTargets(c.body, c, reader === 'msearch_template');
      if (c.pointInTime === 'opaque') c.unknown();
      return targets;
    }
    case 'search_template':
      return templateBodyTargets(c.body, c);
    case 'reindex':
      return reindexTargets(c.body, c);
    case 'management_job':
      return managementJobTargets(c.body, c);
    case 'index_creation':
      return indexCreationTargets(c.body, c);
    case 'settings':
      return settingsTargets(c.body, c);
    case 'alias_actions':
      return aliasActionTargets(c.body, c);
    case 'alias_body':
      return aliasBodyTargets(c.body, c);
    case 'index_template':
      return indexTemplateTargets(c.body, c);
    case 'painless_context':
      return painlessContextTargets(c.body, c);
    case 'credentials':
      return credentialTargets(c.body, c);
    case 'declarative':
      return declarativeTargets(c.body);
    case 'reroute':
      return namedIndexTargets(c.body, c, 'write');
    case 'allocation_explain':
      return namedIndexTargets(c.body, c, 'read');
    case 'upload_index':
      return uploadIndexTargets(c.body, c);
    case 'close_pit':
    case 'pit_ids': {
      const targets = closePointInTimeTargets(c.body, c, reader === 'pit_ids' ? 'pit_id' : 'id');
      if (c.pointInTime === 'opaque') c.unknown();
      return targets;
    }
    default: {
      const unknown: never = reader;
      throw new Error(`route table: no body reader ${String(unknown)}`);
    }
  }
}
