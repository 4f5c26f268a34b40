import { expect } from 'chai';
import { call, ndjson, NDJSON } from '../support/http.js';

/** What a client's run is given: its own name prefix (so clients share one gateway), its main index, the gateway. */
export interface RunContext {
  /** Every index, alias, template, script and pipeline of this client's run starts with it. */
  p: string;
  /** The main fixture index: documents 1, 2, 3 (title, year), refreshed. */
  ix: string;
  url: string;
}

/**
 * How one API is called harmlessly: its arguments (path parts, query parameters, `body`, in the
 * form every client accepts), what it needs created first, and what its answer must show.
 */
export interface Fixture {
  args?: Record<string, unknown>;
  /** Creates what the call needs. */
  setup?: () => Promise<unknown>;
  /** Creates what the call needs and answers arguments of the call (a scroll id, a task id). */
  prepare?: () => Promise<Record<string, unknown>>;
  check?: (answer: any) => void;
}

async function ok(url: string, method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  const r = await call(url, method, path, { body, headers });
  expect(r.status, `${method} ${path}: ${r.text}`).to.be.below(300);
  return r.json;
}

const MAPPING = { properties: { title: { type: 'text', fields: { keyword: { type: 'keyword' } } }, year: { type: 'integer' }, tag: { type: 'keyword' } } };
export const DOCS = [
  { title: 'Dune', year: 1965, tag: 'sf' },
  { title: 'Emma', year: 1815, tag: 'novel' },
  { title: 'Dune Messiah', year: 1969, tag: 'sf' },
];

/** The main index, and what the run's calls read. */
export async function createFixtures(c: RunContext): Promise<void> {
  await ok(c.url, 'PUT', `/${c.ix}`, { mappings: MAPPING });
  await ok(c.url, 'POST', `/_bulk?refresh=true`, ndjson(DOCS.flatMap((d, i) => [{ index: { _index: c.ix, _id: String(i + 1) } }, d])), NDJSON);
  await ok(c.url, 'PUT', `/_scripts/${c.p}-script`, { script: { lang: 'mustache', source: { query: { match: { title: '{{q}}' } } } } });
  await ok(c.url, 'PUT', `/_ingest/pipeline/${c.p}-pipeline`, { processors: [{ set: { field: 'seen', value: true } }] });
  await ok(c.url, 'PUT', `/_index_template/${c.p}-template`, { index_patterns: [`${c.p}-tpl-*`], template: { settings: { number_of_shards: 1 } } });
  await ok(c.url, 'PUT', `/_component_template/${c.p}-component`, { template: { settings: { number_of_shards: 1 } } });
  await ok(c.url, 'PUT', `/_template/${c.p}-legacy`, { index_patterns: [`${c.p}-legacy-*`], settings: { number_of_shards: 1 } });
  await ok(c.url, 'PUT', `/${c.ix}/_alias/${c.p}-alias`);
}

/** A fresh index of this run's own, for a call that changes or removes it. */
/** The SQL plugin's metrics: a client hands its text/plain answer over as a string. */
const sqlMetrics = (a: unknown): Record<string, unknown> => (typeof a === 'string' ? JSON.parse(a) : a) as Record<string, unknown>;
const index = (c: RunContext, name: string, body: unknown = { mappings: MAPPING }) => () => ok(c.url, 'PUT', `/${name}`, body).then(() => undefined);

const RULE = (id: string) => ({ rule_id: id, type: 'pinned', criteria: [{ type: 'exact', metadata: 'q', values: ['dune'] }], actions: { ids: ['2'] } });

