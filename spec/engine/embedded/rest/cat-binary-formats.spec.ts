import { expect } from 'chai';
import { request } from 'undici';
import { encodeBinary } from '../../../../lib/engine/embedded/rest/binary-content.js';
import { startEngine, type TestEngine } from '../support.js';

// `_cat` tables in the binary content types Elasticsearch and OpenSearch take with `format`
// beside json and yaml: `format=cbor` (application/cbor) and `format=smile` (application/smile).
describe('embedded engine REST: _cat tables as CBOR and Smile', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/books?wait_for_active_shards=0', { settings: { number_of_replicas: 0 } });
  });
  after(() => es.close());

  const bytes = async (p: string): Promise<{ type: string | undefined; body: Buffer }> => {
    const res = await request(es.url + p);
    return { type: String(res.headers['content-type']), body: Buffer.from(await res.body.arrayBuffer()) };
  };

  it('answers format=cbor as a CBOR array of maps of the cells', async () => {
    const r = await bytes('/_cat/indices/books?format=cbor&h=index,status');
    expect(r.type).to.equal('application/cbor');
    // [ { "index": "books", "status": "open" } ]
    expect(r.body.toString('hex')).to.equal('81a2' + '65696e646578' + '65626f6f6b73' + '66737461747573' + '646f70656e');
  });

  it('answers format=smile with Smile\'s header and tokens', async () => {
    const r = await bytes('/_cat/indices/books?format=smile&h=index,status');
    expect(r.type).to.equal('application/smile');
    // ":)\n", flags; [ { "index": "books", "status": "open" } ]
    expect(r.body.toString('hex')).to.equal('3a290a05' + 'f8fa' + '84696e646578' + '44626f6f6b73' + '85737461747573' + '436f70656e' + 'fbf9');
  });

  // small ints zigzagged in the token (3 → c6, -2 → c3); 100 a 32-bit int, zigzag 200 as a VInt (03 88)
  it('encodes numbers, booleans, null and long strings in both', () => {
    expect(encodeBinary('cbor', [0, 23, 24, -1, 1.5, true, null]).toString('hex')).to.equal('87' + '00' + '17' + '1818' + '20' + 'fb3ff8000000000000' + 'f5' + 'f6');
    expect(encodeBinary('smile', [3, -2, 100, true, false, null]).toString('hex')).to.equal('3a290a05f8' + 'c6' + 'c3' + '240388' + '23' + '22' + '21' + 'f9');
    const long = 'x'.repeat(70);
    expect(encodeBinary('smile', long).subarray(4, 5).toString('hex')).to.equal('e0');
    expect(encodeBinary('cbor', long).subarray(0, 2).toString('hex')).to.equal('7846');
  });
});
