import { expect } from 'chai';
import { call } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
 * `_stats?level=shards`: beside its sections, each shard copy carries its last commit (id,
 * generation, user data with the checkpoints, documents) and its sequence numbers, as
 * Elasticsearch's ShardStats prints them (the REST suite's indices.stats "Level - shards" reads
 * `shards.0.0.commit.id`).
 */
for (const backend of BACKENDS) {
  describe(`index stats at level=shards: commit and sequence numbers (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await call(url, 'PUT', '/shard-stats', { body: { settings: { number_of_replicas: 0 } } })).status).to.equal(200);
    });
    after(() => stop());

    it('an empty shard: no sequence number yet (-1), a commit with no documents', async () => {
      const r = await call(url, 'GET', '/shard-stats/_stats/docs?level=shards');
      expect(r.status, r.text).to.equal(200);
      const [shard] = r.json.indices['shard-stats'].shards['0'];
      expect(shard.seq_no).to.deep.equal({ max_seq_no: -1, local_checkpoint: -1, global_checkpoint: -1 });
      expect(shard.commit.id).to.be.a('string').and.not.equal('');
      expect(shard.commit).to.include({ num_docs: 0 });
      expect(shard.commit.user_data).to.include({ max_seq_no: '-1', local_checkpoint: '-1' });
    });

    it('after writes: the checkpoints at the last sequence number, the commit holding the documents', async () => {
      for (const id of ['1', '2', '3']) expect((await call(url, 'PUT', `/shard-stats/_doc/${id}?refresh=true`, { body: { n: id } })).status).to.equal(201);
      const before = (await call(url, 'GET', '/shard-stats/_stats?level=shards')).json.indices['shard-stats'].shards['0'][0];
      expect(before.seq_no).to.deep.equal({ max_seq_no: 2, local_checkpoint: 2, global_checkpoint: 2 });
      expect(before.commit.num_docs).to.equal(3);
      expect(before.commit.user_data).to.include({ max_seq_no: '2', local_checkpoint: '2' });
      expect(before.docs.count).to.equal(3);
      // a flush is a new commit: a new generation, a new id
      expect((await call(url, 'POST', '/shard-stats/_flush')).status).to.equal(200);
      const after = (await call(url, 'GET', '/shard-stats/_stats?level=shards')).json.indices['shard-stats'].shards['0'][0];
      expect(after.commit.generation).to.be.greaterThan(before.commit.generation);
      expect(after.commit.id).to.not.equal(before.commit.id);
    });

    it('completion stats: each suggestion indexed adds to the suggester, the same input again too', async () => {
      const mappings = { properties: { title: { type: 'completion' } } };
      expect((await call(url, 'PUT', '/suggest-size', { body: { mappings } })).status).to.equal(200);
      const size = async () => (await call(url, 'GET', '/suggest-size/_stats/completion?completion_fields=*')).json._all.total.completion;
      expect((await call(url, 'PUT', '/suggest-size/_doc/1?refresh=true', { body: { title: 'foo' } })).status).to.equal(201);
      const first = await size();
      expect(first.size_in_bytes).to.be.greaterThan(0);
      expect(first.fields.title.size_in_bytes).to.equal(first.size_in_bytes);
      expect((await call(url, 'PUT', '/suggest-size/_doc/2?refresh=true', { body: { title: 'foo' } })).status).to.equal(201);
      expect((await size()).size_in_bytes).to.be.greaterThan(first.size_in_bytes);
    });

    it('level=indices: no shards, so no commit', async () => {
      const r = await call(url, 'GET', '/shard-stats/_stats');
      expect(r.json.indices['shard-stats']).to.not.have.property('shards');
    });
  });
}
