import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EsClient } from '../../conformance/es-client.js';

// The suites' runner reads a body by its content type, as Elasticsearch's own runner does: a _cat
// table (text/plain) stays text even when it reads as JSON or is empty.
describe('conformance client: response bodies', () => {
  let server: Server;
  let client: EsClient;
  const answers: Record<string, [string, string]> = {
    '/count': ['text/plain; charset=UTF-8', '2\n'],
    '/empty': ['text/plain; charset=UTF-8', ''],
    '/json': ['application/json', '{"count":2}'],
    '/head': ['application/json', ''],
  };

  before(async () => {
    server = createServer((req, res) => {
      const [type, text] = answers[req.url ?? ''] ?? ['application/json', '{}'];
      res.writeHead(200, { 'content-type': type }).end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new EsClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  after(async () => {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const body = async (url: string) => (await client.send({ method: 'GET', url, headers: {} })).body;

  it('keeps a plain-text body as text, a number-like one and an empty one too', async () => {
    expect(await body('/count')).to.equal('2\n');
    expect(await body('/empty')).to.equal('');
  });

  it('parses a JSON body, and leaves an empty JSON answer undefined', async () => {
    expect(await body('/json')).to.deep.equal({ count: 2 });
    expect(await body('/head')).to.equal(undefined);
  });
});
