import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { DocTypeInjection } from '../../../lib/engine/http/doc-type-injection.js';
import { call } from '../../support/http.js';
import { startTestGateway, type TestGateway } from '../../support/servers.js';

async function through(chunks: string[]): Promise<string> {
  let out = '';
  for await (const c of Readable.from(chunks.map((t) => Buffer.from(t))).pipe(new DocTypeInjection())) out += c.toString();
  return out;
}

describe('index-addressed answers carry _type on Elasticsearch 8 too', function () {
  this.timeout(20_000);

  it('inserts "_type":"_doc" after _index in documents and hits, however the stream is cut', async () => {
    const body = JSON.stringify({
      hits: { hits: [{ _index: 'a-b', _id: '1', _score: 1, _source: { note: '"_index":"x","_id" inside a string stays', nested: { _index: 'y' } } }, { _index: 'c', _id: '2', _source: {} }] },
    });
    const expected = JSON.parse(body);
    expected.hits.hits = expected.hits.hits.map((h: Record<string, unknown>) => {
      const { _index, ...rest } = h;
      return { _index, _type: '_doc', ...rest };
    });
    for (const size of [1, 7, 50, 4096]) {
      const chunks: string[] = [];
      for (let i = 0; i < body.length; i += size) chunks.push(body.slice(i, i + size));
      const out = await through(chunks);
      expect(JSON.parse(out), `chunks of ${size}`).to.deep.equal(expected);
      expect(Object.keys(JSON.parse(out).hits.hits[0])).to.deep.equal(['_index', '_type', '_id', '_score', '_source']);
    }
  });

  it('through the proxy path, for document reads and searches only', async () => {
    // an upstream that answers like Elasticsearch 8
    const es8 = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/_index_template')) return res.end('{"acknowledged":true}');
      if (req.url === '/books/_doc/1') return res.end('{"_index":"books","_id":"1","_version":1,"found":true,"_source":{"t":1}}');
      if (req.url?.startsWith('/books/_search')) return res.end('{"hits":{"total":{"value":1,"relation":"eq"},"hits":[{"_index":"books","_id":"1","_score":1.0,"_source":{"t":1}}]}}');
      res.end('{"_index":"books","_id":"1","result":"whatever"}');
    });
    await new Promise<void>((r) => es8.listen(0, '127.0.0.1', () => r()));
    const gw: TestGateway = await startTestGateway({ ENGINE_URL: `http://127.0.0.1:${(es8.address() as AddressInfo).port}` });
    try {
      const doc = await call(gw.url, 'GET', '/books/_doc/1');
      expect(doc.json).to.deep.equal({ _index: 'books', _type: '_doc', _id: '1', _version: 1, found: true, _source: { t: 1 } });
      const search = await call(gw.url, 'POST', '/books/_search', { body: {} });
      expect(search.json.hits.hits[0]).to.deep.equal({ _index: 'books', _type: '_doc', _id: '1', _score: 1, _source: { t: 1 } });
      const other = await call(gw.url, 'GET', '/books/_stats');
      expect(other.json).not.to.have.property('_type');
    } finally {
      await gw.close();
      es8.closeAllConnections();
      await new Promise((r) => es8.close(r));
    }
  });
});
