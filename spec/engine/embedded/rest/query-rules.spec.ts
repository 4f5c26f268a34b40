import { expect } from 'chai';
import { ndjson, startEngine, type Reply, type TestEngine } from '../support.js';
import { NDJSON } from '../../../support/http.js';


interface Hit {
  _id: string;
  _index: string;
  _score: number | null;
}

const hitsOf = (r: Reply): Hit[] => r.json.hits.hits;
const idsOf = (r: Reply) => hitsOf(r).map((h) => h._id);

/** The innermost `caused_by` of an error body: where Elasticsearch's object parsers put the actual reason. */
function rootReason(error: Record<string, unknown>): { type: string; reason: string } {
  let e = error as { type: string; reason: string; caused_by?: Record<string, unknown> };
  while (e.caused_by) e = e.caused_by as typeof e;
  return { type: e.type, reason: e.reason };
}

const pinnedRule = (ruleId: string, type: string, metadata: string, values: unknown[], ids: string[], extra: Record<string, unknown> = {}) => ({
  rule_id: ruleId, type: 'pinned', criteria: [{ type, metadata, values }], actions: { ids }, ...extra,
});

/** The put-ruleset example of Elasticsearch's documentation. */
const DOCS_EXAMPLE = {
  rules: [
    {
      rule_id: 'my-rule1', type: 'pinned',
      criteria: [{ type: 'contains', metadata: 'user.query', values: ['marvel', 'dc'] }, { type: 'exact', metadata: 'user.country', values: ['us'] }],
      actions: { ids: ['id1', 'id2'] },
    },
    {
      rule_id: 'my-rule2', type: 'pinned',
      criteria: [{ type: 'fuzzy', metadata: 'query_string', values: ['comic'] }],
      actions: { docs: [{ _index: 'index1', _id: 'id3' }, { _index: 'index2', _id: 'id4' }] },
    },
  ],
};

