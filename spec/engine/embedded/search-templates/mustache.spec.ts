import { expect } from 'chai';
import { EsError } from '../../../../lib/errors/index.js';
import { compileTemplate, renderTemplate } from '../../../../lib/engine/embedded/scripts/index.js';

const render = (source: string, params: Record<string, unknown> = {}, contentType?: string) => renderTemplate(compileTemplate(source, contentType), params);

function compileError(source: string): EsError {
  try {
    compileTemplate(source);
  } catch (err) {
    return err as EsError;
  }
  throw new Error(`${source} compiled`);
}

describe('search templates: Mustache as Elasticsearch renders it', () => {
  it('escapes values for a JSON string, not for HTML; {{{x}}} and {{&x}} write them as they are', () => {
    const params = { v: 'say "hi" \\ <b>&amp;</b>\n\t\u0001 é/' };
    expect(render('{{v}}', params)).to.equal('say \\"hi\\" \\\\ <b>&amp;</b>\\n\\t\\u0001 é/');
    expect(render('{{{v}}}', params)).to.equal(params.v);
    expect(render('{{&v}}', params)).to.equal(params.v);
    // a value rendered into a JSON string stays one string, whatever it holds
    expect(JSON.parse(render('{"q": "{{v}}"}', params))).to.deep.equal({ q: params.v });
    // text/plain stored templates are not escaped; form-encoded ones are encoded as Java's URLEncoder does
    expect(render('{{v}}', { v: 'a "b"' }, 'text/plain')).to.equal('a "b"');
    expect(render('{{v}}', { v: 'a b&c' }, 'application/x-www-form-urlencoded')).to.equal('a+b%26c');
  });

  it('writes values as Java prints them: integers, doubles, booleans, lists and maps', () => {
    expect(render('{{n}} {{d}} {{small}} {{big}} {{t}} {{nothing}}|', { n: 5, d: 1.5, small: 0.0001, big: 1.5e300, t: true, nothing: null })).to.equal('5 1.5 1.0E-4 1.5E300 true |');
    expect(render('{{l}} {{m}}', { l: ['a', 1, [true]], m: { a: 1, b: 'x' } })).to.equal('[a, 1, [true]] {a=1, b=x}');
  });

  it('reads dotted names, list indices and a list\'s size; the rest of a dotted name only where its first part was found', () => {
    const params = { a: { b: { c: 'deep' } }, list: ['x', 'y'], c: 'outer' };
    expect(render('{{a.b.c}} {{list.0}} {{list.1}} {{list.2}} {{list.size}} {{list.length}}|', params)).to.equal('deep x y  2 |');
    expect(render('{{#a}}{{b.c}}{{c}}{{/a}}', params)).to.equal('deepouter');
    expect(render('{{#a}}{{b.missing}}{{/a}}', { a: { b: {} }, b: { missing: 'ERROR' } })).to.equal('');
  });

  it('renders a section for each element of a list, once for any other value but null, false, "" and an empty list — 0 included', () => {
    expect(render('[{{#s}}"{{.}}",{{/s}}]', { s: ['pending', 'published'] })).to.equal('["pending","published",]');
    for (const v of [0, 'x', true, {}, 1.5]) expect(render('{{#v}}yes{{/v}}{{^v}}no{{/v}}', { v }), String(v)).to.equal('yes');
    for (const v of [null, false, '', [], undefined]) expect(render('{{#v}}yes{{/v}}{{^v}}no{{/v}}', { v }), String(v)).to.equal('no');
  });

  it('default values, as the documentation writes them', () => {
    const t = '{{end}}{{^end}}20{{/end}}';
    expect(render(t, { end: 15 })).to.equal('15');
    expect(render(t, {})).to.equal('20');
  });

  it('toJson: lists and maps as JSON, anything else as it prints, nothing for a missing value', () => {
    expect(render('{{#toJson}}v{{/toJson}}', { v: [{ term: { a: 'x"y' } }, 1, null] })).to.equal('[{"term":{"a":"x\\"y"}},1,null]');
    expect(render('{{#toJson}}v{{/toJson}}', { v: { match_all: {} } })).to.equal('{"match_all":{}}');
    expect(render('{{#toJson}}v{{/toJson}}', { v: 'plain "text"' })).to.equal('plain "text"');
    expect(render('{{#toJson}}missing{{/toJson}}|', {})).to.equal('|');
    expect(render('{{#TOJSON}}v.size{{/TOJSON}}', { v: [1, 2] })).to.equal('2');
  });

  it('join: a list\'s values with "," or the delimiter given; anything else leaves the name as written', () => {
    expect(render('{{#join}}emails{{/join}}', { emails: ['a@x', 'b@x'] })).to.equal('a@x,b@x');
    expect(render("{{#join delimiter=' '}}w{{/join delimiter=' '}}", { w: ['a', 'b'] })).to.equal('a b');
    expect(render("{{#join delimiter='||'}}d.f{{/join delimiter='||'}}", { d: { f: ['dd/MM/yyyy', 'yyyy'] } })).to.equal('dd/MM/yyyy||yyyy');
    expect(render('{{#join}}emails{{/join}}', { emails: 'one' })).to.equal('emails');
    expect(render('{{#join}}emails{{/join}}', {})).to.equal('emails');
  });

  it('url: what the section renders, encoded as Java\'s URLEncoder encodes it', () => {
    expect(render('{{#url}}{{host}}/{{page}}{{/url}}', { host: 'http://example.com', page: 'hello-world' })).to.equal('http%3A%2F%2Fexample.com%2Fhello-world');
    expect(render("{{#url}}a b!'()~*._-é{{/url}}")).to.equal('a+b%21%27%28%29%7E*._-%C3%A9');
  });

  it('refuses, as compile errors (400 script_exception), what mustache.java refuses', () => {
    for (const source of ['{{#a}}x', '{{a', 'x{{/a}}', '{{#a}}{{/b}}', '{{> partial}}', '{{#toJson}}{{/toJson}}', '{{#join}}a{{b}}{{/join}}']) {
      const e = compileError(source);
      expect(e.status, source).to.equal(400);
      expect(e.type, source).to.equal('script_exception');
      expect(e.extra, source).to.include({ lang: 'mustache', script: source });
    }
    expect(compileError('{{#toJson}}{{/toJson}}').reason).to.equal('Mustache function [toJson] must contain one and only one identifier');
    expect(compileError('{{> p}}').reason).to.equal('Template p not found');
  });

  it('stops an output past mustache.max_output_size_bytes (1mb) with Elasticsearch\'s parse_exception', () => {
    const big = 'x'.repeat(1024);
    try {
      render('{{#l}}{{v}}{{/l}}', { l: Array.from({ length: 1100 }, () => 1), v: big });
      expect.fail('rendered');
    } catch (err) {
      expect(err).to.include({ status: 400, type: 'parse_exception', reason: 'Mustache script result size limit exceeded' });
    }
  });
});
