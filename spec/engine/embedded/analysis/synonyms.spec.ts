import { expect } from 'chai';
import { createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { analyze, terms, thrown } from './helpers.js';

/** Both synonym filters over the rules of ES's token graph example ("dns" for "domain name system"). */
const registry = createAnalysisRegistry({
  filter: {
    flat: { type: 'synonym', synonyms: ['dns, domain name system', 'wtf, what the fudge'] },
    graph: { type: 'synonym_graph', synonyms: ['dns, domain name system', 'ny => new york'] },
    contract: { type: 'synonym_graph', expand: false, synonyms: ['dns, domain name system'] },
  },
  analyzer: {
    flat: { tokenizer: 'standard', filter: ['lowercase', 'flat'] },
    graph: { tokenizer: 'standard', filter: ['lowercase', 'graph'] },
    contract: { tokenizer: 'standard', filter: ['lowercase', 'contract'] },
  },
});

describe('analysis: synonym and synonym_graph', () => {
  it('synonym_graph: a multi-word input keeps its words, the one-word synonym spans their positions (ES token graph example)', () => {
    expect(analyze({ analyzer: 'graph', text: 'domain name system is fragile' }, registry)).to.deep.equal([
      ['dns', 0, 18, 'SYNONYM', 0, 3],
      ['domain', 0, 6, '<ALPHANUM>', 0],
      ['name', 7, 11, '<ALPHANUM>', 1],
      ['system', 12, 18, '<ALPHANUM>', 2],
      ['is', 19, 21, '<ALPHANUM>', 3],
      ['fragile', 22, 29, '<ALPHANUM>', 4],
    ]);
  });

  it('synonym_graph: a one-word input spans the positions of its multi-word synonym, which comes first', () => {
    expect(analyze({ analyzer: 'graph', text: 'dns is fragile' }, registry)).to.deep.equal([
      ['domain', 0, 3, 'SYNONYM', 0],
      ['dns', 0, 3, '<ALPHANUM>', 0, 3],
      ['name', 0, 3, 'SYNONYM', 1],
      ['system', 0, 3, 'SYNONYM', 2],
      ['is', 4, 6, '<ALPHANUM>', 3],
      ['fragile', 7, 14, '<ALPHANUM>', 4],
    ]);
  });

  it('synonym_graph: explicit mappings and expand false replace the input', () => {
    expect(analyze({ analyzer: 'graph', text: 'ny city' }, registry)).to.deep.equal([
      ['new', 0, 2, 'SYNONYM', 0],
      ['york', 0, 2, 'SYNONYM', 1],
      ['city', 3, 7, '<ALPHANUM>', 2],
    ]);
    expect(analyze({ analyzer: 'contract', text: 'domain name system is fragile' }, registry)).to.deep.equal([
      ['dns', 0, 18, 'SYNONYM', 0],
      ['is', 19, 21, '<ALPHANUM>', 1],
      ['fragile', 22, 29, '<ALPHANUM>', 2],
    ]);
  });

  it('synonym (flat): multi-word synonyms are laid on the input positions; a kept input lets a one-word synonym span the match', () => {
    expect(analyze({ analyzer: 'flat', text: 'say what the fudge' }, registry)).to.deep.equal([
      ['say', 0, 3, '<ALPHANUM>', 0],
      ['what', 4, 8, '<ALPHANUM>', 1],
      ['wtf', 4, 18, 'SYNONYM', 1, 3],
      ['the', 9, 12, '<ALPHANUM>', 2],
      ['fudge', 13, 18, '<ALPHANUM>', 3],
    ]);
    // The flattened form: "domain name system" stacked on "dns is fragile", which phrases get wrong.
    expect(analyze({ analyzer: 'flat', text: 'dns is fragile' }, registry)).to.deep.equal([
      ['dns', 0, 3, '<ALPHANUM>', 0],
      ['domain', 0, 3, 'SYNONYM', 0],
      ['is', 4, 6, '<ALPHANUM>', 1],
      ['name', 4, 6, 'SYNONYM', 1],
      ['fragile', 7, 14, '<ALPHANUM>', 2],
      ['system', 7, 14, 'SYNONYM', 2],
    ]);
  });

  it('a one-entry equivalence line maps nothing', () => {
    const r = createAnalysisRegistry({ filter: { s: { type: 'synonym_graph', synonyms: ['lonely'] } }, analyzer: { a: { tokenizer: 'standard', filter: ['s'] } } });
    expect(analyze({ analyzer: 'a', text: 'lonely' }, r)).to.deep.equal([['lonely', 0, 6, '<ALPHANUM>', 0]]);
  });
});

describe('analysis: synonyms_set and search analyzers', () => {
  const sets = new Map<string, string[]>();
  const source = { rules: (set: string) => sets.get(set) };
  beforeEach(() => sets.set('s', ['tv, television']));
  const analysis = {
    filter: {
      from_set: { type: 'synonym_graph', synonyms_set: 's', updateable: true },
      stop_the: { type: 'stop', stopwords: ['the'] },
    },
    analyzer: {
      search: { tokenizer: 'standard', filter: ['lowercase', 'stop_the', 'from_set'] },
      index: { tokenizer: 'standard', filter: ['lowercase'] },
    },
  };

  it('names the filters that only run at search time, and the sets the index reads', () => {
    const r = createAnalysisRegistry(analysis, { synonyms: source });
    expect(r.searchTimeFilters('search')).to.deep.equal(['from_set']);
    expect(r.searchTimeFilters('index')).to.deep.equal([]);
    expect(r.searchTimeFilters('standard')).to.deep.equal([]);
    expect([...r.synonymsSets()]).to.deep.equal(['s']);
  });

  it('reloading rebuilds the search analyzers on the set with its rules of now, or none of them', () => {
    const r = createAnalysisRegistry(analysis, { synonyms: source });
    expect(terms({ analyzer: 'search', text: 'tv' }, r)).to.have.members(['tv', 'television']);
    sets.set('s', ['tv, telly']);
    expect(terms({ analyzer: 'search', text: 'tv' }, r)).to.have.members(['tv', 'television']);
    expect(r.reloadSearchAnalyzers('other')).to.deep.equal([]);
    expect(r.reloadSearchAnalyzers('s')).to.deep.equal(['search']);
    expect(terms({ analyzer: 'search', text: 'tv' }, r)).to.have.members(['tv', 'telly']);
    sets.set('s', ['the, tv']);
    expect(thrown(() => r.reloadSearchAnalyzers()).reason).to.equal('failed to build synonyms from [[s] synonyms_set in .synonyms index]');
    expect(terms({ analyzer: 'search', text: 'tv' }, r)).to.have.members(['tv', 'telly']);
  });

  it('refuses a default analyzer that only runs at search time', () => {
    const e = thrown(() => createAnalysisRegistry({ ...analysis, analyzer: { default: analysis.analyzer.search } }, { synonyms: source }));
    expect(e).to.include({ status: 400, reason: 'analyzer [default] contains filters [from_set] that are not allowed to run in all mode.' });
  });
});
