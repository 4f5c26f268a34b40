import { expect } from 'chai';
import { MemoryChangeBus } from '../../lib/changes/index.js';
import { RuleStore } from '../../lib/rules/rule-store.js';
import type { QueryRule } from '../../lib/rules/rule.js';
import { expectLoopKeptTurning, gapsDuring } from '../cooperative/support/loop-turns.js';
import { startEngine, type TestEngine } from '../engine/embedded/support.js';

const N = 2000;
const rule = (i: number, brand: string): QueryRule => ({
  id: `r${i}`, enabled: true, trigger: { type: 'query', operator: 'matches', value: `(shoe|boot)s?\\s+size\\s+${i}\\b|${brand}-${i}[a-z]+` }, actions: [{ type: 'custom_data', value: i }],
});

describe('query rules: a search right after a change waits for the rules to compile, a slice at a time', function () {
  this.timeout(60_000);
  let es: TestEngine;
  let store: RuleStore | undefined;
  before(async () => {
    es = await startEngine();
    // 2,000 stored rules, as a node finds them when it starts
    const lines = Array.from({ length: N }, (_, i) => `{"index":{"_index":".gateway-rules","_id":"r${i}"}}\n${JSON.stringify({ record: { rule: rule(i, 'brand'), created: i + 1 }, updated_at: new Date(0).toISOString() })}\n`);
    const r = await es.call('POST', '/_bulk?refresh=true', lines.join(''), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text.slice(0, 300)).to.equal(false);
  });
  after(async () => {
    store?.close();
    await es?.close();
  });

  it('a node starts on 2,000 rules and a rule changes: a search at once waits, the loop keeps turning, and it sees every rule', async () => {
    const run = await gapsDuring(async () => {
      store = new RuleStore(es.engine, new MemoryChangeBus());
      await store.start(); // the rules loaded: their compile begins
      await store.put(rule(1999, 'label')); // a change meanwhile: compiled again, each rule once
      await store.ready();
      const matching = (query: string) => store!.rules.matching({ index: 'shop', query, filters: new Map(), now: 0 }).map((r) => r.id);
      return { changed: matching('a label-1999abc here'), other: matching('boots size 7 and brand-12xyz') };
    });
    expect(run.result).to.deep.equal({ changed: ['r1999'], other: ['r7', 'r12'] });
    expectLoopKeptTurning(run, 10);
  });
});
