/**
 * A remembered reading (`ClassifiedRequests`, the edge's classification of a request sent again)
 * is the reading itself: for generated sequences of requests — with repeats, spellings of one
 * target, wildcards, aliases-to-be, date math, system indices, `source` in the URL, bodies that
 * name indices and bodies that are refused, and the edge's first reading without the body — each value equals what `readRequest` makes of the
 * same request fresh, and a refusal is the same refusal. A remembered value cannot be changed by
 * the request that got it.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ClassifiedRequests, readRequest, type RequestInput } from '../../../lib/auth/classify/index.js';
import { requestTarget, type GatewayRequest } from '../../../lib/request/index.js';

const INDEX = fc.constantFrom('mine', 'mine-*', 'other', 'other-1,mine', '_all', '*', '<logs-{now/d}>', '.gateway-credentials', '.gat*', 'al%2Aias', '-mine', 'MINE');
const PATH = fc.tuple(INDEX, fc.constantFrom('/_search', '/_count', '/_field_caps', '/_msearch', '/_doc/1', '/_mapping', '/_settings', '/_search/template', '/_SEARCH', '', '/_explain/1'))
  .map(([index, endpoint]) => `/${index}${endpoint}`);
const QUERY = fc.constantFrom('', 'size=1', 'expand_wildcards=all', 'expand_wildcards=hidden&size=2', 'source=%7B%22size%22%3A1%7D&source_content_type=application/json', 'q=a&q=b', 'sc%72oll=1m', 'request_cache=false', 'zz_unknown=1', 'allow_no_indices=true');
const BODY = fc.constantFrom(
  '{}',
  '{"size":10,"query":{"multi_match":{"query":"lib","type":"bool_prefix","fields":["name^3","summary"]}}}',
  '{"query":{"terms":{"user":{"index":"other","id":"1","path":"followers"}}}}',
  '{"indices_boost":[{"other":2},{"mine*":1.5}],"query":{"match_all":{}}}',
  '{"query":{"more_like_this":{"fields":["a"],"like":[{"_index":".gateway-credentials","_id":"1"}]}}}',
  '{"size":1}\n',
  '{"index":"other"}\n{"query":{"match_all":{}}}\n{}\n{"size":0}\n',
  '{"id":"stored","params":{}}',
  '{"a":1,"a":2}',
  'not json',
  '{"size":12345678901234567890}',
  '[]',
);
/** A body, or none: the edge's first reading, of a request that came with a body (`sent`) or without. */
const REQUEST = fc.record({ method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), path: PATH, query: QUERY, body: fc.option(BODY, { nil: undefined }), sent: fc.boolean() });
type Asked = { method: string; path: string; query: string; body?: string; sent: boolean };

/** What a reading gives: the value, or the refusal (status, type, reason). */
function outcome(read: () => GatewayRequest): unknown {
  try {
    return { value: read() };
  } catch (err) {
    const e = err as { status?: number; type?: string; reason?: string; message?: string };
    return { refused: [e.status, e.type, e.reason ?? e.message] };
  }
}

/** The request's input as the edge builds it (its target decoded afresh, as every request's is). */
const inputOf = (r: Asked): RequestInput | undefined => {
  try {
    const target = requestTarget(r.path, r.query, r.body !== undefined || r.sent);
    return r.body === undefined ? { method: r.method, target, sentBody: r.sent } : { method: r.method, target, body: r.body };
  } catch {
    return undefined; // a target the edge refuses is never classified
  }
};

