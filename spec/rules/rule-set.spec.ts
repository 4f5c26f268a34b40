import { expect } from 'chai';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { compileAhead, fold, RuleSet, type SearchSituation } from '../../lib/rules/rule-set.js';
import type { QueryRule } from '../../lib/rules/rule.js';

const rule = (id: string, value: string, indices?: string[]): QueryRule => ({
  id, enabled: true, trigger: { type: 'query', operator: 'matches', value, ...(indices ? { indices } : {}) }, actions: [{ type: 'custom_data', value: id }],
});
const situation = (query: string, index = 'shop'): SearchSituation => ({ index, query, filters: new Map(), now: 0 });

/** What the rules say one by one: each pattern tried on the text as typed and as folded. */
function oneByOne(rules: QueryRule[], query: string): string[] {
  return rules
    .filter((r) => {
      const re = RE2JS.compile(r.trigger.value!, RE2JS.CASE_INSENSITIVE);
      return re.matcher(query).find() || re.matcher(fold(query)).find();
    })
    .map((r) => r.id);
}

describe('query rules: `matches` triggers run as one matcher per index', () => {
  it('fire exactly the rules whose pattern each would find on its own (generated patterns and texts)', () => {
    const atoms = ['shoe', 'boot', 'size', '\\d+', '[a-c]+', 'é', 'x?', '\\bred\\b', '^new', 'sale$', '.'];
    const pattern = fc.array(fc.constantFrom(...atoms), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
    const words = fc.array(fc.constantFrom('shoe', 'Boot', 'size', '42', 'abc', 'RÉD', 'red', 'new', 'sale', 'Café', ' '), { maxLength: 12 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 30 }), fc.array(words, { minLength: 1, maxLength: 5 }), (patterns, queries) => {
        const rules = patterns.map((p, i) => rule(`r${i}`, p));
        const set = new RuleSet(rules);
        for (const q of queries) expect(set.matching(situation(q)).map((r) => r.id), q).to.deep.equal(oneByOne(rules, q));
      }),
      { numRuns: 150 },
    );
  });

  it('2,000 patterns and a 4 KB text: the rules that apply fire, in rule order, and others do not', () => {
    const rules = Array.from({ length: 2000 }, (_, i) => rule(`r${i}`, `(shoe|boot)s?\\s+size\\s+${i}\\b|brand-${i}[a-z]+`, i % 2 ? ['shop'] : ['blog']));
    const set = new RuleSet(rules);
    const text = Array.from({ length: 800 }, (_, i) => `word${i % 97}`).join(' ').slice(0, 4000);
    expect(set.matching(situation(`${text} brand-77abc boots size 1500`)).map((r) => r.id)).to.deep.equal(['r77']);
    expect(set.matching(situation(`${text} brand-1998xyz shoe size 1999 brand-1xx`)).map((r) => r.id)).to.deep.equal(['r1', 'r1999']);
    expect(set.matching(situation(`${text} brand-1998xyz`, 'blog')).map((r) => r.id)).to.deep.equal(['r1998']);
    expect(set.matching(situation(text))).to.deep.equal([]);
  });

  it('compiled ahead (after a change), 2,000 rules give the event loop turns; the set built from them then fires as one by one', async () => {
    const rules = Array.from({ length: 2000 }, (_, i) => rule(`a${i}`, `(shoe|boot)s?\\s+size\\s+${i}\\b|ahead-${i}[a-z]+`));
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    try {
      await compileAhead(rules);
    } finally {
      clearInterval(ticker);
    }
    // a timer ran while the rules compiled: the work was done in slices
    expect(turns).to.be.greaterThan(0);
    const set = new RuleSet(rules);
    for (const text of ['shoes size 1999 ahead-7abc', 'boot size 12', 'nothing here']) {
      expect(set.matching(situation(text)).map((r) => r.id), text).to.deep.equal(oneByOne(rules, text));
    }
  });
});
