import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Review by a hostile tenant (hostile6c) of ML Commons' model groups, on both backends (the
 * embedded engine, and the gateway in front of the standalone engine).
 *
 * 1. A group's name is unique in the cluster, also when requests race: registers and renames of
 *    the same name sent together make one group of that name, the others refused as taken. (Was:
 *    each checked the name before the others' writes landed, and two or more groups shared it;
 *    the first registers, creating the plugin's index, also failed with its creation's error.)
 * 2. Checking a name reads no group's document: the names are kept as the groups are written.
 *    (Was: each register and rename parsed every group's source, so ten groups of 8 MB descriptions,
 *    which any holder of manage may register, held the engine's event loop 0.85 s a register.)
 */
const MG = '/_plugins/_ml/model_groups';

for (const backend of BACKENDS) {
  describe(`review by a hostile tenant (hostile6c): ML model groups (${backend.name})`, function () {
    let gw: TestGateway, stop: () => Promise<void>, engineCpuMs: (() => number | undefined) | undefined;
    this.timeout(120_000);

    before(async () => ({ gateway: gw, stop, engineCpuMs } = await backend.start()));
    after(() => stop?.());

    const names = async (): Promise<string[]> => {
      await call(gw.url, 'POST', '/_refresh');
      const all = await call(gw.url, 'POST', `${MG}/_search`, { body: { size: 100, _source: ['name'], query: { match_all: {} } } });
      expect(all.status, all.text).to.equal(200);
      return all.json.hits.hits.map((h: { _source: { name: string } }) => h._source.name);
    };

    it('registers of one name sent together make one group, the others refused as taken (the first ones create the index)', async () => {
      for (const name of ['first', 'second']) {
        const answers = await Promise.all(Array.from({ length: 12 }, () => call(gw.url, 'POST', `${MG}/_register`, { body: { name } })));
        const made = answers.filter((a) => a.status === 200);
        expect(made.length, answers.map((a) => `${a.status} ${a.text}`).join('\n')).to.equal(1);
        for (const a of answers.filter((x) => x.status !== 200)) {
          expect([a.status, a.json.error?.reason], a.text).to.deep.equal([400, `The name you provided is already being used by a model group with ID: ${made[0].json.model_group_id}.`]);
        }
        expect((await names()).filter((n) => n === name), name).to.have.length(1);
      }
    });

    it("a register or rename reads no group's document to check the name (large groups hold no event loop)", async () => {
      const description = 'd'.repeat(6_000_000);
      for (let i = 0; i < 10; i++) {
        const big = await call(gw.url, 'POST', `${MG}/_register`, { body: { name: `big-${i}`, description } });
        expect(big.status, big.text).to.equal(200);
      }
      const cpu = engineCpuMs!;
      const before = cpu()!;
      let last = '';
      for (let i = 0; i < 4; i++) {
        const small = await call(gw.url, 'POST', `${MG}/_register`, { body: { name: `small-${i}` } });
        expect(small.status, small.text).to.equal(200);
        last = small.json.model_group_id;
      }
      const renamed = await call(gw.url, 'PUT', `${MG}/${last}`, { body: { name: 'big-0' } });
      expect(renamed.status, renamed.text).to.equal(400);
      // each read every group's 6 MB source: about 2.5 s of CPU for these five
      const spent = cpu()! - before;
      expect(spent, 'engine CPU ms of five name checks').to.be.below(1000);
    });

    it('renames to one name sent together leave one group of that name', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const made = await call(gw.url, 'POST', `${MG}/_register`, { body: { name: `to-rename-${i}` } });
        expect(made.status, made.text).to.equal(200);
        ids.push(made.json.model_group_id);
      }
      const answers = await Promise.all(ids.map((id) => call(gw.url, 'PUT', `${MG}/${id}`, { body: { name: 'renamed' } })));
      expect(answers.filter((a) => a.status === 200).length, answers.map((a) => `${a.status} ${a.text}`).join('\n')).to.equal(1);
      expect((await names()).filter((n) => n === 'renamed')).to.have.length(1);
    });
  });
}
