import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** The index of ES's synonyms docs: `synonyms_set` in an updateable filter of the search analyzer only. */
function synonymsIndex(set = 'my-synonyms-set'): Record<string, unknown> {
  return {
    settings: {
      number_of_replicas: 1,
      analysis: {
        filter: { synonyms_filter: { type: 'synonym_graph', synonyms_set: set, updateable: true } },
        analyzer: {
          my_index_analyzer: { type: 'custom', tokenizer: 'standard', filter: ['lowercase'] },
          my_search_analyzer: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'synonyms_filter'] },
        },
      },
    },
    mappings: { properties: { title: { type: 'text', analyzer: 'my_index_analyzer', search_analyzer: 'my_search_analyzer' } } },
  };
}

const DOCS_SET = {
  synonyms_set: [
    { id: 'test-1', synonyms: 'hello, hi' },
    { synonyms: 'bye, goodbye' },
    { id: 'test-2', synonyms: 'test => check' },
  ],
};

const NO_RELOAD = { _shards: { total: 0, successful: 0, failed: 0 }, reload_details: [] };

function validationError(reason: string): Record<string, unknown> {
  const cause = { type: 'action_request_validation_exception', reason };
  return { error: { root_cause: [cause], ...cause }, status: 400 };
}

describe('embedded engine REST: synonyms management API', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
  });
  afterEach(() => es.close());

  async function hits(index: string, text: string): Promise<string[]> {
    const res = await es.call('POST', `/${index}/_search`, { query: { match: { title: text } } });
    expect(res.status).to.equal(200);
    return res.json.hits.hits.map((h: { _id: string }) => h._id);
  }

  describe('synonyms sets', () => {
    it('creates a set (ids generated when absent), then updates it (docs example)', async () => {
      const created = await es.call('PUT', '/_synonyms/my-synonyms-set', DOCS_SET);
      expect(created.status).to.equal(201);
      expect(created.json).to.deep.equal({ result: 'created', reload_analyzers_details: NO_RELOAD });
      const got = (await es.call('GET', '/_synonyms/my-synonyms-set')).json;
      expect(got.count).to.equal(3);
      const generated = got.synonyms_set.find((r: { synonyms: string }) => r.synonyms === 'bye, goodbye');
      expect(generated.id).to.match(/^[A-Za-z0-9_-]{20}$/);
      expect(got.synonyms_set.filter((r: { id: string }) => r.id.startsWith('test-'))).to.deep.equal([
        { id: 'test-1', synonyms: 'hello, hi' },
        { id: 'test-2', synonyms: 'test => check' },
      ]);
      const updated = await es.call('PUT', '/_synonyms/my-synonyms-set', { synonyms_set: [{ id: 'test-1', synonyms: 'hello, hi, howdy' }] });
      expect(updated.status).to.equal(200);
      expect(updated.json).to.deep.equal({ result: 'updated', reload_analyzers_details: NO_RELOAD });
      expect((await es.call('GET', '/_synonyms/my-synonyms-set')).json).to.deep.equal({ count: 1, synonyms_set: [{ id: 'test-1', synonyms: 'hello, hi, howdy' }] });
    });

    it('answers a set with its rule count and the rules by id, paged by from and size (docs example)', async () => {
      await es.call('PUT', '/_synonyms/my-synonyms-set', {
        synonyms_set: [
          { id: 'test-3', synonyms: 'test => check' },
          { id: 'test-1', synonyms: 'hello, hi' },
          { id: 'test-2', synonyms: 'bye, goodbye' },
        ],
      });
      expect((await es.call('GET', '/_synonyms/my-synonyms-set')).json).to.deep.equal({
        count: 3,
        synonyms_set: [
          { id: 'test-1', synonyms: 'hello, hi' },
          { id: 'test-2', synonyms: 'bye, goodbye' },
          { id: 'test-3', synonyms: 'test => check' },
        ],
      });
      expect((await es.call('GET', '/_synonyms/my-synonyms-set?from=1&size=1')).json).to.deep.equal({ count: 3, synonyms_set: [{ id: 'test-2', synonyms: 'bye, goodbye' }] });
      expect((await es.call('GET', '/_synonyms/my-synonyms-set?from=5')).json).to.deep.equal({ count: 3, synonyms_set: [] });
      expect((await es.call('GET', '/_synonyms/my-synonyms-set?from=-1&size=10000')).json).to.deep.equal(
        validationError('Validation Failed: 1: [from] must be a positive integer;'),
      );
      expect((await es.call('GET', '/_synonyms/my-synonyms-set?from=1&size=10000')).json).to.deep.equal(
        validationError('Validation Failed: 1: Too many results to retrieve. [from] + [size] must be less than or equal to 10000;'),
      );
      const notInt = await es.call('GET', '/_synonyms/my-synonyms-set?size=ten');
      expect(notInt.status).to.equal(400);
      expect(notInt.json.error).to.include({ type: 'illegal_argument_exception', reason: 'Failed to parse int parameter [size] with value [ten]' });
      // A set without rules exists.
      expect((await es.call('PUT', '/_synonyms/empty', { synonyms_set: [] })).status).to.equal(201);
      expect((await es.call('GET', '/_synonyms/empty')).json).to.deep.equal({ count: 0, synonyms_set: [] });
    });

    it('refuses a rule that does not parse, with every problem (docs example)', async () => {
      const bad = await es.call('PUT', '/_synonyms/my-synonyms-set', { synonyms_set: [{ synonyms: 'hello => hi => howdy' }] });
      expect(bad.status).to.equal(400);
      expect(bad.json).to.deep.equal(
        validationError('Validation Failed: 1: More than one explicit mapping specified in the same synonyms rule: [hello => hi => howdy];'),
      );
      const several = await es.call('PUT', '/_synonyms/s', { synonyms_set: [{ synonyms: '' }, { synonyms: 'a, , b' }, { synonyms: 'ok, fine' }, { synonyms: 'x => ,y' }] });
      expect(several.json.error.reason).to.equal(
        "Validation Failed: 1: [synonyms] field can't be empty;2: Incorrect syntax for [synonyms]: [a, , b];3: Incorrect syntax for [synonyms]: [x => ,y];",
      );
      expect((await es.call('GET', '/_synonyms/my-synonyms-set')).status).to.equal(404);
    });

    it('refuses a body it cannot read, quoting it', async () => {
      for (const body of ['{"synonyms_set": [{"id": "a"}]}', '{"rules": []}', '{"synonyms_set": "a, b"}', 'not json', '{"synonyms_set": [{"synonyms": "a, b", "extra": 1}]}']) {
        const res = await es.call('PUT', '/_synonyms/s', body);
        expect(res.status, body).to.equal(400);
        expect(res.json.error).to.include({ type: 'illegal_argument_exception', reason: `Failed to parse: ${body}` });
      }
      const noBody = await es.call('PUT', '/_synonyms/s');
      expect(noBody.json.error).to.include({ type: 'illegal_argument_exception', reason: 'Failed to parse: ' });
    });

    it('refuses more than 10,000 rules in a set', async () => {
      const rules = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, synonyms: `w${i}, v${i}` }));
      const tooMany = await es.call('PUT', '/_synonyms/big', { synonyms_set: rules(10_001) });
      expect(tooMany.status).to.equal(400);
      expect(tooMany.json.error).to.include({ type: 'illegal_argument_exception', reason: 'The number of synonyms rules in a synonym set cannot exceed 10000' });
      expect((await es.call('PUT', '/_synonyms/big', { synonyms_set: rules(10_000) })).status).to.equal(201);
      const oneMore = await es.call('PUT', '/_synonyms/big/another', { synonyms: 'p, q' });
      expect(oneMore.status).to.equal(400);
      expect(oneMore.json.error).to.include({ type: 'illegal_argument_exception', reason: 'The number of synonym rules in a synonyms set cannot exceed 10000' });
      expect((await es.call('PUT', '/_synonyms/big/r7', { synonyms: 'p, q' })).json.result).to.equal('updated');
      expect((await es.call('GET', '/_synonyms/big?from=9990&size=10')).json.count).to.equal(10_000);
    });

    it('lists the sets that have rules, by name, with their rule counts (docs example)', async () => {
      await es.call('PUT', '/_synonyms/new-ecommerce-synonyms', { synonyms_set: [{ synonyms: 'tv, television' }] });
      await es.call('PUT', '/_synonyms/ecommerce-synonyms', { synonyms_set: [{ synonyms: 'a, b' }, { synonyms: 'c, d' }, { synonyms: 'e, f' }] });
      await es.call('PUT', '/_synonyms/my-synonyms-set', DOCS_SET);
      await es.call('PUT', '/_synonyms/no-rules', { synonyms_set: [] });
      expect((await es.call('GET', '/_synonyms')).json).to.deep.equal({
        count: 3,
        results: [
          { synonyms_set: 'ecommerce-synonyms', count: 3 },
          { synonyms_set: 'my-synonyms-set', count: 3 },
          { synonyms_set: 'new-ecommerce-synonyms', count: 1 },
        ],
      });
      expect((await es.call('GET', '/_synonyms?from=1&size=1')).json).to.deep.equal({ count: 3, results: [{ synonyms_set: 'my-synonyms-set', count: 3 }] });
    });

    it('deletes a set, answering 404 for one that does not exist', async () => {
      await es.call('PUT', '/_synonyms/my-synonyms-set', DOCS_SET);
      expect((await es.call('DELETE', '/_synonyms/my-synonyms-set')).json).to.deep.equal({ acknowledged: true });
      for (const [method, path] of [['GET', '/_synonyms/my-synonyms-set'], ['DELETE', '/_synonyms/my-synonyms-set']]) {
        const missing = await es.call(method, path);
        expect(missing.status).to.equal(404);
        expect(missing.json).to.deep.equal({
          error: {
            root_cause: [{ type: 'resource_not_found_exception', reason: 'synonyms set [my-synonyms-set] not found' }],
            type: 'resource_not_found_exception',
            reason: 'synonyms set [my-synonyms-set] not found',
          },
          status: 404,
        });
      }
      expect((await es.call('GET', '/_synonyms')).json).to.deep.equal({ count: 0, results: [] });
    });

    it('refuses to delete a set an index uses (docs example)', async () => {
      await es.call('PUT', '/_synonyms/my-synonyms-set', { synonyms_set: [{ id: 'test-1', synonyms: 'hello, hi' }] });
      expect((await es.call('PUT', '/index-1', synonymsIndex())).status).to.equal(200);
      expect((await es.call('PUT', '/index-2', synonymsIndex())).status).to.equal(200);
      const refused = await es.call('DELETE', '/_synonyms/my-synonyms-set');
      expect(refused.status).to.equal(400);
      expect(refused.json.error).to.deep.include({
        type: 'illegal_argument_exception',
        reason: 'synonyms set [my-synonyms-set] cannot be deleted as it is used in the following indices: index-1, index-2',
      });
      await es.call('DELETE', '/index-1,index-2');
      expect((await es.call('DELETE', '/_synonyms/my-synonyms-set')).json).to.deep.equal({ acknowledged: true });
    });
  });

  describe('synonym rules', () => {
    beforeEach(async () => {
      await es.call('PUT', '/_synonyms/my-synonyms-set', {
        synonyms_set: [
          { id: 'test-1', synonyms: 'hello, hi' },
          { id: 'test-3', synonyms: 'bye, goodbye' },
          { id: 'test-2', synonyms: 'test => check' },
        ],
      });
    });

    it('gets a rule (docs example)', async () => {
      const got = await es.call('GET', '/_synonyms/my-synonyms-set/test-1');
      expect(got.status).to.equal(200);
      expect(got.json).to.deep.equal({ id: 'test-1', synonyms: 'hello, hi' });
    });

    it('creates and updates a rule', async () => {
      const created = await es.call('PUT', '/_synonyms/my-synonyms-set/test-4', { synonyms: 'laptop, notebook' });
      expect(created.status).to.equal(201);
      expect(created.json).to.deep.equal({ result: 'created', reload_analyzers_details: NO_RELOAD });
      const updated = await es.call('PUT', '/_synonyms/my-synonyms-set/test-1', { synonyms: 'hello, hi, howdy' });
      expect(updated.status).to.equal(200);
      expect(updated.json).to.deep.equal({ result: 'updated', reload_analyzers_details: NO_RELOAD });
      expect((await es.call('GET', '/_synonyms/my-synonyms-set')).json).to.deep.equal({
        count: 4,
        synonyms_set: [
          { id: 'test-1', synonyms: 'hello, hi, howdy' },
          { id: 'test-2', synonyms: 'test => check' },
          { id: 'test-3', synonyms: 'bye, goodbye' },
          { id: 'test-4', synonyms: 'laptop, notebook' },
        ],
      });
    });

    it('refuses a rule that does not parse (docs example) or a body it cannot read', async () => {
      const bad = await es.call('PUT', '/_synonyms/my-synonyms-set/test-1', { synonyms: 'hello => hi => howdy' });
      expect(bad.status).to.equal(400);
      expect(bad.json).to.deep.equal(
        validationError('Validation Failed: 1: More than one explicit mapping specified in the same synonyms rule: [hello => hi => howdy];'),
      );
      expect((await es.call('GET', '/_synonyms/my-synonyms-set/test-1')).json.synonyms).to.equal('hello, hi');
      const unreadable = await es.call('PUT', '/_synonyms/my-synonyms-set/test-1', { synonyms: 'a, b', id: 'x' });
      expect(unreadable.json.error).to.include({ type: 'illegal_argument_exception', reason: 'Failed to parse: {"synonyms":"a, b","id":"x"}' });
    });

    it('deletes a rule (docs example)', async () => {
      const deleted = await es.call('DELETE', '/_synonyms/my-synonyms-set/test-1');
      expect(deleted.status).to.equal(200);
      expect(deleted.json).to.deep.equal({ result: 'deleted', reload_analyzers_details: NO_RELOAD });
      expect((await es.call('GET', '/_synonyms/my-synonyms-set')).json.count).to.equal(2);
    });

    it('answers 404 for a rule or set that does not exist', async () => {
      const cases: Array<[string, string, unknown, string]> = [
        ['GET', '/_synonyms/my-synonyms-set/nope', undefined, 'synonym rule [nope] not found'],
        ['DELETE', '/_synonyms/my-synonyms-set/nope', undefined, 'synonym rule [nope] not found on synonyms set [my-synonyms-set]'],
        ['GET', '/_synonyms/other/test-1', undefined, 'synonyms set [other] not found'],
        ['PUT', '/_synonyms/other/test-1', { synonyms: 'a, b' }, 'synonyms set [other] not found'],
        ['DELETE', '/_synonyms/other/test-1', undefined, 'synonyms set [other] not found'],
      ];
      for (const [method, path, body, reason] of cases) {
        const res = await es.call(method, path, body);
        expect(res.status, `${method} ${path}`).to.equal(404);
        expect(res.json.error).to.deep.include({ type: 'resource_not_found_exception', reason });
      }
    });
  });

  describe('synonyms_set in search analyzers', () => {
    it('an updated set changes the next search, without closing the index', async () => {
      await es.call('PUT', '/_synonyms/my-synonyms-set', { synonyms_set: [{ id: 'test-1', synonyms: 'bye, goodbye' }] });
      expect((await es.call('PUT', '/test-index', synonymsIndex())).json).to.include({ acknowledged: true });
      await es.call('PUT', '/test-index/_doc/1?refresh=true', { title: 'Hello world' });
      expect(await hits('test-index', 'howdy')).to.deep.equal([]);

      const added = await es.call('PUT', '/_synonyms/my-synonyms-set/test-2', { synonyms: 'hello, howdy' });
      expect(added.status).to.equal(201);
      const details = added.json.reload_analyzers_details;
      expect(details._shards).to.deep.equal({ total: 2, successful: 1, failed: 0 });
      expect(details.reload_details).to.have.length(1);
      expect(details.reload_details[0]).to.deep.include({ index: 'test-index', reloaded_analyzers: ['my_search_analyzer'] });
      expect(details.reload_details[0].reloaded_node_ids).to.have.length(1);
      expect(await hits('test-index', 'howdy')).to.deep.equal(['1']);

      const removed = await es.call('DELETE', '/_synonyms/my-synonyms-set/test-2');
      expect(removed.json.reload_analyzers_details.reload_details[0]).to.deep.include({ index: 'test-index', reloaded_analyzers: ['my_search_analyzer'] });
      expect(await hits('test-index', 'howdy')).to.deep.equal([]);

      const replaced = await es.call('PUT', '/_synonyms/my-synonyms-set', { synonyms_set: [{ synonyms: 'world, planet' }] });
      expect(replaced.json.result).to.equal('updated');
      expect(replaced.json.reload_analyzers_details.reload_details.map((d: { index: string }) => d.index)).to.deep.equal(['test-index']);
      expect(await hits('test-index', 'planet')).to.deep.equal(['1']);
      const analyzed = await es.call('POST', '/test-index/_analyze', { analyzer: 'my_search_analyzer', text: 'planet' });
      expect(analyzed.json.tokens.map((t: { token: string }) => t.token)).to.have.members(['planet', 'world']);
    });

    it('reloads only the indices whose analyzers use the changed set', async () => {
      await es.call('PUT', '/_synonyms/a', { synonyms_set: [] });
      await es.call('PUT', '/_synonyms/b', { synonyms_set: [] });
      await es.call('PUT', '/uses-a', synonymsIndex('a'));
      await es.call('PUT', '/uses-b', synonymsIndex('b'));
      await es.call('PUT', '/plain', { settings: { number_of_replicas: 0 } });
      const res = await es.call('PUT', '/_synonyms/a/r1', { synonyms: 'x, y' });
      expect(res.json.reload_analyzers_details).to.deep.include({ _shards: { total: 5, successful: 3, failed: 0 } });
      expect(res.json.reload_analyzers_details.reload_details.map((d: { index: string }) => d.index)).to.deep.equal(['uses-a']);
    });

    it('_reload_search_analyzers rebuilds the updateable analyzers of the named indices', async () => {
      await es.call('PUT', '/_synonyms/my-synonyms-set', { synonyms_set: [{ synonyms: 'hello, hi' }] });
      await es.call('PUT', '/my-index-000001', synonymsIndex());
      await es.call('PUT', '/plain', { settings: { number_of_replicas: 0 } });
      for (const method of ['POST', 'GET']) {
        const res = await es.call(method, '/my-index-000001,plain/_reload_search_analyzers');
        expect(res.status).to.equal(200);
        expect(res.json._shards).to.deep.equal({ total: 3, successful: 2, failed: 0 });
        expect(res.json.reload_details.map((d: { index: string; reloaded_analyzers: string[] }) => [d.index, d.reloaded_analyzers])).to.deep.equal([
          ['my-index-000001', ['my_search_analyzer']],
          ['plain', []],
        ]);
      }
      const forSet = await es.call('POST', '/_all/_reload_search_analyzers?resource=other-set');
      expect(forSet.json.reload_details).to.deep.equal([]);
      expect((await es.call('POST', '/missing/_reload_search_analyzers')).status).to.equal(404);
      await es.call('POST', '/plain/_close');
      expect((await es.call('POST', '/plain/_reload_search_analyzers')).json.error.type).to.equal('index_closed_exception');
      expect((await es.call('POST', '/plain/_reload_search_analyzers?ignore_unavailable=true')).json.reload_details).to.deep.equal([]);
    });

    it('refuses an updateable filter in an index analyzer, and synonyms_set without updateable', async () => {
      await es.call('PUT', '/_synonyms/my-synonyms-set', { synonyms_set: [{ synonyms: 'hello, hi' }] });
      const body = synonymsIndex();
      (body.mappings as { properties: { title: Record<string, string> } }).properties.title.analyzer = 'my_search_analyzer';
      const indexTime = await es.call('PUT', '/bad', body);
      expect(indexTime.status).to.equal(400);
      expect(indexTime.json.error).to.deep.include({
        type: 'mapper_parsing_exception',
        reason: 'Failed to parse mapping: analyzer [my_search_analyzer] contains filters [synonyms_filter] that are not allowed to run in index time mode.',
      });
      await es.call('PUT', '/good', synonymsIndex());
      const mapping = await es.call('PUT', '/good/_mapping', { properties: { other: { type: 'text', analyzer: 'my_search_analyzer' } } });
      expect(mapping.json.error.type).to.equal('mapper_parsing_exception');

      const notUpdateable = await es.call('PUT', '/bad', {
        settings: { analysis: { filter: { s: { type: 'synonym', synonyms_set: 'my-synonyms-set' } }, analyzer: { a: { tokenizer: 'standard', filter: ['s'] } } } },
      });
      expect(notUpdateable.status).to.equal(400);
      expect(notUpdateable.json.error).to.deep.include({
        type: 'illegal_argument_exception',
        reason: "Can't apply [synonyms_set]! Loading synonyms from index is supported only for search time synonyms!",
      });
      const missingSet = await es.call('PUT', '/bad', synonymsIndex('no-such-set'));
      expect(missingSet.status).to.equal(404);
      expect(missingSet.json.error).to.deep.include({ type: 'resource_not_found_exception', reason: 'synonyms set [no-such-set] not found' });
      expect((await es.call('HEAD', '/bad')).status).to.equal(404);
    });

    it('a reload that cannot build the analyzer is a shard failure, and the analyzer in use stays', async () => {
      await es.call('PUT', '/_synonyms/my-synonyms-set', { synonyms_set: [{ id: 'ok', synonyms: 'hello, howdy' }] });
      const body = synonymsIndex();
      const analysis = (body.settings as { analysis: { filter: Record<string, unknown>; analyzer: Record<string, { filter: string[] }> } }).analysis;
      analysis.filter.my_stop = { type: 'stop', stopwords: ['the'] };
      analysis.analyzer.my_search_analyzer.filter = ['lowercase', 'my_stop', 'synonyms_filter'];
      await es.call('PUT', '/test-index', body);
      await es.call('PUT', '/test-index/_doc/1?refresh=true', { title: 'Hello world' });
      // "the" is removed by the stop filter in front of the synonyms: the rule cannot be built.
      const res = await es.call('PUT', '/_synonyms/my-synonyms-set/bad', { synonyms: 'the, hello' });
      expect(res.status).to.equal(201);
      expect(res.json.reload_analyzers_details).to.deep.equal({
        _shards: {
          total: 2, successful: 0, failed: 1,
          failures: [{
            shard: 0, index: 'test-index', status: 'BAD_REQUEST',
            reason: {
              type: 'illegal_argument_exception',
              reason: 'failed to build synonyms from [[my-synonyms-set] synonyms_set in .synonyms index]',
              caused_by: { type: 'illegal_argument_exception', reason: 'failed to build synonyms: term: the was completely eliminated by analyzer' },
            },
          }],
        },
        reload_details: [],
      });
      expect(await hits('test-index', 'howdy')).to.deep.equal(['1']);

      // After a restart the index loads without the set's rules (rather than keeping the engine
      // down) and says so; fixing the set reloads them.
      await es.close(false);
      const logged: string[] = [];
      const consoleError = console.error;
      console.error = (...args: unknown[]) => logged.push(args.join(' '));
      try {
        es = await startEngine({ dataDir: es.dataDir });
      } finally {
        console.error = consoleError;
      }
      expect(logged).to.deep.equal(['embedded engine: index [test-index] loaded without its synonyms sets: failed to build synonyms from [[my-synonyms-set] synonyms_set in .synonyms index]']);
      expect(await hits('test-index', 'howdy')).to.deep.equal([]);
      const fixed = await es.call('DELETE', '/_synonyms/my-synonyms-set/bad');
      expect(fixed.json.reload_analyzers_details.reload_details).to.deep.equal([
        { index: 'test-index', reloaded_analyzers: ['my_search_analyzer'], reloaded_node_ids: fixed.json.reload_analyzers_details.reload_details[0].reloaded_node_ids },
      ]);
      expect(await hits('test-index', 'howdy')).to.deep.equal(['1']);
    });

    it('an index being opened reads its sets anew', async () => {
      await es.call('PUT', '/_synonyms/my-synonyms-set', { synonyms_set: [] });
      await es.call('PUT', '/test-index', synonymsIndex());
      await es.call('PUT', '/test-index/_doc/1?refresh=true', { title: 'Hello world' });
      await es.call('POST', '/test-index/_close');
      // A closed index is not reloaded; opening it reads the set as it is now.
      const res = await es.call('PUT', '/_synonyms/my-synonyms-set/r', { synonyms: 'hello, howdy' });
      expect(res.json.reload_analyzers_details.reload_details).to.deep.equal([]);
      await es.call('POST', '/test-index/_open');
      expect(await hits('test-index', 'howdy')).to.deep.equal(['1']);
    });
  });

  it('keeps sets across a restart, and indices keep using them', async () => {
    await es.call('PUT', '/_synonyms/my-synonyms-set', DOCS_SET);
    await es.call('PUT', '/_synonyms/empty', { synonyms_set: [] });
    await es.call('PUT', '/_synonyms/my-synonyms-set/test-3', { synonyms: 'hello, howdy' });
    await es.call('DELETE', '/_synonyms/my-synonyms-set/test-2');
    await es.call('PUT', '/test-index', synonymsIndex());
    await es.call('PUT', '/test-index/_doc/1?refresh=true', { title: 'Hello world' });
    const before = (await es.call('GET', '/_synonyms/my-synonyms-set')).json;
    expect(before.count).to.equal(3);

    await es.close(false);
    es = await startEngine({ dataDir: es.dataDir });
    expect((await es.call('GET', '/_synonyms/my-synonyms-set')).json).to.deep.equal(before);
    expect((await es.call('GET', '/_synonyms/empty')).json).to.deep.equal({ count: 0, synonyms_set: [] });
    expect((await es.call('GET', '/_synonyms')).json).to.deep.equal({ count: 1, results: [{ synonyms_set: 'my-synonyms-set', count: 3 }] });
    expect(await hits('test-index', 'howdy')).to.deep.equal(['1']);
    expect((await es.call('DELETE', '/_synonyms/my-synonyms-set')).status).to.equal(400);
  });
});