describe('embedded engine REST: query rules', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
  });
  afterEach(() => es.close());

  describe('rulesets', () => {
    it('creates (201), reads, replaces (200) and deletes a ruleset as documented', async () => {
      const created = await es.call('PUT', '/_query_rules/my-ruleset', DOCS_EXAMPLE);
      expect(created.status).to.equal(201);
      expect(created.json).to.deep.equal({ result: 'created' });
      const got = await es.call('GET', '/_query_rules/my-ruleset/');
      expect(got.status).to.equal(200);
      expect(got.json).to.deep.equal({ ruleset_id: 'my-ruleset', ...DOCS_EXAMPLE });

      const replaced = await es.call('PUT', '/_query_rules/my-ruleset', { rules: [DOCS_EXAMPLE.rules[1]] });
      expect(replaced.status).to.equal(200);
      expect(replaced.json).to.deep.equal({ result: 'updated' });
      expect((await es.call('GET', '/_query_rules/my-ruleset')).json.rules.map((r: { rule_id: string }) => r.rule_id)).to.deep.equal(['my-rule2']);

      expect((await es.call('DELETE', '/_query_rules/my-ruleset')).json).to.deep.equal({ acknowledged: true });
      const gone = await es.call('GET', '/_query_rules/my-ruleset');
      expect(gone.status).to.equal(404);
      expect(gone.json.error).to.include({ type: 'resource_not_found_exception', reason: 'my-ruleset' });
      const again = await es.call('DELETE', '/_query_rules/my-ruleset');
      expect(again.status).to.equal(404);
      expect(again.json.error.type).to.equal('resource_not_found_exception');
    });

    it('takes a single rule, criterion or value where an array is expected, and shows type names lowercase', async () => {
      await es.call('PUT', '/_query_rules/single', {
        rules: { rule_id: 'r', type: 'PINNED', criteria: { type: 'Exact', metadata: 'query_string', values: 'elastic' }, actions: { ids: ['id1'] } },
      });
      expect((await es.call('GET', '/_query_rules/single')).json).to.deep.equal({
        ruleset_id: 'single',
        rules: [{ rule_id: 'r', type: 'pinned', criteria: [{ type: 'exact', metadata: 'query_string', values: ['elastic'] }], actions: { ids: ['id1'] } }],
      });
    });

    it('orders rules by priority, those without one last in the order given', async () => {
      await es.call('PUT', '/_query_rules/test-ruleset', {
        rules: [
          pinnedRule('query-rule-id1', 'exact', 'query_string', ['elastic'], ['id1', 'id2']),
          pinnedRule('query-rule-id2', 'exact', 'query_string', ['kibana'], ['id3', 'id4'], { priority: 1 }),
        ],
      });
      const order = async () => (await es.call('GET', '/_query_rules/test-ruleset')).json.rules.map((r: { rule_id: string; priority?: number }) => [r.rule_id, r.priority]);
      expect(await order()).to.deep.equal([['query-rule-id2', 1], ['query-rule-id1', undefined]]);
      const put3 = await es.call('PUT', '/_query_rules/test-ruleset/_rule/query-rule-id3', {
        type: 'pinned', criteria: { type: 'exact', metadata: 'query_string', values: ['logstash'] }, actions: { ids: ['id1'] }, priority: 2,
      });
      expect(put3.status).to.equal(201);
      expect(await order()).to.deep.equal([['query-rule-id2', 1], ['query-rule-id3', 2], ['query-rule-id1', undefined]]);
      await es.call('PUT', '/_query_rules/test-ruleset/_rule/query-rule-id4', {
        type: 'pinned', criteria: { type: 'exact', metadata: 'query_string', values: ['search'] }, actions: { ids: ['id2'] },
      });
      expect(await order()).to.deep.equal([['query-rule-id2', 1], ['query-rule-id3', 2], ['query-rule-id1', undefined], ['query-rule-id4', undefined]]);
    });

    it('lists rulesets by id with their rule and criteria counts, paged by from and size', async () => {
      expect((await es.call('GET', '/_query_rules')).json).to.deep.equal({ count: 0, results: [] });
      const exact = (id: string, v: string) => pinnedRule(id, 'exact', 'query_string', [v], ['id1']);
      await es.call('PUT', '/_query_rules/test-query-ruleset-3', { rules: [exact('a', 'elastic'), exact('b', 'kibana')] });
      await es.call('PUT', '/_query_rules/test-query-ruleset-1', { rules: [exact('a', 'elastic'), exact('b', 'kibana'), exact('c', 'logstash')] });
      await es.call('PUT', '/_query_rules/test-query-ruleset-2', {
        rules: [exact('a', 'elastic'), exact('b', 'kibana'), exact('c', 'logstash'), exact('d', 'beats'),
          { rule_id: 'e', type: 'exclude', criteria: [{ type: 'fuzzy', metadata: 'query_string', values: ['inference'] }], actions: { ids: ['id9', 'id10'] } }],
      });
      await es.call('PUT', '/_query_rules/a-test-query-ruleset-with-lots-of-criteria', {
        rules: [
          { rule_id: '1', type: 'pinned', criteria: [{ type: 'exact', metadata: 'query_string', values: ['puggles'] }, { type: 'gt', metadata: 'year', values: [2023] }], actions: { ids: ['id1'] } },
          exact('2', 'pug'),
          pinnedRule('3', 'fuzzy', 'query_string', ['puggles'], ['id5']),
          { rule_id: '4', type: 'pinned', criteria: [{ type: 'always' }], actions: { ids: ['id7'] } },
          { rule_id: '5', type: 'pinned', criteria: [{ type: 'prefix', metadata: 'query_string', values: ['pug'] }, { type: 'suffix', metadata: 'query_string', values: ['gle'] }], actions: { ids: ['id9'] } },
        ],
      });
      const all = (await es.call('GET', '/_query_rules')).json;
      expect(all.count).to.equal(4);
      expect(all.results).to.deep.equal([
        { ruleset_id: 'a-test-query-ruleset-with-lots-of-criteria', rule_total_count: 5, rule_criteria_types_counts: { always: 1, exact: 2, fuzzy: 1, prefix: 1, suffix: 1, gt: 1 } },
        { ruleset_id: 'test-query-ruleset-1', rule_total_count: 3, rule_criteria_types_counts: { exact: 3 } },
        { ruleset_id: 'test-query-ruleset-2', rule_total_count: 5, rule_criteria_types_counts: { exact: 4, fuzzy: 1 } },
        { ruleset_id: 'test-query-ruleset-3', rule_total_count: 2, rule_criteria_types_counts: { exact: 2 } },
      ]);
      const page = (await es.call('GET', '/_query_rules/?from=1&size=2')).json;
      expect(page.count).to.equal(4);
      expect(page.results.map((r: { ruleset_id: string }) => r.ruleset_id)).to.deep.equal(['test-query-ruleset-1', 'test-query-ruleset-2']);
      const negative = await es.call('GET', '/_query_rules?from=-1');
      expect(negative.status).to.equal(400);
      expect(negative.json.error).to.include({ type: 'illegal_argument_exception', reason: 'Parameter [from] cannot be < 0' });
      expect((await es.call('GET', '/_query_rules?size=x')).json.error.reason).to.equal('Failed to parse int parameter [size] with value [x]');
    });
  });

  describe('single rules', () => {
    it('creates a rule and its ruleset, reads it, and updates it in place', async () => {
      const rule = { type: 'pinned', criteria: { type: 'exact', metadata: 'query_string', values: ['elastic'] }, actions: { ids: ['id1', 'id2'] }, priority: 5 };
      const created = await es.call('PUT', '/_query_rules/new-ruleset/_rule/query-rule-id', rule);
      expect(created.status).to.equal(201);
      expect(created.json).to.deep.equal({ result: 'created' });
      expect((await es.call('GET', '/_query_rules/new-ruleset/_rule/query-rule-id')).json).to.deep.equal({
        rule_id: 'query-rule-id', type: 'pinned', criteria: [{ type: 'exact', metadata: 'query_string', values: ['elastic'] }], actions: { ids: ['id1', 'id2'] }, priority: 5,
      });
      const updated = await es.call('PUT', '/_query_rules/new-ruleset/_rule/query-rule-id', {
        rule_id: 'query-rule-id', type: 'pinned', criteria: [{ type: 'contains', metadata: 'query_string', values: ['search'] }], actions: { ids: ['id3'] }, priority: 2,
      });
      expect(updated.status).to.equal(200);
      expect(updated.json).to.deep.equal({ result: 'updated' });
      const got = (await es.call('GET', '/_query_rules/new-ruleset/_rule/query-rule-id')).json;
      expect(got).to.deep.include({ criteria: [{ type: 'contains', metadata: 'query_string', values: ['search'] }], actions: { ids: ['id3'] }, priority: 2 });
      expect((await es.call('GET', '/_query_rules/new-ruleset')).json.rules).to.have.length(1);
    });

    it('refuses a body whose rule_id is not the path\'s, and answers missing rules and rulesets with 404', async () => {
      const mismatch = await es.call('PUT', '/_query_rules/rs/_rule/a', { rule_id: 'b', type: 'pinned', criteria: { type: 'always' }, actions: { ids: ['1'] } });
      expect(mismatch.status).to.equal(400);
      expect(mismatch.json.error).to.include({ type: 'illegal_argument_exception', reason: 'rule_id does not match the id in the query rule' });
      await es.call('PUT', '/_query_rules/rs/_rule/a', { type: 'pinned', criteria: { type: 'always' }, actions: { ids: ['1'] } });
      const noRule = await es.call('GET', '/_query_rules/rs/_rule/nope');
      expect(noRule.status).to.equal(404);
      expect(noRule.json.error).to.include({ type: 'resource_not_found_exception', reason: 'rule id nope not found in ruleset rs' });
      const noRuleset = await es.call('GET', '/_query_rules/nope/_rule/a');
      expect(noRuleset.status).to.equal(404);
      expect(noRuleset.json.error).to.include({ type: 'resource_not_found_exception', reason: 'nope' });
      expect((await es.call('DELETE', '/_query_rules/rs/_rule/nope')).status).to.equal(404);
      expect((await es.call('DELETE', '/_query_rules/nope/_rule/a')).status).to.equal(404);
    });

    it('deletes a rule, and the ruleset with its last rule', async () => {
      await es.call('PUT', '/_query_rules/to-delete', {
        rules: [pinnedRule('query-rule-id1', 'exact', 'query_string', ['elastic'], ['id1']), pinnedRule('query-rule-id2', 'exact', 'query_string', ['search'], ['id3'])],
      });
      expect((await es.call('DELETE', '/_query_rules/to-delete/_rule/query-rule-id1')).json).to.deep.equal({ acknowledged: true });
      expect((await es.call('GET', '/_query_rules/to-delete/_rule/query-rule-id1')).status).to.equal(404);
      expect((await es.call('GET', '/_query_rules/to-delete')).json.rules.map((r: { rule_id: string }) => r.rule_id)).to.deep.equal(['query-rule-id2']);
      expect((await es.call('DELETE', '/_query_rules/to-delete/_rule/query-rule-id2')).json).to.deep.equal({ acknowledged: true });
      expect((await es.call('GET', '/_query_rules/to-delete')).status).to.equal(404);
    });
  });

  describe('validation', () => {
    const put = (body: unknown, id = 'rs') => es.call('PUT', `/_query_rules/${id}`, body);
    const rule = (over: Record<string, unknown>) => ({ rule_id: 'r', type: 'pinned', criteria: [{ type: 'exact', metadata: 'q', values: ['v'] }], actions: { ids: ['1'] }, ...over });

    it('needs rules, each with a rule_id (action_request_validation_exception)', async () => {
      let r = await put({ rules: [] });
      expect(r.status).to.equal(400);
      expect(r.json.error).to.include({ type: 'action_request_validation_exception', reason: 'Validation Failed: 1: rules cannot be null or empty;' });
      r = await put({});
      expect(r.json.error.reason).to.equal('Validation Failed: 1: rules cannot be null or empty;');
      r = await put({ rules: [rule({ rule_id: undefined })] });
      expect(r.json.error.type).to.equal('action_request_validation_exception');
      expect(r.json.error.reason).to.equal('Validation Failed: 1: rule_id cannot be null or empty. rule: [{"rule_id":null,"type":"pinned","criteria":[{"type":"exact","metadata":"q","values":["v"]}],"actions":{"ids":["1"]}}];');
      r = await es.call('PUT', '/_query_rules/rs');
      expect(r.json.error).to.include({ type: 'parse_exception', reason: 'request body is required' });
    });

    it('refuses actions with both or neither of ids and docs, empty, not a list, or over 100 documents', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ actions: { ids: ['1'], docs: [{ _index: 'i', _id: '1' }] } }, 'pinned query rule actions must contain only one of either ids or docs'],
        [{ type: 'exclude', actions: { foo: 'bar' } }, 'exclude query rule actions must contain only one of either ids or docs'],
        [{ actions: { ids: [] } }, 'pinned query rule actions cannot be empty'],
        [{ actions: { ids: 'id1' } }, 'pinned query rule actions must be a list'],
        [{ actions: { ids: Array.from({ length: 101 }, (_, i) => `id${i}`) } }, 'pinned documents cannot exceed 100'],
      ];
      for (const [over, reason] of cases) {
        const r = await put({ rules: [rule(over)] });
        expect(r.status, reason).to.equal(400);
        expect(r.json.error.type).to.equal('x_content_parse_exception');
        expect(r.json.error.reason).to.contain('[query_ruleset] failed to parse field [rules]');
        expect(rootReason(r.json.error)).to.deep.equal({ type: 'parse_exception', reason });
      }
      expect((await put({ rules: [rule({ actions: { ids: Array.from({ length: 100 }, (_, i) => `id${i}`) } })] })).status).to.equal(201);
    });

    it('refuses unknown types, missing criteria fields, empty criteria and actions, priorities out of range and unknown fields', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ type: 'boost' }, 'illegal_argument_exception', 'Unknown QueryRuleType: boost'],
        [{ criteria: [{ type: 'regex', metadata: 'q', values: ['v'] }] }, 'illegal_argument_exception', 'Unknown QueryRuleCriteriaType: regex'],
        [{ criteria: [{ type: 'exact', values: ['v'] }] }, 'illegal_argument_exception', 'criteriaMetadata cannot be blank'],
        [{ criteria: [{ type: 'prefix', metadata: 'q' }] }, 'illegal_argument_exception', 'criteriaValues cannot be null or empty'],
        [{ criteria: [] }, 'illegal_argument_exception', 'Query rule criteria cannot be empty'],
        [{ actions: {} }, 'illegal_argument_exception', 'Query rule actions cannot be empty'],
        [{ priority: 1000001 }, 'illegal_argument_exception', 'Priority was 1000001, must be between 0 and 1000000'],
        [{ priority: -1 }, 'illegal_argument_exception', 'Priority was -1, must be between 0 and 1000000'],
        [{ type: undefined }, 'illegal_argument_exception', 'Required [type]'],
        [{ tags: ['x'] }, 'x_content_parse_exception', '[1:2] [query_rule] unknown field [tags]'],
      ];
      for (const [over, type, reason] of cases) {
        const r = await put({ rules: [rule(over)] });
        expect(r.status, reason).to.equal(400);
        expect(rootReason(r.json.error), reason).to.deep.equal({ type, reason });
      }
      expect((await put({ rules: [rule({ priority: 1000000 })] })).status).to.equal(201);
      expect((await put({ rules: [rule({})], foo: 1 })).json.error).to.include({ type: 'x_content_parse_exception', reason: '[1:2] [query_ruleset] unknown field [foo]' });
      const mismatch = await put({ ruleset_id: 'other', rules: [rule({})] });
      expect(rootReason(mismatch.json.error).reason).to.equal('Query ruleset identifier [other] does not match the resource name: [rs]');
      const single = await es.call('PUT', '/_query_rules/rs/_rule/r', { type: 'pinned', criteria: [], actions: { ids: ['1'] } });
      expect(single.json.error).to.include({ type: 'x_content_parse_exception', reason: '[1:2] Failed to build [query_rule] after last required field arrived' });
      expect(single.json.error.caused_by).to.deep.equal({ type: 'illegal_argument_exception', reason: 'Query rule criteria cannot be empty' });
    });

    it('allows 100 rules in a ruleset, no more, whether put whole or rule by rule', async () => {
      const rules = (n: number) => Array.from({ length: n }, (_, i) => rule({ rule_id: `r${i}` }));
      const over = await put({ rules: rules(101) });
      expect(over.status).to.equal(400);
      expect(over.json.error).to.include({
        type: 'illegal_argument_exception',
        reason: 'The number of rules in a ruleset cannot exceed [100].This maximum can be set by changing the [xpack.applications.rules.max_rules_per_ruleset] setting.',
      });
      expect((await put({ rules: rules(100) })).status).to.equal(201);
      const oneMore = await es.call('PUT', '/_query_rules/rs/_rule/extra', { type: 'pinned', criteria: { type: 'always' }, actions: { ids: ['1'] } });
      expect(oneMore.status).to.equal(400);
      expect(oneMore.json.error.type).to.equal('illegal_argument_exception');
      const replace = await es.call('PUT', '/_query_rules/rs/_rule/r5', { type: 'pinned', criteria: { type: 'always' }, actions: { ids: ['1'] } });
      expect(replace.status).to.equal(200);
    });
  });

  describe('test API', () => {
    beforeEach(async () => {
      await es.call('PUT', '/_query_rules/test-ruleset', {
        rules: [
          pinnedRule('rule1', 'exact', 'query_string', ['search'], ['doc1']),
          { rule_id: 'rule2', type: 'pinned', criteria: [{ type: 'exact', metadata: 'query_string', values: ['ui'] }], actions: { docs: [{ _index: 'test-index1', _id: 'doc2' }] } },
          pinnedRule('rule3', 'contains', 'query_string', ['kibana', 'logstash'], ['doc2', 'doc3']),
          { rule_id: 'rule5', type: 'exclude', criteria: [{ type: 'exact', metadata: 'query_string', values: ['search'] }], actions: { ids: ['doc8'] } },
        ],
      });
    });

    it('answers the rules the match criteria meet, in ruleset order', async () => {
      const test = async (criteria: Record<string, unknown>) => (await es.call('POST', '/_query_rules/test-ruleset/_test', { match_criteria: criteria })).json;
      expect(await test({ query_string: 'search' })).to.deep.equal({
        total_matched_rules: 2, matched_rules: [{ ruleset_id: 'test-ruleset', rule_id: 'rule1' }, { ruleset_id: 'test-ruleset', rule_id: 'rule5' }],
      });
      expect((await test({ query_string: 'ui' })).matched_rules).to.deep.equal([{ ruleset_id: 'test-ruleset', rule_id: 'rule2' }]);
      expect((await test({ query_string: 'logstash' })).matched_rules).to.deep.equal([{ ruleset_id: 'test-ruleset', rule_id: 'rule3' }]);
      expect(await test({ query_string: 'no-match' })).to.deep.equal({ total_matched_rules: 0, matched_rules: [] });
      expect(await test({ other_key: 'search' })).to.deep.equal({ total_matched_rules: 0, matched_rules: [] });
    });

    it('reads the body before the ruleset: 400 for a missing match_criteria, 404 for a missing ruleset', async () => {
      const empty = await es.call('POST', '/_query_rules/nonexistent-ruleset/_test', {});
      expect(empty.status).to.equal(400);
      expect(empty.json.error).to.include({ type: 'illegal_argument_exception', reason: 'Required [match_criteria]' });
      const missing = await es.call('POST', '/_query_rules/nonexistent-ruleset/_test', { match_criteria: { foo: 'bar' } });
      expect(missing.status).to.equal(404);
      expect(missing.json.error).to.include({ type: 'resource_not_found_exception', reason: 'nonexistent-ruleset' });
    });

    it('matches numeric and text criteria on the same key by the type of the value given', async () => {
      await es.call('PUT', '/_query_rules/combined-ruleset', {
        rules: [pinnedRule('rule1', 'exact', 'foo', ['bar'], ['doc1']), pinnedRule('rule2', 'lte', 'foo', [100], ['doc2'])],
      });
      const matched = async (foo: unknown) => (await es.call('POST', '/_query_rules/combined-ruleset/_test', { match_criteria: { foo } })).json.matched_rules.map((m: { rule_id: string }) => m.rule_id);
      expect(await matched(100)).to.deep.equal(['rule2']);
      expect(await matched('bar')).to.deep.equal(['rule1']);
      expect(await matched('baz')).to.deep.equal([]);
    });
  });

  describe('criteria types', () => {
    beforeEach(async () => {
      await es.call('PUT', '/_query_rules/criteria', {
        rules: [
          pinnedRule('exact', 'exact', 'q', ['puggles', 42], ['1']),
          pinnedRule('fuzzy', 'fuzzy', 'q', ['rescue dogs'], ['2']),
          pinnedRule('prefix', 'prefix', 'q', ['pug'], ['3']),
          pinnedRule('suffix', 'suffix', 'q', ['gles'], ['4']),
          pinnedRule('contains', 'contains', 'q', ['ugg'], ['5']),
          pinnedRule('lt', 'lt', 'n', ['10'], ['6']),
          pinnedRule('lte', 'lte', 'n', ['10'], ['7']),
          pinnedRule('gt', 'gt', 'n', ['10'], ['8']),
          pinnedRule('gte', 'gte', 'n', ['10.0'], ['9']),
          { rule_id: 'always', type: 'pinned', criteria: [{ type: 'always' }], actions: { ids: ['10'] } },
        ],
      });
    });
    const matched = async (criteria: Record<string, unknown>) =>
      (await es.call('POST', '/_query_rules/criteria/_test', { match_criteria: criteria })).json.matched_rules.map((m: { rule_id: string }) => m.rule_id);

    it('compares strings exactly, by prefix, suffix, containment and Levenshtein similarity', async () => {
      expect(await matched({ q: 'puggles' })).to.deep.equal(['exact', 'prefix', 'suffix', 'contains', 'always']);
      expect(await matched({ q: 'Puggles' })).to.deep.equal(['suffix', 'contains', 'always']);
      expect(await matched({ q: 'rescue dog' })).to.deep.equal(['fuzzy', 'always']);
      expect(await matched({ q: 'rescue cats' })).to.deep.equal(['fuzzy', 'always']);
      expect(await matched({ q: 'fancy cats' })).to.deep.equal(['always']);
      expect(await matched({ q: 42 })).to.deep.equal(['exact', 'always']);
    });

    it('compares numbers (and numeric strings) with lt, lte, gt and gte; other values never match them', async () => {
      expect(await matched({ n: 9 })).to.deep.equal(['lt', 'lte', 'always']);
      expect(await matched({ n: 10 })).to.deep.equal(['lte', 'gte', 'always']);
      expect(await matched({ n: '10.5' })).to.deep.equal(['gt', 'gte', 'always']);
      expect(await matched({ n: 'ten' })).to.deep.equal(['always']);
      expect(await matched({ n: true })).to.deep.equal(['always']);
    });

    it('evaluates always once any match criteria is given, and requires every criterion of a rule to match', async () => {
      expect(await matched({})).to.deep.equal([]);
      await es.call('PUT', '/_query_rules/both', {
        rules: [{ rule_id: 'r', type: 'pinned', criteria: [{ type: 'contains', metadata: 'user_query', values: ['pugs', 'puggles'] }, { type: 'exact', metadata: 'user_country', values: ['us'] }], actions: { ids: ['1'] } }],
      });
      const both = async (criteria: Record<string, unknown>) => (await es.call('POST', '/_query_rules/both/_test', { match_criteria: criteria })).json.total_matched_rules;
      expect(await both({ user_query: 'I love pugs', user_country: 'us' })).to.equal(1);
      expect(await both({ user_query: 'I love pugs', user_country: 'ca' })).to.equal(0);
      // As in Elasticsearch, a criterion whose metadata is not among the match criteria is not evaluated.
      expect(await both({ user_query: 'I love pugs' })).to.equal(1);
    });
  });

  it('keeps rulesets across a restart of the engine', async () => {
    await es.call('PUT', '/_query_rules/my-ruleset', DOCS_EXAMPLE);
    await es.call('PUT', '/_query_rules/other/_rule/r1', { type: 'exclude', criteria: { type: 'always' }, actions: { ids: ['x'] }, priority: 3 });
    await es.call('PUT', '/_query_rules/gone', { rules: [DOCS_EXAMPLE.rules[0]] });
    await es.call('DELETE', '/_query_rules/gone');
    const dataDir = es.dataDir;
    await es.close(false);
    es = await startEngine({ dataDir });
    expect((await es.call('GET', '/_query_rules/my-ruleset')).json).to.deep.equal({ ruleset_id: 'my-ruleset', ...DOCS_EXAMPLE });
    expect((await es.call('GET', '/_query_rules/other/_rule/r1')).json).to.deep.equal({
      rule_id: 'r1', type: 'exclude', criteria: [{ type: 'always' }], actions: { ids: ['x'] }, priority: 3,
    });
    expect((await es.call('GET', '/_query_rules')).json.results.map((r: { ruleset_id: string }) => r.ruleset_id)).to.deep.equal(['my-ruleset', 'other']);
  });

  describe('searching', () => {
    beforeEach(async () => {
      await es.call('PUT', '/test-index1', { aliases: { 'test-alias1': {} } });
      await es.call('PUT', '/test-index2', { aliases: { 'test-alias1': {} } });
      const docs1 = ['elastic', 'kibana', 'logstash', 'you know, for search', 'beats', 'siem', 'observability', 'elasticsearch'];
      const lines: unknown[] = [];
      docs1.forEach((text, i) => lines.push({ index: { _index: 'test-index1', _id: `doc${i + 1}` } }, { text }));
      lines.push({ index: { _index: 'test-index2', _id: 'another-doc' } }, { text: 'you know, for search' });
      lines.push({ index: { _index: 'test-index2', _id: 'doc8' } }, { text: 'elasticsearch' });
      await es.call('POST', '/_bulk?refresh=true', ndjson(lines), NDJSON);
      await es.call('PUT', '/_query_rules/test-ruleset', {
        rules: [
          pinnedRule('rule1', 'exact', 'query_string', ['search'], ['doc1']),
          { rule_id: 'rule2', type: 'pinned', criteria: [{ type: 'exact', metadata: 'query_string', values: ['ui'] }], actions: { docs: [{ _index: 'test-index1', _id: 'doc2' }] } },
          pinnedRule('rule3', 'contains', 'query_string', ['kibana', 'logstash'], ['doc2', 'doc3']),
          pinnedRule('rule4', 'exact', 'query_string', ['ops'], ['doc7']),
          { rule_id: 'rule5', type: 'exclude', criteria: [{ type: 'exact', metadata: 'query_string', values: ['search'] }], actions: { ids: ['doc8'] } },
        ],
      });
      await es.call('PUT', '/_query_rules/another-test-ruleset', { rules: [pinnedRule('rule5', 'exact', 'query_string', ['ops'], ['doc6'])] });
    });

    const search = (body: unknown, index = '') => es.call('POST', `${index ? `/${index}` : ''}/_search`, body);
    const ruleQuery = (query: string, matchCriteria: Record<string, unknown>, rulesetIds: unknown = ['test-ruleset'], organic?: unknown) => ({
      query: { rule: { organic: organic ?? { query_string: { default_field: 'text', query } }, match_criteria: matchCriteria, ruleset_ids: rulesetIds } },
    });

    describe('pinned query', () => {
      it('puts the ids first in the order given, above every organic hit, then the organic hits', async () => {
        const r = await search({ query: { pinned: { ids: ['doc6', 'doc3'], organic: { match: { text: 'elastic kibana' } } } } }, 'test-index1');
        expect(r.status).to.equal(200);
        expect(idsOf(r)).to.deep.equal(['doc6', 'doc3', 'doc1', 'doc2']);
        const [first, second, third] = hitsOf(r).map((h) => h._score!);
        expect(first).to.be.greaterThan(second);
        expect(second).to.be.greaterThan(1.7e38);
        expect(third).to.be.lessThan(10);
        expect(r.json.hits.max_score).to.equal(first);
        expect(r.json.hits.total.value).to.equal(4);
        // the organic scores are the organic query's own
        const organic = await search({ query: { match: { text: 'elastic kibana' } } }, 'test-index1');
        expect(hitsOf(r).slice(2).map((h) => h._score)).to.deep.equal(hitsOf(organic).map((h) => h._score));
      });

      it('pins a document that also matches organically at its pinned place, and ignores ids that do not exist', async () => {
        const r = await search({ query: { pinned: { ids: ['nope', 'doc2', 'doc1'], organic: { match: { text: 'elastic kibana' } } } } }, 'test-index1');
        expect(idsOf(r)).to.deep.equal(['doc2', 'doc1']);
        expect(r.json.hits.total.value).to.equal(2);
      });

      it('pins docs only in the index each names', async () => {
        const r = await search({
          query: { pinned: { docs: [{ _index: 'test-index2', _id: 'doc8' }, { _index: 'test-index1', _id: 'doc5' }], organic: { match: { text: 'search' } } } },
        }, 'test-index1,test-index2');
        expect(hitsOf(r).map((h) => `${h._index}/${h._id}`)).to.deep.equal(['test-index2/doc8', 'test-index1/doc5', 'test-index1/doc4', 'test-index2/another-doc']);
      });

      it('counts, filters and explains as a query', async () => {
        expect((await es.call('POST', '/test-index1/_count', { query: { pinned: { ids: ['doc6'], organic: { match: { text: 'elastic' } } } } })).json.count).to.equal(2);
        const filtered = await search({ query: { bool: { filter: [{ pinned: { ids: ['doc6'], organic: { match_none: {} } } }] } } }, 'test-index1');
        expect(idsOf(filtered)).to.deep.equal(['doc6']);
        const explained = await es.call('POST', '/test-index1/_explain/doc6', { query: { pinned: { ids: ['doc6'], organic: { match: { text: 'elastic' } } } } });
        expect(explained.json.matched).to.equal(true);
        expect(explained.json.explanation.value).to.be.greaterThan(1.7e38);
      });

      it('refuses what Elasticsearch refuses', async () => {
        const organic = { match_all: {} };
        const cases: Array<[unknown, string, string | undefined]> = [
          [{ organic }, '[1:2] Failed to build [pinned] after last required field arrived', '[pinned] ids and docs cannot both be null'],
          [{ organic, ids: ['1'], docs: [{ _index: 'i', _id: '1' }] }, '[1:2] Failed to build [pinned] after last required field arrived', '[pinned] ids and docs cannot both be used'],
          [{ organic, ids: ['1', '2', '1'] }, '[1:2] Failed to build [pinned] after last required field arrived', '[pinned] duplicate id found in list: 1'],
          [{ organic, ids: Array.from({ length: 101 }, (_, i) => String(i)) }, '[1:2] Failed to build [pinned] after last required field arrived', '[pinned] Max of 100 ids exceeded: 101 provided.'],
          [{ organic, docs: [{ _id: '1' }] }, '[1:2] [pinned] failed to parse field [docs]', 'Required [_index]'],
          [{ ids: ['1'] }, 'Required [organic]', undefined],
          [{ organic, ids: ['1'], foo: 1 }, '[1:2] [pinned] unknown field [foo]', undefined],
        ];
        for (const [pinned, reason, cause] of cases) {
          const r = await search({ query: { pinned } }, 'test-index1');
          expect(r.status, reason).to.equal(400);
          expect(r.json.error).to.include({ type: 'parsing_exception', reason });
          if (cause) expect(rootReason(r.json.error).reason).to.equal(cause);
        }
        const inner = await search({ query: { pinned: { ids: ['1'], organic: { nope: {} } } } }, 'test-index1');
        expect(inner.json.error.reason).to.equal('[1:2] [pinned] failed to parse field [organic]');
        expect(inner.json.error.caused_by.reason).to.equal('unknown query [nope]');
      });
    });

    describe('rule query', () => {
      it('pins the ids of a matching rule and excludes the documents of a matching exclude rule', async () => {
        const r = await search(ruleQuery('search', { query_string: 'search' }, 'test-ruleset'), 'test-index1');
        expect(r.json.hits.total.value).to.equal(2);
        expect(idsOf(r)).to.deep.equal(['doc1', 'doc4']);
        // without the rule, doc8 of test-index2 would be found by "elasticsearch"; rule5 excludes it on every index
        const excluded = await search(ruleQuery('elasticsearch', { query_string: 'search' }));
        expect(idsOf(excluded)).to.deep.equal(['doc1']);
      });

      it('pins the docs of a matching rule, and several pinned ids in order above the organic hits', async () => {
        const docs = await search(ruleQuery('ui', { query_string: 'ui' }));
        expect(hitsOf(docs).map((h) => `${h._index}/${h._id}`)).to.deep.equal(['test-index1/doc2']);
        const multiple = await search(ruleQuery('logstash', { query_string: 'logstash' }));
        expect(multiple.json.hits.total.value).to.equal(2);
        expect(idsOf(multiple)).to.deep.equal(['doc2', 'doc3']);
        const complex = await search(ruleQuery('elastic and kibana are good for search', { query_string: 'elastic and kibana are good for search' }), 'test-index1');
        expect(complex.json.hits.total.value).to.equal(4);
        expect(idsOf(complex).slice(0, 2)).to.deep.equal(['doc2', 'doc3']);
      });

      it('changes nothing when no rule matches: the organic hits and scores', async () => {
        const organic = await search({ query: { query_string: { default_field: 'text', query: 'beats search' } } });
        const ruled = await search(ruleQuery('beats search', { query_string: 'beats' }));
        expect(ruled.json.hits).to.deep.equal(organic.json.hits);
        const otherKey = await search(ruleQuery('beats search', { user_country: 'search' }));
        expect(otherKey.json.hits).to.deep.equal(organic.json.hits);
      });

      it('applies several rulesets in the order given', async () => {
        const r = await search(ruleQuery('beats', { query_string: 'ops' }, ['test-ruleset', 'another-test-ruleset']), 'test-index1');
        expect(idsOf(r)).to.deep.equal(['doc7', 'doc6', 'doc5']);
        const reversed = await search(ruleQuery('beats', { query_string: 'ops' }, ['another-test-ruleset', 'test-ruleset']), 'test-index1');
        expect(idsOf(reversed)).to.deep.equal(['doc6', 'doc7', 'doc5']);
      });

      it('pins and excludes a document of one index only when the rule names its index', async () => {
        await es.call('PUT', '/_query_rules/alias-ruleset', {
          rules: [
            { rule_id: 'rule1', type: 'pinned', criteria: [{ type: 'exact', metadata: 'foo', values: ['bar'] }], actions: { docs: [{ _index: 'test-index1', _id: 'doc8' }] } },
            { rule_id: 'rule2', type: 'exclude', criteria: [{ type: 'exact', metadata: 'foo', values: ['baz'] }], actions: { docs: [{ _index: 'test-index1', _id: 'doc8' }] } },
          ],
        });
        const pinned = await search(ruleQuery('', { foo: 'bar' }, ['alias-ruleset'], { match_none: {} }), 'test-alias1');
        expect(hitsOf(pinned).map((h) => `${h._index}/${h._id}`)).to.deep.equal(['test-index1/doc8']);
        const excluded = await search(ruleQuery('', { foo: 'baz' }, ['alias-ruleset'], { query_string: { query: 'elasticsearch' } }));
        expect(hitsOf(excluded).map((h) => `${h._index}/${h._id}`)).to.deep.equal(['test-index2/doc8']);
        const neither = await search(ruleQuery('', { foo: 'not-a-match' }, ['alias-ruleset'], { query_string: { query: 'elasticsearch' } }));
        expect(neither.json.hits.total.value).to.equal(2);
      });

      it('excludes a document both pinned and excluded, and every document of several exclude rules', async () => {
        await es.call('PUT', '/_query_rules/double-jeopardy-ruleset', {
          rules: [
            pinnedRule('rule1', 'exact', 'foo', ['bar'], ['doc8']),
            { rule_id: 'rule2', type: 'exclude', criteria: [{ type: 'exact', metadata: 'foo', values: ['bar'] }], actions: { ids: ['doc8'] } },
          ],
        });
        const jeopardy = await search(ruleQuery('', { foo: 'bar' }, ['double-jeopardy-ruleset'], { query_string: { query: 'elasticsearch' } }), 'test-index2');
        expect(jeopardy.json.hits.total.value).to.equal(0);
        await es.call('PUT', '/_query_rules/multiple-exclude-ruleset', {
          rules: ['doc1', 'doc8'].map((id, i) => ({ rule_id: `rule${i}`, type: 'exclude', criteria: [{ type: 'exact', metadata: 'foo', values: ['bar'] }], actions: { ids: [id] } })),
        });
        const organic = { query_string: { query: 'elasticsearch is elastic search' } };
        expect(idsOf(await search({ query: organic }, 'test-index1'))).to.deep.equal(['doc1', 'doc8', 'doc4']);
        const r = await search(ruleQuery('', { foo: 'bar' }, ['multiple-exclude-ruleset'], organic), 'test-index1');
        expect(idsOf(r)).to.deep.equal(['doc4']);
      });

      it('pins by a rule of each criteria type', async () => {
        await es.call('PUT', '/_query_rules/typed', {
          rules: [
            pinnedRule('fuzzy', 'fuzzy', 'q', ['bar'], ['doc1']),
            pinnedRule('lte', 'lte', 'n', [100], ['doc2']),
            pinnedRule('gt', 'gt', 'n', [100], ['doc3']),
            pinnedRule('prefix', 'prefix', 'q', ['obs'], ['doc7']),
            pinnedRule('suffix', 'suffix', 'q', ['ility'], ['doc6']),
            { rule_id: 'always', type: 'pinned', criteria: [{ type: 'always' }], actions: { ids: ['doc5'] } },
          ],
        });
        const pinnedFor = async (criteria: Record<string, unknown>) => idsOf(await search(ruleQuery('blah blah blah', criteria, ['typed']), 'test-index1'));
        expect(await pinnedFor({ q: 'baz' })).to.deep.equal(['doc1', 'doc5']);
        expect(await pinnedFor({ n: 100 })).to.deep.equal(['doc2', 'doc5']);
        expect(await pinnedFor({ n: 101 })).to.deep.equal(['doc3', 'doc5']);
        expect(await pinnedFor({ q: 'observability' })).to.deep.equal(['doc7', 'doc6', 'doc5']);
      });

      it('accepts the deprecated rule_query with ruleset_id, a single ruleset id, and works in count and explain', async () => {
        const legacy = await search({ query: { rule_query: { organic: { match: { text: 'search' } }, match_criteria: { query_string: 'search' }, ruleset_id: 'test-ruleset' } } }, 'test-index1');
        expect(idsOf(legacy)).to.deep.equal(['doc1', 'doc4']);
        const single = await search(ruleQuery('search', { query_string: 'search' }, 'test-ruleset'), 'test-index1');
        expect(idsOf(single)).to.deep.equal(['doc1', 'doc4']);
        expect((await es.call('POST', '/_count', ruleQuery('elasticsearch', { query_string: 'search' }))).json.count).to.equal(1);
        const explained = await es.call('POST', '/test-index1/_explain/doc1', ruleQuery('search', { query_string: 'search' }));
        expect(explained.json.matched).to.equal(true);
      });

      it('answers a missing ruleset with 404 and a malformed rule query with 400', async () => {
        const missing = await search(ruleQuery('search', { foo: 'bar' }, ['nonexistent-ruleset']));
        expect(missing.status).to.equal(404);
        expect(missing.json.error).to.include({ type: 'resource_not_found_exception', reason: 'query ruleset nonexistent-ruleset not found' });
        const organic = { query_string: { default_field: 'text', query: 'search' } };
        const noRuleset = await search({ query: { rule: { organic, match_criteria: { foo: 'bar' } } } });
        expect(noRuleset.status).to.equal(400);
        expect(noRuleset.json.error).to.include({ type: 'parsing_exception', reason: '[1:2] Failed to build [rule] after last required field arrived' });
        expect(noRuleset.json.error.caused_by.reason).to.equal('ruleset information not provided correctly');
        const both = await search({ query: { rule: { organic, ruleset_ids: ['test-ruleset'], ruleset_id: 'test-ruleset', match_criteria: { foo: 'bar' } } } });
        expect(both.json.error.caused_by.reason).to.equal('ruleset information not provided correctly');
        const noCriteria = await search({ query: { rule: { organic, ruleset_ids: 'test-ruleset' } } });
        expect(noCriteria.status).to.equal(400);
        expect(noCriteria.json.error).to.include({ type: 'parsing_exception', reason: 'Required [match_criteria]' });
        const tooMany = await search({ query: { rule: { organic, match_criteria: { foo: 'bar' }, ruleset_ids: Array.from({ length: 11 }, (_, i) => `rs${i}`) } } });
        expect(tooMany.json.error.caused_by.reason).to.equal('rulesetIds must not contain more than 10 rulesets');
        const emptyCriteria = await search({ query: { rule: { organic, match_criteria: {}, ruleset_ids: ['test-ruleset'] } } });
        expect(emptyCriteria.json.error.caused_by.reason).to.equal('matchCriteria must not be null or empty');
      });

      it('applies the rules of a ruleset changed since the last search, and of a ruleset read back after a restart', async () => {
        expect(idsOf(await search(ruleQuery('beats', { query_string: 'beats' }), 'test-index1'))).to.deep.equal(['doc5']);
        await es.call('PUT', '/_query_rules/test-ruleset/_rule/beats', { type: 'pinned', criteria: { type: 'exact', metadata: 'query_string', values: ['beats'] }, actions: { ids: ['doc6'] } });
        expect(idsOf(await search(ruleQuery('beats', { query_string: 'beats' }), 'test-index1'))).to.deep.equal(['doc6', 'doc5']);
        const dataDir = es.dataDir;
        await es.close(false);
        es = await startEngine({ dataDir });
        expect(idsOf(await search(ruleQuery('beats', { query_string: 'beats' }), 'test-index1'))).to.deep.equal(['doc6', 'doc5']);
      });
    });
  });
});