export function fixtureFor(name: string, c: RunContext): Fixture | undefined {
  const { p, ix } = c;
  const rules = () => ok(c.url, 'PUT', `/_query_rules/${p}-rules`, { rules: [RULE('r1')] });
  const synonyms = () => ok(c.url, 'PUT', `/_synonyms/${p}-syn`, { synonyms_set: [{ id: 'r1', synonyms: 'dune, arrakis' }] });
  const q = { query: { match: { title: 'dune' } } };
  const keptSearch = async () => (await ok(c.url, 'POST', `/_plugins/_asynchronous_search?index=${ix}&keep_on_completion=true`, q)).id as string;
  const store = `${p}-ltr`;
  const ltrStore = async () => { if ((await call(c.url, 'GET', `/_ltr/${store}`)).status === 404) await ok(c.url, 'PUT', `/_ltr/${store}`); };
  const ltrFeature = (field: string) => ({ name: `${p}-${field}`, params: ['q'], template_language: 'mustache', template: { match: { [field]: '{{q}}' } } });
  const ltrLinear = { type: 'model/linear', definition: { [`${p}-title`]: 1 } };
  const ltrModel = (set: string) => ({ feature_set: { name: set, features: [ltrFeature('title')] }, model: ltrLinear });
  const ltrSet = async () => { await ltrStore(); await ok(c.url, 'POST', `/_ltr/${store}/_featureset/${p}-set/_addfeatures?merge=true`, { features: [ltrFeature('title')] }); };
  const observabilityObject = (name: string) => ok(c.url, 'POST', '/_plugins/_observability/object', { objectId: `${p}-obs-${name}`, savedQuery: { name } });
  const flowWorkflow = async (name: string) => ({ workflow_id: (await ok(c.url, 'POST', '/_plugins/_flow_framework/workflow', { name: `${p}-flow-${name}`, workflows: { provision: { nodes: [{ id: 'n', type: 'noop' }] } } })).workflow_id as string });
  const modelGroup = async (name: string) => ({ model_group_id: (await ok(c.url, 'POST', '/_plugins/_ml/model_groups/_register', { name: `${p}-mg-${name}` })).model_group_id as string });
  const geoFeature = { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { name: 'here' } };
  const fixtures: Record<string, () => Fixture> = {
    // documents
    index: () => ({ args: { index: ix, id: '10', body: { title: 'Persuasion', year: 1817 } }, check: (a) => expect(a.result).to.be.oneOf(['created', 'updated']) }),
    create: () => ({ args: { index: ix, id: '11', body: { title: 'Ivanhoe' } }, check: (a) => expect(a.result).to.equal('created') }),
    get: () => ({ args: { index: ix, id: '1' }, check: (a) => expect(a._source.title).to.equal('Dune') }),
    get_source: () => ({ args: { index: ix, id: '1' }, check: (a) => expect(a.title).to.equal('Dune') }),
    exists: () => ({ args: { index: ix, id: '1' }, check: (a) => expect(a).to.equal(true) }),
    exists_source: () => ({ args: { index: ix, id: '1' }, check: (a) => expect(a).to.equal(true) }),
    update: () => ({ args: { index: ix, id: '2', body: { doc: { tag: 'classic' } } }, check: (a) => expect(a.result).to.be.oneOf(['updated', 'noop']) }),
    delete: () => ({ setup: () => ok(c.url, 'PUT', `/${ix}/_doc/20`, { title: 'gone' }), args: { index: ix, id: '20' }, check: (a) => expect(a.result).to.equal('deleted') }),
    mget: () => ({ args: { index: ix, body: { ids: ['1', '3'] } }, check: (a) => expect(a.docs).to.have.length(2) }),
    bulk: () => ({ args: { index: ix, body: [{ index: { _id: '30' } }, { title: 'Kim' }] }, check: (a) => expect(a.errors).to.equal(false) }),
    bulk_stream: () => ({ args: { index: ix, body: [{ index: { _id: '31' } }, { title: 'Kim' }] }, check: (a) => expect(a.errors).to.equal(false) }),
    termvectors: () => ({ args: { index: ix, id: '1', fields: ['title'] } }),
    mtermvectors: () => ({ args: { index: ix, body: { ids: ['1', '3'] } } }),
    // search
    search: () => ({ args: { index: ix, body: q }, check: (a) => expect(a.hits.hits.map((h: { _id: string }) => h._id).sort()).to.deep.equal(['1', '3']) }),
    count: () => ({ args: { index: ix, body: q }, check: (a) => expect(a.count).to.equal(2) }),
    knn_search: () => ({
      setup: async () => {
        await ok(c.url, 'PUT', `/${p}-vectors`, { mappings: { properties: { v: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' } } } });
        await ok(c.url, 'PUT', `/${p}-vectors/_doc/1?refresh=true`, { v: [1, 1] });
      },
      args: { index: `${p}-vectors`, body: { knn: { field: 'v', query_vector: [1, 1], k: 1, num_candidates: 1 } } },
      check: (a) => expect(a.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']),
    }),
    msearch: () => ({ args: { body: [{ index: ix }, q, { index: ix }, { query: { match_all: {} } }] }, check: (a) => expect(a.responses).to.have.length(2) }),
    explain: () => ({ args: { index: ix, id: '1', body: q }, check: (a) => expect(a.matched).to.equal(true) }),
    field_caps: () => ({ args: { index: ix, fields: '*' }, check: (a) => expect(a.fields).to.have.property('year') }),
    search_template: () => ({ args: { index: ix, body: { id: `${p}-script`, params: { q: 'dune' } } } }),
    msearch_template: () => ({ args: { body: [{ index: ix }, { id: `${p}-script`, params: { q: 'dune' } }] } }),
    render_search_template: () => ({ args: { id: `${p}-script`, body: { params: { q: 'dune' } } } }),
    rank_eval: () => ({ args: { index: ix, body: { requests: [{ id: 'q', request: q, ratings: [{ _index: ix, _id: '1', rating: 1 }] }], metric: { precision: { k: 10 } } } } }),
    validate_query: () => ({ args: { index: ix, body: q } }),
    'indices.validate_query': () => ({ args: { index: ix, body: q }, check: (a) => expect(a.valid).to.equal(true) }),
    search_shards: () => ({ args: { index: ix } }),
    terms_enum: () => ({ args: { index: ix, body: { field: 'tag' } } }),
    open_point_in_time: () => ({ args: { index: ix, keep_alive: '1m' }, check: (a) => expect(a.id).to.be.a('string') }),
    close_point_in_time: () => ({
      prepare: async () => ({ body: { id: (await ok(c.url, 'POST', `/${ix}/_pit?keep_alive=1m`)).id } }),
      check: (a) => expect(a.succeeded).to.equal(true),
    }),
    // OpenSearch's point in time API (/_search/point_in_time), served over the same views as _pit
    create_pit: () => ({ args: { index: ix, keep_alive: '1m' }, check: (a) => expect(a.pit_id).to.be.a('string') }),
    delete_pit: () => ({
      prepare: async () => ({ body: { pit_id: [(await ok(c.url, 'POST', `/${ix}/_search/point_in_time?keep_alive=1m`)).pit_id] } }),
      check: (a) => expect(a.pits[0].successful).to.equal(true),
    }),
    get_all_pits: () => ({ check: (a) => expect(a.pits).to.be.an('array') }),
    delete_all_pits: () => ({ check: (a) => expect(a.pits).to.be.an('array') }),
    'cat.pit_segments': () => ({
      prepare: async () => ({ body: { pit_id: [(await ok(c.url, 'POST', `/${ix}/_search/point_in_time?keep_alive=1m`)).pit_id] }, format: 'json' }),
      check: (a) => expect(a).to.be.an('array'),
    }),
    scroll: () => ({
      prepare: async () => ({ scroll_id: (await ok(c.url, 'POST', `/${ix}/_search?scroll=1m&size=1`, {}))._scroll_id }),
      args: { scroll: '1m' },
      check: (a) => expect(a.hits.hits).to.have.length(1),
    }),
    clear_scroll: () => ({ args: { scroll_id: '_all' } }),
    'tasks.get': () => ({
      prepare: async () => ({ task_id: (await ok(c.url, 'POST', `/${ix}/_update_by_query?wait_for_completion=false`, { query: { term: { tag: 'none' } } })).task }),
      args: { wait_for_completion: true },
      check: (a) => expect(a.completed).to.equal(true),
    }),
    reindex_rethrottle: () => ({ args: { task_id: 'node-1:1', requests_per_second: -1 } }),
    update_by_query_rethrottle: () => ({ args: { task_id: 'node-1:1', requests_per_second: -1 } }),
    delete_by_query_rethrottle: () => ({ args: { task_id: 'node-1:1', requests_per_second: -1 } }),
    'nodes.stats': () => ({ args: { metric: 'indices' } }),
    // query rules, synonyms (cluster-wide, named after the run)
    'query_rules.put_ruleset': () => ({ args: { ruleset_id: `${p}-rules2`, body: { rules: [RULE('r1')] } } }),
    'query_rules.get_ruleset': () => ({ setup: rules, args: { ruleset_id: `${p}-rules` } }),
    'query_rules.delete_ruleset': () => ({ setup: () => ok(c.url, 'PUT', `/_query_rules/${p}-rules3`, { rules: [RULE('r1')] }), args: { ruleset_id: `${p}-rules3` } }),
    'query_rules.put_rule': () => ({ setup: rules, args: { ruleset_id: `${p}-rules`, rule_id: 'r2', body: { type: 'pinned', criteria: RULE('r2').criteria, actions: RULE('r2').actions } } }),
    'query_rules.get_rule': () => ({ setup: rules, args: { ruleset_id: `${p}-rules`, rule_id: 'r1' } }),
    'query_rules.delete_rule': () => ({ setup: async () => { await rules(); await ok(c.url, 'PUT', `/_query_rules/${p}-rules/_rule/r3`, { type: 'pinned', criteria: RULE('r3').criteria, actions: RULE('r3').actions }); }, args: { ruleset_id: `${p}-rules`, rule_id: 'r3' } }),
    'query_rules.test': () => ({ setup: rules, args: { ruleset_id: `${p}-rules`, body: { match_criteria: { q: 'dune' } } }, check: (a) => expect(a.total_matched_rules).to.equal(1) }),
    'synonyms.put_synonym': () => ({ args: { id: `${p}-syn2`, body: { synonyms_set: [{ id: 'r1', synonyms: 'dune, arrakis' }] } } }),
    'synonyms.get_synonym': () => ({ setup: synonyms, args: { id: `${p}-syn` } }),
    'synonyms.delete_synonym': () => ({ setup: () => ok(c.url, 'PUT', `/_synonyms/${p}-syn3`, { synonyms_set: [{ id: 'r1', synonyms: 'a, b' }] }), args: { id: `${p}-syn3` } }),
    'synonyms.put_synonym_rule': () => ({ setup: synonyms, args: { set_id: `${p}-syn`, rule_id: 'r2', body: { synonyms: 'emma, persuasion' } } }),
    'synonyms.get_synonym_rule': () => ({ setup: synonyms, args: { set_id: `${p}-syn`, rule_id: 'r1' } }),
    'synonyms.delete_synonym_rule': () => ({ setup: async () => { await synonyms(); await ok(c.url, 'PUT', `/_synonyms/${p}-syn/r3`, { synonyms: 'x, y' }); }, args: { set_id: `${p}-syn`, rule_id: 'r3' } }),
    // the OpenSearch clients' raw requests
    'http.get': () => ({ args: { path: `/${ix}/_doc/1` }, check: (a) => expect(a._source.title).to.equal('Dune') }),
    'http.head': () => ({ args: { path: `/${ix}` } }),
    'http.post': () => ({ args: { path: `/${ix}/_search`, body: q }, check: (a) => expect(a.hits.total.value).to.equal(2) }),
    'http.put': () => ({ args: { path: `/${ix}/_doc/60`, body: { title: 'put raw' } } }),
    'http.delete': () => ({ setup: () => ok(c.url, 'PUT', `/${ix}/_doc/61`, { title: 'x' }), args: { path: `/${ix}/_doc/61` } }),
    'http.request': () => ({ args: { method: 'GET', path: `/${ix}/_count` }, check: (a) => expect(a.count).to.be.a('number') }),
    delete_by_query: () => ({ setup: () => ok(c.url, 'PUT', `/${ix}/_doc/40?refresh=true`, { title: 'remove me', tag: 'rm' }), args: { index: ix, refresh: true, body: { query: { term: { tag: 'rm' } } } } }),
    update_by_query: () => ({ args: { index: ix, body: { query: { term: { tag: 'sf' } } } } }),
    reindex: () => ({ args: { refresh: true, body: { source: { index: ix }, dest: { index: `${p}-copy` } } } }),
    // scripts
    put_script: () => ({ args: { id: `${p}-s2`, body: { script: { lang: 'painless', source: 'doc["year"].value' } } } }),
    get_script: () => ({ args: { id: `${p}-script` } }),
    delete_script: () => ({ setup: () => ok(c.url, 'PUT', `/_scripts/${p}-s3`, { script: { lang: 'painless', source: '1' } }), args: { id: `${p}-s3` } }),
    scripts_painless_execute: () => ({ args: { body: { script: { source: '1 + 2' } } }, check: (a) => expect(String(a.result)).to.equal('3') }),
    // indices
    'indices.create': () => ({ args: { index: `${p}-created`, body: { mappings: MAPPING } } }),
    'indices.delete': () => ({ setup: index(c, `${p}-deleted`), args: { index: `${p}-deleted` } }),
    'indices.exists': () => ({ args: { index: ix }, check: (a) => expect(a).to.equal(true) }),
    'indices.exists_alias': () => ({ args: { name: `${p}-alias` }, check: (a) => expect(a).to.equal(true) }),
    'indices.exists_template': () => ({ args: { name: `${p}-legacy` }, check: (a) => expect(a).to.equal(true) }),
    'indices.exists_index_template': () => ({ args: { name: `${p}-template` }, check: (a) => expect(a).to.equal(true) }),
    'indices.get_alias': () => ({ args: { index: ix } }),
    'indices.put_alias': () => ({ args: { index: ix, name: `${p}-alias2` } }),
    'indices.delete_alias': () => ({ setup: () => ok(c.url, 'PUT', `/${ix}/_alias/${p}-alias3`), args: { index: ix, name: `${p}-alias3` } }),
    'indices.update_aliases': () => ({ args: { body: { actions: [{ add: { index: ix, alias: `${p}-alias4` } }] } } }),
    'indices.put_mapping': () => ({ args: { index: ix, body: { properties: { extra: { type: 'keyword' } } } } }),
    'indices.get_field_mapping': () => ({ args: { index: ix, fields: 'title' } }),
    'indices.put_settings': () => ({ args: { index: ix, body: { index: { number_of_replicas: 0 } } } }),
    'indices.close': () => ({ setup: index(c, `${p}-closed`), args: { index: `${p}-closed` } }),
    'indices.open': () => ({ setup: async () => { await ok(c.url, 'PUT', `/${p}-reopened`); await ok(c.url, 'POST', `/${p}-reopened/_close`); }, args: { index: `${p}-reopened` } }),
    'indices.add_block': () => ({ setup: index(c, `${p}-blocked`), args: { index: `${p}-blocked`, block: 'write' } }),
    'indices.forcemerge': () => ({ args: { index: ix, max_num_segments: 1 }, check: (a) => expect(a._shards.failed).to.equal(0) }),
    'indices.clear_cache': () => ({ args: { index: ix }, check: (a) => expect(a._shards.failed).to.equal(0) }),
    'indices.remove_block': () => ({
      setup: async () => { await ok(c.url, 'PUT', `/${p}-unblocked`); await ok(c.url, 'PUT', `/${p}-unblocked/_block/write`); },
      args: { index: `${p}-unblocked`, block: 'write' },
      check: (a) => expect(a.indices).to.deep.equal([{ name: `${p}-unblocked`, unblocked: true }]),
    }),
    'indices.analyze': () => ({ args: { body: { analyzer: 'standard', text: 'Dune Messiah' } }, check: (a) => expect(a.tokens).to.have.length(2) }),
    'indices.clone': () => ({ setup: async () => { await ok(c.url, 'PUT', `/${p}-clone-src`); await ok(c.url, 'PUT', `/${p}-clone-src/_block/write`); }, args: { index: `${p}-clone-src`, target: `${p}-clone-dst` } }),
    'indices.shrink': () => ({ setup: async () => { await ok(c.url, 'PUT', `/${p}-shrink-src`, { settings: { number_of_shards: 2 } }); await ok(c.url, 'PUT', `/${p}-shrink-src/_block/write`); }, args: { index: `${p}-shrink-src`, target: `${p}-shrink-dst`, body: { settings: { 'index.number_of_shards': 1 } } } }),
    'indices.split': () => ({ setup: async () => { await ok(c.url, 'PUT', `/${p}-split-src`); await ok(c.url, 'PUT', `/${p}-split-src/_block/write`); }, args: { index: `${p}-split-src`, target: `${p}-split-dst`, body: { settings: { 'index.number_of_shards': 2 } } } }),
    'indices.rollover': () => ({ setup: () => ok(c.url, 'PUT', `/${p}-roll-000001`, { aliases: { [`${p}-roll`]: { is_write_index: true } } }), args: { alias: `${p}-roll` } }),
    'indices.put_index_template': () => ({ args: { name: `${p}-template2`, body: { index_patterns: [`${p}-t2-*`] } } }),
    'indices.get_index_template': () => ({ args: { name: `${p}-template` } }),
    'indices.delete_index_template': () => ({ setup: () => ok(c.url, 'PUT', `/_index_template/${p}-template3`, { index_patterns: [`${p}-t3-*`] }), args: { name: `${p}-template3` } }),
    'indices.simulate_index_template': () => ({ args: { name: `${p}-tpl-1` } }),
    'indices.simulate_template': () => ({ args: { name: `${p}-template` } }),
    'indices.put_template': () => ({ args: { name: `${p}-legacy2`, body: { index_patterns: [`${p}-l2-*`] } } }),
    'indices.get_template': () => ({ args: { name: `${p}-legacy` } }),
    'indices.delete_template': () => ({ setup: () => ok(c.url, 'PUT', `/_template/${p}-legacy3`, { index_patterns: [`${p}-l3-*`] }), args: { name: `${p}-legacy3` } }),
    'indices.create_data_stream': () => ({ setup: () => ok(c.url, 'PUT', `/_index_template/${p}-ds`, { index_patterns: [`${p}-ds-*`], data_stream: {} }), args: { name: `${p}-ds-one` } }),
    'indices.get_data_stream': () => ({ args: { name: `${p}-ds-*` } }),
    'indices.data_streams_stats': () => ({ args: { name: `${p}-ds-*` } }),
    'indices.delete_data_stream': () => ({ setup: () => ok(c.url, 'PUT', `/_data_stream/${p}-ds-two`), args: { name: `${p}-ds-two` } }),
    'indices.modify_data_stream': () => ({
      setup: async () => {
        await ok(c.url, 'PUT', `/_index_template/${p}-ds`, { index_patterns: [`${p}-ds-*`], data_stream: {} });
        await ok(c.url, 'PUT', `/_data_stream/${p}-ds-mod`);
        await ok(c.url, 'PUT', `/${p}-mod-extra`);
      },
      args: { body: { actions: [{ add_backing_index: { data_stream: `${p}-ds-mod`, index: `${p}-mod-extra` } }] } },
    }),
    'indices.resolve_index': () => ({ args: { name: `${p}-*` } }),
    'indices.get_data_lifecycle': () => ({ args: { name: `${p}-ds-*` } }),
    // cluster-level templates, pipelines
    'cluster.put_component_template': () => ({ args: { name: `${p}-component2`, body: { template: { settings: { number_of_shards: 1 } } } } }),
    'cluster.get_component_template': () => ({ args: { name: `${p}-component` } }),
    'cluster.exists_component_template': () => ({ args: { name: `${p}-component` }, check: (a) => expect(a).to.equal(true) }),
    'cluster.delete_component_template': () => ({ setup: () => ok(c.url, 'PUT', `/_component_template/${p}-component3`, { template: {} }), args: { name: `${p}-component3` } }),
    'cluster.put_settings': () => ({ args: { body: { persistent: { 'search.default_search_timeout': '50s' } } } }),
    'ingest.put_pipeline': () => ({ args: { id: `${p}-pipeline2`, body: { processors: [{ set: { field: 'x', value: 1 } }] } } }),
    'ingest.get_pipeline': () => ({ args: { id: `${p}-pipeline` } }),
    'ingest.delete_pipeline': () => ({ setup: () => ok(c.url, 'PUT', `/_ingest/pipeline/${p}-pipeline3`, { processors: [] }), args: { id: `${p}-pipeline3` } }),
    // OpenSearch's search pipelines (opensearch-js)
    'search_pipeline.put': () => ({ args: { id: `${p}-search-pipeline`, body: { response_processors: [{ truncate_hits: { target_size: 1 } }] } } }),
    'search_pipeline.get': () => ({ setup: () => ok(c.url, 'PUT', `/_search/pipeline/${p}-search-pipeline2`, {}), args: { id: `${p}-search-pipeline2` } }),
    // OpenSearch plugins' APIs the engine answers (opensearch-js)
    'knn.stats': () => ({ args: {}, check: (a) => expect(a.circuit_breaker_triggered).to.equal(false) }),
    'knn.warmup': () => ({ args: { index: ix }, check: (a) => expect(a._shards.failed).to.equal(0) }),
    // the SQL plugin's metrics (text/plain JSON, all zero); the 3.x client demands a body for ppl.post_stats, which
    // OpenSearch's RestPPLStatsAction reads none of (BaseRestHandler refuses a body left unread): sent empty
    'sql.get_stats': () => ({ args: {}, check: (a) => expect(sqlMetrics(a)).to.have.property('request_total', 0) }),
    'sql.post_stats': () => ({ args: {}, check: (a) => expect(sqlMetrics(a)).to.have.property('request_total', 0) }),
    'ppl.get_stats': () => ({ args: {}, check: (a) => expect(sqlMetrics(a)).to.have.property('ppl_request_total', 0) }),
    'ppl.post_stats': () => ({ args: { body: '' }, check: (a) => expect(sqlMetrics(a)).to.have.property('ppl_request_total', 0) }),
    // the Observability plugin's saved objects (each fixture its own object) and its metrics; the geospatial plugin's GeoJSON upload
    'observability.create_object': () => ({ args: { body: { objectId: `${p}-obs`, savedQuery: { name: 'q' } } }, check: (a) => expect(a.objectId).to.equal(`${p}-obs`) }),
    'observability.delete_object': () => ({ setup: () => observabilityObject('del'), args: { object_id: `${p}-obs-del` }, check: (a) => expect(a.deleteResponseList).to.deep.equal({ [`${p}-obs-del`]: 'OK' }) }),
    'observability.delete_objects': () => ({ setup: () => observabilityObject('dels'), args: { objectId: `${p}-obs-dels` }, check: (a) => expect(a.deleteResponseList).to.deep.equal({ [`${p}-obs-dels`]: 'OK' }) }),
    'observability.get_localstats': () => ({ args: {}, check: (a) => expect(sqlMetrics(a)).to.have.property('request_total').that.is.a('number') }),
    'observability.get_object': () => ({ setup: () => observabilityObject('get'), args: { object_id: `${p}-obs-get` }, check: (a) => expect(a.observabilityObjectList[0].objectId).to.equal(`${p}-obs-get`) }),
    'observability.list_objects': () => ({ args: {}, check: (a) => expect(a.observabilityObjectList).to.be.an('array') }),
    'observability.update_object': () => ({ setup: () => observabilityObject('upd'), args: { object_id: `${p}-obs-upd`, body: { savedQuery: { name: 'r' } } }, check: (a) => expect(a.objectId).to.equal(`${p}-obs-upd`) }),
    // the Flow Framework plugin's workflows (each fixture its own)
    'ml.register_model_group': () => ({ args: { body: { name: `${p}-mg` } }, check: (a) => expect(a.status).to.equal('CREATED') }),
    'ml.get_model_group': () => ({ prepare: () => modelGroup('get'), check: (a) => expect(a.name).to.equal(`${p}-mg-get`) }),
    'ml.update_model_group': () => ({ prepare: async () => ({ ...(await modelGroup('upd')), body: { description: 'updated' } }), check: (a) => expect(a.status).to.equal('Updated') }),
    'ml.delete_model_group': () => ({ prepare: () => modelGroup('del'), check: (a) => expect(a.result).to.equal('deleted') }),
    'ml.search_model_group': () => ({ args: { body: { query: { match_all: {} } } }, check: (a) => expect(a.hits).to.have.property('hits') }),
    'flow_framework.create': () => ({ args: { body: { name: `${p}-flow` } }, check: (a) => expect(a.workflow_id).to.be.a('string') }),
    'flow_framework.get': () => ({ prepare: () => flowWorkflow('get'), check: (a) => expect(a.name).to.equal(`${p}-flow-get`) }),
    'flow_framework.update': () => ({ prepare: async () => ({ ...(await flowWorkflow('upd')), update_fields: true, body: { description: 'updated' } }), check: (a) => expect(a.workflow_id).to.be.a('string') }),
    'flow_framework.delete': () => ({ prepare: () => flowWorkflow('del'), check: (a) => expect(a.result).to.equal('deleted') }),
    'flow_framework.get_status': () => ({ prepare: () => flowWorkflow('status'), check: (a) => expect(a.state).to.equal('NOT_STARTED') }),
    'flow_framework.provision': () => ({ prepare: () => flowWorkflow('prov'), check: (a) => expect(a.workflow_id).to.be.a('string') }),
    'flow_framework.deprovision': () => ({ prepare: () => flowWorkflow('deprov'), check: (a) => expect(a.workflow_id).to.be.a('string') }),
    'flow_framework.get_steps': () => ({ args: {}, check: (a) => expect(a.create_index.outputs).to.deep.equal(['index_name']) }),
    'flow_framework.search': () => ({ args: { body: { query: { match_all: {} } } }, check: (a) => expect(a.hits.hits).to.be.an('array') }),
    'flow_framework.search_state': () => ({ args: { body: { query: { match_all: {} } } }, check: (a) => expect(a.hits.hits).to.be.an('array') }),
    'geospatial.geojson_upload_post': () => ({ args: { body: { index: `${p}-geo-post`, field: 'g', type: 'geo_shape', data: [geoFeature] } }, check: (a) => expect(a.success).to.equal(1) }),
    'geospatial.geojson_upload_put': () => ({ args: { body: { index: `${p}-geo-put`, field: 'g', type: 'geo_shape', data: [geoFeature] } }, check: (a) => expect(a.success).to.equal(1) }),
    'geospatial.get_upload_stats': () => ({ args: {}, check: (a) => expect(a.total).to.have.property('request_count').that.is.a('number') }),
    'notifications.list_features': () => ({ args: {}, check: (a) => expect(a.allowed_config_type_list).to.deep.equal([]) }),
    'notifications.list_channels': () => ({ args: {}, check: (a) => expect(a.channel_list).to.deep.equal([]) }),
    // Index State Management (opensearch-js), in name order: add_policy makes the policy the others read
    // rollup and transform jobs (kept, never run); the ones read, started and stopped are put by explain, which comes first
    // OpenSearch's asynchronous search: each answer kept (keep_on_completion) is read back or deleted by its id
    'asynchronous_search.delete': () => ({ prepare: async () => ({ id: await keptSearch() }), check: (a) => expect(a.acknowledged).to.equal(true) }),
    'asynchronous_search.get': () => ({
      prepare: async () => ({ id: await keptSearch() }),
      check: (a) => { expect(a.state).to.equal('STORE_RESIDENT'); expect(a.response.hits.total.value).to.equal(2); },
    }),
    'asynchronous_search.search': () => ({
      args: { index: ix, keep_on_completion: true, body: q },
      check: (a) => { expect(a.state).to.equal('SUCCEEDED'); expect(a.response.hits.hits.map((h: { _id: string }) => h._id).sort()).to.deep.equal(['1', '3']); },
    }),
    'asynchronous_search.stats': () => ({ check: (a) => expect(Object.values<any>(a.nodes)[0].asynchronous_search_stats.persisted).to.be.at.least(1) }),
    // OpenSearch's Learning to Rank: the run's own feature store (the default store, .ltrstore, made and dropped by its own calls)
    'ltr.add_features_to_set': () => ({ setup: ltrStore, args: { store, name: `${p}-set`, body: { features: [ltrFeature('title')] } }, check: (a) => expect(a.result).to.equal('created') }),
    'ltr.add_features_to_set_by_query': () => ({
      setup: async () => { await ltrStore(); await ok(c.url, 'PUT', `/_ltr/${store}/_feature/${p}-q-year`, { feature: ltrFeature('year') }); },
      args: { store, name: `${p}-set-q`, query: `${p}-q-*` },
      check: (a) => expect(a.result).to.equal('created'),
    }),
    'ltr.cache_stats': () => ({ check: (a) => expect(a.all.total.count).to.equal(0) }),
    'ltr.clear_cache': () => ({ setup: ltrStore, args: { store }, check: (a) => expect(a.acknowledged).to.equal(true) }),
    // (a default store that another spec left on a shared standalone engine is dropped first)
    'ltr.create_default_store': () => ({ setup: () => call(c.url, 'DELETE', '/_ltr'), check: (a) => expect(a.index).to.equal('.ltrstore') }),
    'ltr.create_feature': () => ({ setup: ltrStore, args: { store, id: `${p}-f-title`, body: { feature: ltrFeature('title') } }, check: (a) => expect(a.result).to.equal('created') }),
    'ltr.create_featureset': () => ({ setup: ltrStore, args: { store, id: `${p}-fs`, body: { featureset: { features: [ltrFeature('title')] } } }, check: (a) => expect(a.result).to.equal('created') }),
    'ltr.create_model': () => ({ setup: ltrStore, args: { store, id: `${p}-model`, body: { model: ltrModel(`${p}-fs`) } }, check: (a) => expect(a.result).to.equal('created') }),
    'ltr.create_model_from_set': () => ({
      setup: ltrSet,
      args: { store, name: `${p}-set`, body: { model: { name: `${p}-model-s`, model: ltrLinear } } },
      check: (a) => expect(a._id).to.equal(`model-${p}-model-s`),
    }),
    'ltr.create_store': () => ({ args: { store: `${p}-ltr-c` }, check: (a) => expect(a.acknowledged).to.equal(true) }),
    'ltr.delete_default_store': () => ({ check: (a) => expect(a.acknowledged).to.equal(true) }),
    'ltr.delete_feature': () => ({
      setup: async () => { await ltrStore(); await ok(c.url, 'PUT', `/_ltr/${store}/_feature/${p}-f-d`, { feature: ltrFeature('year') }); },
      args: { store, id: `${p}-f-d` },
      check: (a) => expect(a.result).to.equal('deleted'),
    }),
    'ltr.delete_featureset': () => ({
      setup: async () => { await ltrStore(); await ok(c.url, 'PUT', `/_ltr/${store}/_featureset/${p}-fs-d`, { featureset: { features: [ltrFeature('year')] } }); },
      args: { store, id: `${p}-fs-d` },
      check: (a) => expect(a.result).to.equal('deleted'),
    }),
    'ltr.delete_model': () => ({
      setup: async () => { await ltrStore(); await ok(c.url, 'PUT', `/_ltr/${store}/_model/${p}-model-d`, { model: ltrModel(`${p}-fs-m`) }); },
      args: { store, id: `${p}-model-d` },
      check: (a) => expect(a.result).to.equal('deleted'),
    }),
    'ltr.delete_store': () => ({ setup: () => ok(c.url, 'PUT', `/_ltr/${p}-ltr-d`), args: { store: `${p}-ltr-d` }, check: (a) => expect(a.acknowledged).to.equal(true) }),
    'ltr.get_feature': () => ({ args: { store, id: `${p}-f-title` }, check: (a) => expect(a._source.feature.template).to.deep.equal(ltrFeature('title').template) }),
    'ltr.get_featureset': () => ({ args: { store, id: `${p}-fs` }, check: (a) => expect(a._source.featureset.features.map((f: { name: string }) => f.name)).to.deep.equal([`${p}-title`]) }),
    'ltr.get_model': () => ({ args: { store, id: `${p}-model` }, check: (a) => expect(a._source.model.model.type).to.equal('model/linear') }),
    'ltr.get_store': () => ({ args: { store }, check: (a) => expect(a.exists).to.equal(true) }),
    'ltr.list_stores': () => ({ check: (a) => expect(a.stores).to.have.property(store) }),
    'ltr.search_features': () => ({ args: { store, prefix: `${p}-f-` }, check: (a) => expect(a.hits.hits.map((h: { _source: { name: string } }) => h._source.name)).to.include(`${p}-f-title`) }),
    'ltr.search_featuresets': () => ({ args: { store, prefix: `${p}-fs` }, check: (a) => expect(a.hits.total.value).to.be.at.least(1) }),
    'ltr.search_models': () => ({ args: { store, prefix: `${p}-model` }, check: (a) => expect(a.hits.total.value).to.be.at.least(1) }),
    'ltr.stats': () => ({ check: (a) => expect(a.stores).to.have.property(`.ltrstore_${store}`) }),
    'ltr.update_feature': () => ({ args: { store, id: `${p}-f-title`, body: { feature: ltrFeature('tag') } }, check: (a) => expect(a.result).to.equal('updated') }),
    'ltr.update_featureset': () => ({ args: { store, id: `${p}-fs`, body: { featureset: { features: [ltrFeature('year')] } } }, check: (a) => expect(a.result).to.equal('updated') }),
    'rollups.delete': () => ({ setup: () => ok(c.url, 'PUT', `/_plugins/_rollup/jobs/${p}-rollup-d`, rollupJob(ix)), args: { id: `${p}-rollup-d` } }),
    'rollups.explain': () => ({ setup: () => ok(c.url, 'PUT', `/_plugins/_rollup/jobs/${p}-rollup`, rollupJob(ix)), args: { id: `${p}-rollup` }, check: (a) => expect(a).to.have.property(`${p}-rollup`) }),
    'rollups.get': () => ({ args: { id: `${p}-rollup` }, check: (a) => expect(a._id).to.equal(`${p}-rollup`) }),
    'rollups.put': () => ({ args: { id: `${p}-rollup-p`, body: rollupJob(ix) }, check: (a) => expect(a._id).to.equal(`${p}-rollup-p`) }),
    'rollups.start': () => ({ args: { id: `${p}-rollup` } }),
    'rollups.stop': () => ({ args: { id: `${p}-rollup` } }),
    'transforms.delete': () => ({ setup: () => ok(c.url, 'PUT', `/_plugins/_transform/${p}-transform-d`, transformJob(ix, `${p}-transformed`)), args: { id: `${p}-transform-d` } }),
    'transforms.explain': () => ({ setup: () => ok(c.url, 'PUT', `/_plugins/_transform/${p}-transform`, transformJob(ix, `${p}-transformed`)), args: { id: `${p}-transform` }, check: (a) => expect(a).to.have.property(`${p}-transform`) }),
    'transforms.get': () => ({ args: { id: `${p}-transform` }, check: (a) => expect(a._id).to.equal(`${p}-transform`) }),
    'transforms.preview': () => ({ args: { body: transformJob(ix, `${p}-transformed`) }, check: (a) => expect(a.documents).to.have.length.above(0) }),
    'transforms.put': () => ({ args: { id: `${p}-transform-p`, body: transformJob(ix, `${p}-transformed`) }, check: (a) => expect(a._id).to.equal(`${p}-transform-p`) }),
    'transforms.search': () => ({ args: {} }),
    'transforms.start': () => ({ args: { id: `${p}-transform` } }),
    'transforms.stop': () => ({ args: { id: `${p}-transform` } }),
    'ism.add_policy': () => ({ setup: () => ok(c.url, 'PUT', `/_plugins/_ism/policies/${p}-ism-a`, ISM_POLICY), args: { index: ix, body: { policy_id: `${p}-ism-a` } }, check: (a) => expect(a.updated_indices).to.equal(1) }),
    'ism.change_policy': () => ({ args: { index: ix, body: { policy_id: `${p}-ism-a` } }, check: (a) => expect(a.updated_indices).to.equal(1) }),
    'ism.delete_policy': () => ({ setup: () => ok(c.url, 'PUT', `/_plugins/_ism/policies/${p}-ism-d`, ISM_POLICY), args: { policy_id: `${p}-ism-d` } }),
    'ism.exists_policy': () => ({ args: { policy_id: `${p}-ism-a` }, check: (a) => expect(a).to.equal(true) }),
    'ism.explain_policy': () => ({ args: { index: ix }, check: (a) => expect(a[ix].policy_id).to.equal(`${p}-ism-a`) }),
    'ism.get_policies': () => ({ args: {} }),
    'ism.get_policy': () => ({ args: { policy_id: `${p}-ism-a` }, check: (a) => expect(a._id).to.equal(`${p}-ism-a`) }),
    'ism.put_policies': () => ({ args: { policyID: `${p}-ism-q`, body: ISM_POLICY } }),
    'ism.put_policy': () => ({ args: { policy_id: `${p}-ism-b`, body: ISM_POLICY } }),
    'ism.remove_policy': () => ({ args: { index: ix }, check: (a) => expect(a.updated_indices).to.equal(1) }),
    'ism.retry_index': () => ({ args: { index: ix, body: {} } }),
    'search_pipeline.delete': () => ({ setup: () => ok(c.url, 'PUT', `/_search/pipeline/${p}-search-pipeline3`, {}), args: { id: `${p}-search-pipeline3` } }),
    'ingest.simulate': () => ({ args: { id: `${p}-pipeline`, body: { docs: [{ _source: { title: 'x' } }] } }, check: (a) => expect(a.docs[0].doc._source.seen).to.equal(true) }),
  };
  return fixtures[name]?.();
}

/** An ISM policy the ISM fixtures put (one state, no transition). */
const ISM_POLICY = { policy: { description: 'fixture', default_state: 'hot', states: [{ name: 'hot', actions: [] }] } };

/** A rollup job over the run's main index (kept: no job runs). */
const rollupJob = (source: string) => ({
  rollup: {
    enabled: false, description: 'fixture', schedule: { interval: { period: 1, unit: 'Minutes' } }, source_index: source, target_index: `${source}-rollup`, page_size: 10,
    dimensions: [{ terms: { source_field: 'tag' } }], metrics: [{ source_field: 'year', metrics: [{ max: {} }] }],
  },
});

/** A transform of the run's main index, grouped by tag (previewed from it; kept, never run). */
const transformJob = (source: string, target: string) => ({
  transform: {
    enabled: false, description: 'fixture', source_index: source, target_index: target, data_selection_query: { match_all: {} }, page_size: 10,
    groups: [{ terms: { source_field: 'tag', target_field: 'tag' } }], aggregations: { latest: { max: { field: 'year' } } },
    schedule: { interval: { period: 1, unit: 'Minutes' } },
  },
});

/** Values for a path part no fixture names: this run's own, harmless. */
export function defaultPart(part: string, c: RunContext): string {
  switch (part) {
    case 'index': return c.ix;
    case 'id': return '1';
    case 'name': return `${c.p}-name`;
    case 'task_id': return 'node-1:1';
    case 'node_id': return '_local';
    case 'metric': return '_all';
    case 'repository': return `${c.p}-repo`;
    case 'snapshot': return `${c.p}-snap`;
    case 'target': return `${c.p}-target`;
    case 'alias': return `${c.p}-alias`;
    case 'fields': return 'title';
    default: return `${c.p}-x`;
  }
}
