/**
 * An `_update` whose body carries `_source` (Elasticsearch's UpdateRequest field, which wins over
 * the URL's) chose the source of its answer's `get`: the change-publishing interceptor keeps that
 * `get` as the engine gave it and reads the full document for the event, as it does for the URL's
 * `_source` parameters.
 */
import { expect } from 'chai';
import type { ChangePublisher, NewChange } from '../../lib/changes/index.js';
import type { EngineRequest, EngineResponse } from '../../lib/engine/index.js';
import { changePublishing } from '../../lib/interceptors/index.js';

function harness(full: Record<string, unknown>) {
  const published: Array<NewChange | undefined> = [];
  const seen: Array<{ method: string; path: string; querystring: string }> = [];
  const publisher = {
    inFlight: <T>(_index: string, write: () => Promise<T>) => write(),
    publish: async (changes: Iterable<NewChange | undefined>) => {
      published.push(...changes);
    },
  } as unknown as ChangePublisher;
  const engine = async (req: EngineRequest): Promise<EngineResponse> => {
    seen.push({ method: req.method, path: req.path, querystring: req.querystring ?? '' });
    const answer = req.method === 'GET'
      ? { _index: 'docs', _id: '1', _version: 2, found: true, _source: full }
      : {
        _index: 'docs', _id: '1', _version: 2, result: 'updated', _seq_no: 1, _primary_term: 1,
        ...(req.querystring?.includes('_source=true') ? { get: { found: true, _source: full } } : { get: { found: true, _source: { foo: full.foo } } }),
      };
    return { status: 200, headers: {}, body: Buffer.from(JSON.stringify(answer)), value: answer };
  };
  return { published, seen, dispatch: changePublishing(publisher)(engine) };
}

const parsed = (res: EngineResponse) => JSON.parse(Buffer.from(res.body as Buffer).toString()) as Record<string, unknown>;

describe('change publishing: an _update with _source in its body', () => {
  it("keeps the engine's filtered get and reads the full document for the event", async () => {
    const full = { foo: 'baz', bar: 1 };
    const { published, seen, dispatch } = harness(full);
    const res = await dispatch({ method: 'POST', path: '/docs/_update/1', querystring: '', headers: {}, body: JSON.stringify({ doc: { foo: 'baz' }, _source: ['foo'] }) });
    expect(res.status).to.equal(200);
    expect(parsed(res).get).to.deep.equal({ found: true, _source: { foo: 'baz' } });
    expect(seen[0].querystring, 'no _source=true added over the body').to.not.include('_source');
    expect(seen.some((r) => r.method === 'GET' && r.path === '/docs/_doc/1'), 'the full document read').to.equal(true);
    expect(published).to.have.length(1);
    expect(published[0]).to.deep.include({ index: 'docs', id: '1', op: 'update', source: full });
  });

  it('without _source anywhere answers no get, and the event still has the full source', async () => {
    const full = { foo: 'baz', bar: 1 };
    const { published, dispatch } = harness(full);
    const res = await dispatch({ method: 'POST', path: '/docs/_update/1', querystring: '', headers: {}, body: JSON.stringify({ doc: { foo: 'baz' } }) });
    expect(parsed(res)).to.not.have.property('get');
    expect(published[0]).to.deep.include({ op: 'update', source: full });
  });
});

describe('change publishing: a _bulk update whose client chose its _source, in an index that requires routing', () => {
  it("reads the full document for the event with the item's routing (the action's, else the URL's)", async () => {
    const full = { foo: 'baz', bar: 1 };
    const seen: Array<{ method: string; path: string; querystring: string }> = [];
    const published: Array<NewChange | undefined> = [];
    const publisher = {
      inFlight: <T>(_index: string, write: () => Promise<T>) => write(),
      publish: async (changes: Iterable<NewChange | undefined>) => void published.push(...changes),
    } as unknown as ChangePublisher;
    // an engine whose index requires routing: a read without it is Elasticsearch's routing_missing_exception
    const engine = async (req: EngineRequest): Promise<EngineResponse> => {
      seen.push({ method: req.method, path: req.path, querystring: req.querystring ?? '' });
      const routed = /(^|&)routing=/.test(req.querystring ?? '');
      const answer = req.method === 'GET'
        ? routed ? { _index: 'docs', _id: req.path.split('/').pop(), _version: 2, found: true, _source: full } : { error: { type: 'routing_missing_exception' }, status: 400 }
        : { errors: false, items: ['1', '2'].map((id) => ({ update: { _index: 'docs', _id: id, _version: 2, result: 'updated', _seq_no: 1, _primary_term: 1, status: 200, get: { found: true, _source: { foo: 'baz' } } } })) };
      return { status: req.method === 'GET' && !routed ? 400 : 200, headers: {}, body: Buffer.from(JSON.stringify(answer)), value: answer };
    };
    const dispatch = changePublishing(publisher)(engine);
    const body = [{ update: { _index: 'docs', _id: '1', routing: 'k1', _source: ['foo'] } }, { doc: { foo: 'baz' } }, { update: { _index: 'docs', _id: '2', _source: ['foo'] } }, { doc: { foo: 'baz' } }]
      .map((l) => JSON.stringify(l)).join('\n') + '\n';
    const res = await dispatch({ method: 'POST', path: '/_bulk', querystring: 'routing=k2', headers: { 'content-type': 'application/x-ndjson' }, body });
    expect(res.status).to.equal(200);
    expect(seen.filter((r) => r.method === 'GET').map((r) => `${r.path}?${r.querystring}`)).to.deep.equal(['/docs/_doc/1?routing=k1', '/docs/_doc/2?routing=k2']);
    expect(published.map((c) => (c as { source?: unknown } | undefined)?.source)).to.deep.equal([full, full]);
  });
});
