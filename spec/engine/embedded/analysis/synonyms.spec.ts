import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigFiles, createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { startEngine, type TestEngine } from '../support.js';
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

describe('analysis: synonyms_path (a Solr rules file of the config directory)', () => {
  let configDir: string;
  let files: ConfigFiles;
  const withFilter = (filter: Record<string, unknown>) => createAnalysisRegistry({ filter: { syn: filter } }, { configFiles: files });

  before(() => {
    configDir = mkdtempSync(path.join(os.tmpdir(), 'synonyms-config-'));
    mkdirSync(path.join(configDir, 'analysis'));
    writeFileSync(path.join(configDir, 'analysis/synonyms.txt'), '# films\ni-pod, i pod => ipod\n\nuniverse, cosmos\r\n');
    writeFileSync(path.join(configDir, 'analysis/latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    writeFileSync(path.join(configDir, 'analysis/bad.txt'), 'a => b => c\n');
    files = new ConfigFiles(configDir);
  });
  after(() => rmSync(configDir, { recursive: true, force: true }));

  it('reads the rules relative to the config directory, comments and blank lines skipped, both filters', () => {
    for (const type of ['synonym', 'synonym_graph']) {
      const registry = withFilter({ type, synonyms_path: 'analysis/synonyms.txt' });
      expect(terms({ tokenizer: 'whitespace', filter: ['syn'], text: 'cosmos' }, registry).sort(), type).to.deep.equal(['cosmos', 'universe']);
      expect(terms({ tokenizer: 'whitespace', filter: ['syn'], text: 'i-pod' }, registry), type).to.deep.equal(['ipod']);
    }
    // Inline rules win over the file, as ES reads its sources.
    expect(terms({ tokenizer: 'whitespace', filter: ['syn'], text: 'cosmos' }, withFilter({ type: 'synonym', synonyms: ['cosmos, space'], synonyms_path: 'analysis/synonyms.txt' }))).to.deep.equal(['cosmos', 'space']);
  });

  it("refuses a missing, non-UTF-8, outside or malformed file with Elasticsearch's messages", () => {
    const missing = thrown(() => withFilter({ type: 'synonym', synonyms_path: 'analysis/none.txt' }));
    expect(missing.status).to.equal(400);
    expect(missing.reason).to.equal(`IOException while reading synonyms_path_path: ${path.join(configDir, 'analysis/none.txt')}`);
    expect(thrown(() => withFilter({ type: 'synonym', synonyms_path: 'analysis/latin1.txt' })).reason).to.match(/^Unsupported character encoding detected while reading synonyms_path_path: .*latin1\.txt - files must be UTF-8 encoded$/);
    expect(thrown(() => withFilter({ type: 'synonym', synonyms_path: '../../etc/passwd' })).reason).to.match(/^Access denied trying to read file synonyms_path_path: /);
    const bad = thrown(() => withFilter({ type: 'synonym', synonyms_path: 'analysis/bad.txt' }));
    expect(bad.reason).to.equal('failed to build synonyms from [analysis/bad.txt]');
    // Without a config directory (no engine around it) nothing can be read.
    expect(thrown(() => createAnalysisRegistry({ filter: { syn: { type: 'synonym', synonyms_path: 'analysis/synonyms.txt' } } })).reason).to.equal('IOException while reading synonyms_path_path: analysis/synonyms.txt');
  });
});

describe('analysis: synonyms_path over HTTP (config directory <data>/config)', () => {
  let engine: TestEngine;
  const ids = async (q: string) => ((await engine.call('POST', '/films/_search', { query: { match: { title: q } } })).json.hits.hits as Array<{ _id: string }>).map((h) => h._id);

  before(async () => {
    engine = await startEngine();
    mkdirSync(path.join(engine.dataDir, 'config/analysis'), { recursive: true });
    writeFileSync(path.join(engine.dataDir, 'config/analysis/films.txt'), 'universe, cosmos\n');
  });
  after(() => engine.close());

  it('an updateable search analyzer reads the file again on _reload_search_analyzers', async () => {
    const created = await engine.call('PUT', '/films', {
      settings: { analysis: { filter: { films: { type: 'synonym_graph', synonyms_path: 'analysis/films.txt', updateable: true } }, analyzer: { films: { tokenizer: 'standard', filter: ['lowercase', 'films'] } } } },
      mappings: { properties: { title: { type: 'text', analyzer: 'standard', search_analyzer: 'films' } } },
    });
    expect(created.status).to.equal(200);
    await engine.call('PUT', '/films/_doc/1?refresh=true', { title: 'The Cosmos' });
    await engine.call('PUT', '/films/_doc/2?refresh=true', { title: 'Space Odyssey' });
    expect(await ids('universe')).to.deep.equal(['1']);
    expect(await ids('void')).to.deep.equal([]);
    writeFileSync(path.join(engine.dataDir, 'config/analysis/films.txt'), 'universe, cosmos\nvoid, space\n');
    const reloaded = await engine.call('POST', '/films/_reload_search_analyzers');
    expect(reloaded.json.reload_details[0].reloaded_analyzers).to.deep.equal(['films']);
    expect(await ids('void')).to.deep.equal(['2']);
    const missing = await engine.call('PUT', '/nofile', { settings: { analysis: { filter: { s: { type: 'synonym', synonyms_path: 'analysis/none.txt' } } } } });
    expect(missing.status).to.equal(400);
    expect(missing.json.error.reason).to.equal(`IOException while reading synonyms_path_path: ${path.join(engine.dataDir, 'config/analysis/none.txt')}`);
  });
});
