import { expect } from 'chai';
import { ndjson, startEngine, type Reply, type TestEngine } from '../support.js';
import { NDJSON } from '../../../support/http.js';


/** The search template of Elasticsearch's documentation ("Create a search template"). */
const MY_SEARCH_TEMPLATE = {
  script: {
    lang: 'mustache',
    source: { query: { match: { message: '{{query_string}}' } }, from: '{{from}}', size: '{{size}}' },
    params: { query_string: 'My query string' },
  },
};

const idsOf = (r: Reply): string[] => r.json.hits.hits.map((h: { _id: string }) => h._id);

describe('embedded engine REST: stored scripts and search templates', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
    await es.call('PUT', '/my-index/_doc/1', { message: 'hello world', 'user.id': 'kimchy', tags: ['prod'] });
    await es.call('PUT', '/my-index/_doc/2', { message: 'goodbye world', 'user.id': 'elkbee', tags: ['es01'] });
    await es.call('PUT', '/my-index/_doc/3?refresh=true', { message: 'hello there', 'user.id': 'kimchy', tags: ['dev'] });
  });
  afterEach(() => es.close());

  describe('stored scripts', () => {
    it('stores, reads and deletes a search template as documented: an object source kept as JSON text with its content type', async () => {
      const put = await es.call('PUT', '/_scripts/my-search-template', MY_SEARCH_TEMPLATE);
      expect(put.status).to.equal(200);
      expect(put.json).to.deep.equal({ acknowledged: true });
      const got = await es.call('GET', '/_scripts/my-search-template');
      expect(got.status).to.equal(200);
      expect(got.json).to.deep.equal({
        _id: 'my-search-template',
        found: true,
        script: {
          lang: 'mustache',
          source: '{"query":{"match":{"message":"{{query_string}}"}},"from":"{{from}}","size":"{{size}}"}',
          options: { content_type: 'application/json;charset=utf-8' },
        },
      });
      expect((await es.call('DELETE', '/_scripts/my-search-template')).json).to.deep.equal({ acknowledged: true });
      const gone = await es.call('GET', '/_scripts/my-search-template');
      expect(gone.status).to.equal(404);
      expect(gone.json).to.deep.equal({ _id: 'my-search-template', found: false });
      const again = await es.call('DELETE', '/_scripts/my-search-template');
      expect(again.status).to.equal(404);
      expect(again.json.error).to.include({ type: 'resource_not_found_exception', reason: 'stored script [my-search-template] does not exist and cannot be deleted' });
    });

    it('stores a Painless script (POST, a string source, no options) for engine code to look up by id', async () => {
      const put = await es.call('POST', '/_scripts/calculate-score', { script: { lang: 'painless', source: "Math.log(_score * 2) + params['my_modifier']" } });
      expect(put.status).to.equal(200);
      expect((await es.call('GET', '/_scripts/calculate-score')).json).to.deep.equal({
        _id: 'calculate-score', found: true, script: { lang: 'painless', source: "Math.log(_score * 2) + params['my_modifier']" },
      });
      expect((await es.call('PUT', '/_scripts/calculate-score/score', { script: { lang: 'painless', source: 'x' } })).status).to.equal(200);
    });

    it('refuses what Elasticsearch refuses, in its words', async () => {
      const cases: Array<[string, unknown, number, string, string]> = [
        ['/_scripts/s', { script: { source: 'x' } }, 400, 'illegal_argument_exception', 'must specify lang for stored script'],
        ['/_scripts/s', { script: { lang: '', source: 'x' } }, 400, 'illegal_argument_exception', 'lang cannot be empty'],
        ['/_scripts/s', { script: { lang: 'painless' } }, 400, 'illegal_argument_exception', 'must specify source for stored script'],
        ['/_scripts/s', { script: { lang: 'painless', source: '' } }, 400, 'illegal_argument_exception', 'source cannot be empty'],
        ['/_scripts/s', { script: { lang: 'groovy', source: 'x' } }, 400, 'illegal_argument_exception', 'unable to put stored script with unsupported lang [groovy]'],
        ['/_scripts/s', { script: { lang: 'mustache', source: 'x', options: { foo: 'bar' } } }, 400, 'illegal_argument_exception', 'illegal compiler options [{foo=bar}] specified'],
        ['/_scripts/s', { scripts: { lang: 'mustache', source: 'x' } }, 400, 'parsing_exception', 'unexpected field [scripts], expected [script]'],
        ['/_scripts/s', { script: 'x' }, 400, 'parsing_exception', 'unexpected token [VALUE_STRING], expected [{, <source>]'],
        ['/_scripts/a%23b', { script: { lang: 'mustache', source: 'x' } }, 400, 'action_request_validation_exception', "Validation Failed: 1: id cannot contain '#' for stored script;"],
        ['/_scripts/s/no_such_context', { script: { lang: 'mustache', source: 'x' } }, 400, 'illegal_argument_exception', 'Unknown context [no_such_context]'],
        ['/_scripts/s/score', { script: { lang: 'mustache', source: '{{x}}' } }, 400, 'illegal_argument_exception', 'failed to parse/compile stored script [s]'],
        ['/_scripts/s/template', { script: { lang: 'mustache', source: '{"a": "{{#x}}"}' } }, 400, 'script_exception', 'Unclosed section "x" @[query-template:1]'],
        // mustache.java's check of {{{x}}}: closed by two braces only
        ['/_scripts/s/template', { script: { lang: 'mustache', source: '{"a": "{{{x}}", "b": {{y}} }' } }, 400, 'script_exception', 'Improperly closed variable in query-template:1'],
        ['/_scripts/s', { script: { lang: 'mustache', source: 'x'.repeat(65536) } }, 400, 'illegal_argument_exception', ''],
      ];
      for (const [path, body, status, type, reason] of cases) {
        const r = await es.call('PUT', path, body);
        expect(r.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).to.equal(status);
        expect(r.json.error.type, path).to.equal(type);
        if (reason) expect(r.json.error.reason, path).to.equal(reason);
        else expect(r.json.error.reason).to.match(/^exceeded max allowed stored script size in bytes \[65535\] with size \[\d+\] for script \[s\]$/);
      }
      expect((await es.call('GET', '/_scripts/s')).status).to.equal(404);
      // a template that does not compile is stored when no context asks for it compiled, and fails where it is used
      expect((await es.call('PUT', '/_scripts/broken', { script: { lang: 'mustache', source: '{{#x}}' } })).status).to.equal(200);
      const used = await es.call('POST', '/_render/template/broken', { params: {} });
      expect(used.status).to.equal(400);
      expect(used.json.error.type).to.equal('script_exception');
    });

    it('keeps stored scripts across a restart of the engine', async () => {
      await es.call('PUT', '/_scripts/my-search-template', MY_SEARCH_TEMPLATE);
      await es.call('PUT', '/_scripts/gone', { script: { lang: 'painless', source: 'x' } });
      await es.call('DELETE', '/_scripts/gone');
      const dataDir = es.dataDir;
      await es.close(false);
      es = await startEngine({ dataDir });
      expect((await es.call('GET', '/_scripts/my-search-template')).json.found).to.equal(true);
      expect((await es.call('GET', '/_scripts/gone')).status).to.equal(404);
      expect(es.engine.indices.get('my-index')).to.exist;
      const r = await es.call('GET', '/my-index/_search/template', { id: 'my-search-template', params: { query_string: 'hello', from: 0, size: 10 } });
      expect(r.status).to.equal(200);
      expect(idsOf(r)).to.have.members(['1', '3']);
    });

    it('tells the script languages and contexts it runs', async () => {
      const languages = (await es.call('GET', '/_script_language')).json;
      expect(languages.types_allowed).to.deep.equal(['inline', 'stored']);
      expect(languages.language_contexts.map((l: { language: string }) => l.language)).to.deep.equal(['mustache', 'painless']);
      expect(languages.language_contexts[0].contexts).to.deep.equal(['ingest_template', 'template']);
      expect(languages.language_contexts[1].contexts).to.include.members(['painless_test', 'update', 'score', 'filter']);
      const contexts = (await es.call('GET', '/_script_context')).json.contexts.map((c: { name: string }) => c.name);
      expect(contexts).to.include.members(['ingest_template', 'template', 'painless_test', 'update']);
      // a stored Painless script runs where a script names it by id
      expect((await es.call('PUT', '/_scripts/bump', { script: { lang: 'painless', source: 'ctx._source.n += params.by' } })).status).to.equal(200);
      await es.call('PUT', '/counters/_doc/1?refresh=true', { n: 1 });
      const bumped = await es.call('POST', '/counters/_update/1', { script: { id: 'bump', params: { by: 2 } } });
      expect(bumped.status, JSON.stringify(bumped.json)).to.equal(200);
      expect((await es.call('GET', '/counters/_doc/1')).json._source).to.deep.equal({ n: 3 });
      const run = await es.call('POST', '/_scripts/painless/_execute', { script: { source: 'params.x * 2', params: { x: 21 } } });
      expect(run.json).to.deep.equal({ result: '42' });
    });
  });

  describe('rendering (the documentation\'s examples)', () => {
    const renderOf = async (body: unknown, path = '/_render/template') => {
      const r = await es.call('POST', path, body);
      expect(r.status, r.text).to.equal(200);
      return r.json.template_output;
    };

    it('renders a stored template, by id in the body or in the path', async () => {
      await es.call('PUT', '/_scripts/my-search-template', MY_SEARCH_TEMPLATE);
      const expected = { query: { match: { message: 'hello world' } }, from: '20', size: '10' };
      expect(await renderOf({ id: 'my-search-template', params: { query_string: 'hello world', from: 20, size: 10 } })).to.deep.equal(expected);
      expect(await renderOf({ params: { query_string: 'hello world', from: 20, size: 10 } }, '/_render/template/my-search-template')).to.deep.equal(expected);
      expect(await renderOf({ source: MY_SEARCH_TEMPLATE.script.source, params: { query_string: 'hello world', from: 20, size: 10 } })).to.deep.equal(expected);
    });

    it('default values, URL encoding, join with and without a delimiter', async () => {
      expect(await renderOf({
        source: { query: { match: { message: '{{query_string}}' } }, from: '{{from}}{{^from}}0{{/from}}', size: '{{size}}{{^size}}10{{/size}}' },
        params: { query_string: 'hello world' },
      })).to.deep.equal({ query: { match: { message: 'hello world' } }, from: '0', size: '10' });
      expect(await renderOf({
        source: { query: { term: { 'url.full': '{{#url}}{{host}}/{{page}}{{/url}}' } } },
        params: { host: 'http://example.com', page: 'hello-world' },
      })).to.deep.equal({ query: { term: { 'url.full': 'http%3A%2F%2Fexample.com%2Fhello-world' } } });
      expect(await renderOf({
        source: { query: { match: { 'user.group.emails': '{{#join}}emails{{/join}}' } } },
        params: { emails: ['user1@example.com', 'user_one@example.com'] },
      })).to.deep.equal({ query: { match: { 'user.group.emails': 'user1@example.com,user_one@example.com' } } });
      expect(await renderOf({
        source: { query: { range: { 'user.effective.date': { gte: '{{date.min}}', lte: '{{date.max}}', format: "{{#join delimiter='||'}}date.formats{{/join delimiter='||'}}" } } } },
        params: { date: { min: '2098', max: '06/05/2099', formats: ['dd/MM/yyyy', 'yyyy'] } },
      })).to.deep.equal({ query: { range: { 'user.effective.date': { gte: '2098', lte: '06/05/2099', format: 'dd/MM/yyyy||yyyy' } } } });
    });

    it('toJson: an array, an object, an array of objects', async () => {
      expect(await renderOf({ source: '{ "query": { "terms": { "tags": {{#toJson}}tags{{/toJson}} }}}', params: { tags: ['prod', 'es01'] } }))
        .to.deep.equal({ query: { terms: { tags: ['prod', 'es01'] } } });
      expect(await renderOf({ source: '{ "query": {{#toJson}}my_query{{/toJson}} }', params: { my_query: { match_all: {} } } }))
        .to.deep.equal({ query: { match_all: {} } });
      const clauses = [{ term: { 'user.id': 'kimchy' } }, { term: { 'url.domain': 'example.com' } }];
      expect(await renderOf({ source: '{ "query": { "bool": { "must": {{#toJson}}clauses{{/toJson}} }}}', params: { clauses } }))
        .to.deep.equal({ query: { bool: { must: clauses } } });
    });

    it('conditions, and if-else', async () => {
      const source = '{ "query": { "bool": { "filter": [ {{#year_scope}} { "range": { "@timestamp": { "gte": "now-1y/d", "lt": "now/d" } } }, {{/year_scope}} { "term": { "user.id": "{{user_id}}" }}]}}}';
      expect(await renderOf({ source, params: { year_scope: true, user_id: 'kimchy' } })).to.deep.equal({
        query: { bool: { filter: [{ range: { '@timestamp': { gte: 'now-1y/d', lt: 'now/d' } } }, { term: { 'user.id': 'kimchy' } }] } },
      });
      expect(await renderOf({ source, params: { year_scope: false, user_id: 'kimchy' } })).to.deep.equal({ query: { bool: { filter: [{ term: { 'user.id': 'kimchy' } }] } } });
      const ifElse = '{ "query": { "bool": { "filter": [ { "range": { "@timestamp": { "gte": {{#year_scope}} "now-1y/d" {{/year_scope}} {{^year_scope}} "now-1d/d" {{/year_scope}} , "lt": "now/d" }}}, { "term": { "user.id": "{{user_id}}" }}]}}}';
      expect((await renderOf({ source: ifElse, params: { user_id: 'kimchy' } })).query.bool.filter[0].range['@timestamp'].gte).to.equal('now-1d/d');
    });

    it('keeps a value with quotes and backslashes one JSON string', async () => {
      const q = 'say "hi" \\ and </script>\nthen';
      expect(await renderOf({ source: { query: { match: { message: '{{q}}' } } }, params: { q } })).to.deep.equal({ query: { match: { message: q } } });
    });

    it('answers an unknown template 404, a rendering that is not JSON 400 as Elasticsearch parses it, a request without a template 400', async () => {
      const missing = await es.call('POST', '/_render/template', { id: 'nope' });
      expect(missing.status).to.equal(404);
      expect(missing.json.error).to.include({ type: 'resource_not_found_exception', reason: 'unable to find script [nope] in cluster state' });
      const notJson = await es.call('POST', '/_render/template', { source: '{"size": {{n}} ', params: { n: 1 } });
      expect(notJson.status).to.equal(400);
      expect(notJson.json.error.type).to.equal('x_content_parse_exception');
      expect(notJson.json.error.caused_by.type).to.equal('json_parse_exception');
      const none = await es.call('POST', '/_render/template', { params: {} });
      expect(none.status).to.equal(400);
      expect(none.json.error).to.include({ type: 'action_request_validation_exception', reason: "Validation Failed: 1: template is missing;2: template's script type is missing;" });
      const unknown = await es.call('POST', '/_render/template', { sourc: 'x' });
      expect(unknown.status).to.equal(400);
      expect(unknown.json.error.type).to.equal('x_content_parse_exception');
      expect(unknown.json.error.reason).to.match(/\[search_template\] unknown field \[sourc\] did you mean \[source\]\?$/);
      const empty = await es.call('POST', '/_render/template');
      expect(empty.status).to.equal(400);
      expect(empty.json.error).to.include({ type: 'parse_exception', reason: 'request body or source parameter is required' });
    });
  });

  describe('searching with a template', () => {
    beforeEach(async () => {
      await es.call('PUT', '/_scripts/my-search-template', MY_SEARCH_TEMPLATE);
    });

    it('runs a stored template and answers what the same search sent directly answers', async () => {
      const templated = await es.call('GET', '/my-index/_search/template', { id: 'my-search-template', params: { query_string: 'hello world', from: 0, size: 10 } });
      const direct = await es.call('POST', '/my-index/_search', { query: { match: { message: 'hello world' } }, from: 0, size: 10 });
      expect(templated.status).to.equal(200);
      expect(templated.json.hits).to.deep.equal(direct.json.hits);
      expect(idsOf(templated)[0]).to.equal('1');
      const inline = await es.call('POST', '/_search/template', { source: '{"query": {"terms": {"tags": {{#toJson}}tags{{/toJson}}}}}', params: { tags: ['prod', 'dev'] } });
      expect(idsOf(inline)).to.have.members(['1', '3']);
    });

    it('the template sets the search source: the URL\'s size and q have no effect, its routing-level parameters still apply', async () => {
      const r = await es.call('POST', '/my-index/_search/template?size=1&q=nothing&rest_total_hits_as_int=true', { id: 'my-search-template', params: { query_string: 'hello', from: 0, size: 10 } });
      expect(r.status).to.equal(200);
      expect(idsOf(r)).to.have.members(['1', '3']);
      expect(r.json.hits.total).to.equal(2);
      const bad = await es.call('POST', '/my-index/_search/template?search_type=nope', { id: 'my-search-template' });
      expect(bad.status).to.equal(400);
      const unknownParam = await es.call('POST', '/my-index/_search/template?nope=1', { id: 'my-search-template' });
      expect(unknownParam.status).to.equal(400);
      expect(unknownParam.json.error.reason).to.include('unrecognized parameter: [nope]');
    });

    it('explain from the body or the URL (the URL wins); the rendered source\'s own explain is replaced', async () => {
      const params = { query_string: 'hello', from: 0, size: 1 };
      const explained = await es.call('POST', '/my-index/_search/template', { id: 'my-search-template', params, explain: true });
      expect(explained.json.hits.hits[0]._explanation).to.be.an('object');
      const urlWins = await es.call('POST', '/my-index/_search/template?explain=false', { id: 'my-search-template', params, explain: true });
      expect(urlWins.json.hits.hits[0]._explanation).to.equal(undefined);
      const renderedOnly = await es.call('POST', '/my-index/_search/template', { source: '{"explain": true, "query": {"match": {"message": "hello"}}}' });
      expect(renderedOnly.json.hits.hits[0]._explanation).to.equal(undefined);
    });

    it('answers an unknown template 404 and an unknown index 404', async () => {
      const r = await es.call('POST', '/my-index/_search/template', { id: 'nope', params: {} });
      expect(r.status).to.equal(404);
      expect(r.json.error.type).to.equal('resource_not_found_exception');
      const noIndex = await es.call('POST', '/nope/_search/template', { id: 'my-search-template', params: { from: 0, size: 1 } });
      expect(noIndex.status).to.equal(404);
      expect(noIndex.json.error.type).to.equal('index_not_found_exception');
    });

    it('_msearch/template: each search answered in order, a failed one as an error with its status', async () => {
      await es.call('PUT', '/_scripts/my-other-search-template', { script: { lang: 'mustache', source: { query: { '{{query_type}}': {} } } } });
      const body = ndjson([
        {}, { id: 'my-search-template', params: { query_string: 'hello world', from: 0, size: 10 } },
        {}, { id: 'my-other-search-template', params: { query_type: 'match_all' } },
        {}, { id: 'nope' },
        { index: 'no-such-index' }, { source: { query: { match_all: {} } } },
        {}, { source: '{"query": {{q}} }', params: { q: 'not json' } },
      ]);
      const r = await es.call('GET', '/my-index/_msearch/template', body, NDJSON);
      expect(r.status).to.equal(200);
      expect(r.json.took).to.be.a('number');
      const responses = r.json.responses;
      expect(responses.map((x: { status: number }) => x.status)).to.deep.equal([200, 200, 404, 404, 400]);
      expect(idsOf({ json: responses[0] } as Reply)).to.have.members(['1', '2', '3']);
      expect(responses[1].hits.total.value).to.equal(3);
      expect(responses[2].error.type).to.equal('resource_not_found_exception');
      expect(responses[3].error.type).to.equal('index_not_found_exception');
      expect(responses[4].error.type).to.equal('x_content_parse_exception');
    });

    it('_msearch/template refuses the whole request for a body line that is not a template request', async () => {
      const r = await es.call('POST', '/my-index/_msearch/template', ndjson([{}, { id: 'my-search-template' }, {}, { query: { match_all: {} } }]), NDJSON);
      expect(r.status).to.equal(400);
      expect(r.json.error.type).to.equal('x_content_parse_exception');
      const malformed = await es.call('POST', '/my-index/_msearch/template', ndjson([{}, { params: {} }]), NDJSON);
      expect(malformed.status).to.equal(400);
      expect(malformed.json.error).to.include({ type: 'illegal_argument_exception', reason: 'Malformed search template' });
      // an empty template in any item fails the whole request (MultiSearchTemplateRequest.validate)
      const noTemplate = await es.call('POST', '/my-index/_msearch/template', ndjson([{}, { id: 'my-search-template' }, {}, { source: '' }, {}, { source: '' }]), NDJSON);
      expect(noTemplate.status).to.equal(400);
      expect(noTemplate.json.error).to.include({ type: 'action_request_validation_exception', reason: 'Validation Failed: 1: template is missing;2: template is missing;' });
      const empty = await es.call('POST', '/_msearch/template', '', NDJSON);
      expect(empty.status).to.equal(400);
    });
  });
});