describe('remembered readings of requests sent again', function () {
  this.timeout(120_000);

  it('equal the fresh reading (or refusal), over generated sequences with repeats', () => {
    let remembered = 0;
    // a few requests, sent in a generated order: each sent again and again
    const sequences = fc.array(REQUEST, { minLength: 1, maxLength: 6 }).chain((pool) => fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 40 }));
    fc.assert(fc.property(sequences, (sequence) => {
      const readings = new ClassifiedRequests();
      const seen = new Map<string, GatewayRequest>();
      for (const r of sequence) {
        const input = inputOf(r);
        if (!input) continue;
        const memo = outcome(() => readings.read(input));
        expect(memo).to.deep.equal(outcome(() => readRequest(inputOf(r)!)), `${r.method} ${r.path}?${r.query} ${r.body}`);
        const value = (memo as { value?: GatewayRequest }).value;
        const key = JSON.stringify(r);
        if (value && seen.get(key) === value) remembered++;
        if (value) seen.set(key, value);
      }
    }), { numRuns: 300 });
    // the property held for values served from memory, not only for fresh ones
    expect(remembered).to.be.greaterThan(100);
  });

  it('one target spelled two ways is one reading; a different body or parameter is another', () => {
    const readings = new ClassifiedRequests();
    const body = '{"query":{"match_all":{}}}';
    const plain = readings.read({ method: 'POST', target: requestTarget('/mine/_search', 'size=1', true), body });
    const encoded = readings.read({ method: 'POST', target: requestTarget('/mi%6Ee//_search', 's%69ze=1', true), body });
    expect(encoded).to.equal(plain);
    const other = readings.read({ method: 'POST', target: requestTarget('/mine/_search', 'size=2', true), body });
    expect(other).to.not.equal(plain);
    expect(other.querystring).to.equal('size=2');
    const boosted = readings.read({ method: 'POST', target: requestTarget('/mine/_search', 'size=1', true), body: '{"query":{"terms":{"user":{"index":"other","id":"1","path":"f"}}}}' });
    expect(boosted.info.indices).to.include('other');
    expect(plain.info.indices).to.deep.equal(['mine']);
  });

  it('a target whose segments or parameters are not its path\'s and query string\'s is read for what it holds', () => {
    const readings = new ClassifiedRequests();
    const body = '{"size":1}';
    const edge = requestTarget('/mine/_search', 'size=1', true);
    readings.read({ method: 'POST', target: edge, body });
    const made = { ...edge, segments: ['other', '_search'] };
    expect(readings.read({ method: 'POST', target: made, body }).info.indices).to.deep.equal(['other']);
    const params = { ...edge, params: new Map([['size', '1'], ['expand_wildcards', 'all']]) };
    expect(readings.read({ method: 'POST', target: params, body })).to.deep.equal(readRequest({ method: 'POST', target: params, body }));
    expect(readings.read({ method: 'POST', target: params, body }).info.expandsHidden).to.equal(true);
  });

  it('a remembered value cannot be changed by the request that got it', () => {
    const readings = new ClassifiedRequests();
    const input = { method: 'POST', target: requestTarget('/mine-*/_search', '', true), body: '{"size":1}' };
    const first = readings.read(input);
    expect(readings.read(input)).to.equal(first);
    expect(() => (first.info.indices as string[]).push('other')).to.throw(TypeError);
    expect(() => ((first.info as { action: string }).action = 'indices:data/write/index')).to.throw(TypeError);
    expect(() => ((first.info.sources[0] as { expression: string }).expression = 'other')).to.throw(TypeError);
    expect(readings.read(input).info.indices).to.deep.equal(['mine-*']);
  });

  it('the first reading (without the body) is remembered apart from the reading with it', () => {
    const readings = new ClassifiedRequests();
    const target = requestTarget('/mine/_search', '', true);
    const asked = readings.read({ method: 'POST', target, sentBody: true });
    expect(asked.info.readsBody).to.equal(true);
    expect(readings.read({ method: 'POST', target, sentBody: true })).to.equal(asked);
    const read = readings.read({ method: 'POST', target, body: '{"query":{"terms":{"user":{"index":"other","id":"1","path":"f"}}}}' });
    expect(read.info.indices).to.deep.equal(['mine', 'other']);
    expect(readings.read({ method: 'POST', target, sentBody: false })).to.not.equal(asked);
  });

  it('a write is read afresh every time', () => {
    const readings = new ClassifiedRequests();
    const input = { method: 'POST', target: requestTarget('/mine/_doc', '', true), body: '{"a":1}' };
    const first = readings.read(input);
    expect(first.info.operation).to.equal('write');
    expect(readings.read(input)).to.not.equal(first);
  });
});
