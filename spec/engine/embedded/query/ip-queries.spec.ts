import { expect } from 'chai';
import { call } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
 * An ip field holds addresses, not their spellings (Elasticsearch's InetAddressPoint): one address
 * written two ways is one term (::ffff:1.2.3.4 is 1.2.3.4, IPv6 compressed); a term naming a CIDR
 * block matches the addresses in it; ranges compare addresses as numbers (10.0.0.1 is after
 * 9.255.0.1, though not as text); the fields option shows the address as Elasticsearch prints it.
 */
const DOCS: Array<[string, string]> = [['1', '2001:db8:0:0:0:0:0:1'], ['2', '::ffff:1.2.3.4'], ['3', '10.0.0.1'], ['4', '9.255.0.1'], ['5', '192.168.1.7']];

for (const backend of BACKENDS) {
  describe(`ip field queries (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await call(url, 'PUT', '/ips', { body: { mappings: { properties: { ip: { type: 'ip' } } } } })).status).to.equal(200);
      for (const [id, ip] of DOCS) expect((await call(url, 'PUT', `/ips/_doc/${id}?refresh=true`, { body: { ip } })).status).to.equal(201);
    });
    after(() => stop());

    const ids = async (query: unknown) => {
      const r = await call(url, 'POST', '/ips/_search', { body: { query, size: 10 } });
      expect(r.status, `${JSON.stringify(query)}: ${r.text}`).to.equal(200);
      return r.json.hits.hits.map((h: { _id: string }) => h._id).sort();
    };

    it('a term finds the address however either side spells it', async () => {
      expect(await ids({ term: { ip: '2001:db8::1' } })).to.deep.equal(['1']);
      expect(await ids({ term: { ip: '1.2.3.4' } })).to.deep.equal(['2']);
      expect(await ids({ term: { ip: '::ffff:10.0.0.1' } })).to.deep.equal(['3']);
      expect(await ids({ match: { ip: '2001:DB8::0:1' } })).to.deep.equal(['1']);
    });

    it('a term or terms naming a CIDR block finds the addresses in it', async () => {
      expect(await ids({ term: { ip: '10.0.0.0/8' } })).to.deep.equal(['3']);
      expect(await ids({ term: { ip: '192.168.0.0/16' } })).to.deep.equal(['5']);
      expect(await ids({ term: { ip: '2001:db8::/32' } })).to.deep.equal(['1']);
      expect(await ids({ terms: { ip: ['8.0.0.0/7', '1.2.3.4'] } })).to.deep.equal(['2', '4']);
      const bad = await call(url, 'POST', '/ips/_search', { body: { query: { term: { ip: '10.0.0.0/33' } } } });
      expect(bad.status, bad.text).to.equal(400);
    });

    it('ranges compare addresses as numbers, in the search and in a post_filter alike', async () => {
      expect(await ids({ range: { ip: { gte: '9.0.0.0', lte: '10.0.0.1' } } })).to.deep.equal(['3', '4']);
      expect(await ids({ range: { ip: { gt: '9.255.0.1' } } })).to.deep.equal(['1', '3', '5']);
      const r = await call(url, 'POST', '/ips/_search', { body: { post_filter: { range: { ip: { lt: '10.0.0.0' } } } } });
      expect(r.json.hits.hits.map((h: { _id: string }) => h._id).sort()).to.deep.equal(['2', '4']);
    });

    it('the fields option and terms buckets show each address as Elasticsearch prints it', async () => {
      const r = await call(url, 'POST', '/ips/_search', { body: { fields: ['ip'], _source: false, query: { ids: { values: ['1', '2'] } }, sort: ['_doc'], aggs: { t: { terms: { field: 'ip' } } } } });
      expect(r.json.hits.hits.map((h: { fields: { ip: string[] } }) => h.fields.ip[0])).to.deep.equal(['2001:db8::1', '1.2.3.4']);
      expect(r.json.aggregations.t.buckets.map((b: { key: string }) => b.key).sort()).to.deep.equal(['1.2.3.4', '2001:db8::1']);
    });
  });
}
