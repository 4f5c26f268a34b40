import { expect } from 'chai';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigFiles, createAnalysisRegistry, type AnalyzeRequestBody } from '../../../../lib/engine/embedded/analysis/index.js';
import { parseFopGrammar } from '../../../../lib/engine/embedded/analysis/hyphenation/index.js';
import { REPO_ROOT, startEngine, type TestEngine } from '../support.js';
import { analyze, terms, thrown } from './helpers.js';

/** The specs' own grammar (written for them): kaf-fee-tas-se, do-nau-dam-pf-schif-f, fus-s-ball-pum-pe… */
const GRAMMAR = path.join(REPO_ROOT, 'spec/engine/embedded/analysis/fixtures/hyphenation-test-de.xml');

function grammar(patterns: string, extra = ''): Buffer {
  return Buffer.from(`<?xml version="1.0"?><hyphenation-info><classes>aA bB cC dD eE</classes>${extra}<patterns>${patterns}</patterns></hyphenation-info>`);
}

describe('embedded engine: hyphenation grammars (Liang, as Lucene\'s HyphenationTree)', () => {
  it('breaks where the highest inter-letter value is odd, never before the first or after the last letter', () => {
    expect(parseFopGrammar(grammar('b1c c1d')).hyphenate('abcd')).to.deep.equal([0, 2, 3, 4]);
    // An even value from a longer pattern wins over the odd one.
    expect(parseFopGrammar(grammar('b1c c1d .ab2c')).hyphenate('abcd')).to.deep.equal([0, 3, 4]);
    // Word edges (`.`) and the one-letter margins Lucene keeps.
    expect(parseFopGrammar(grammar('.1a d1. a1b')).hyphenate('abcd')).to.deep.equal([0, 1, 4]);
    expect(parseFopGrammar(grammar('e1e')).hyphenate('abcd')).to.equal(undefined);
  });

  it('maps characters through the classes: upper case is the letter, a character outside them ends the word', () => {
    const tree = parseFopGrammar(grammar('b1c'));
    expect(tree.hyphenate('ABCD')).to.deep.equal([0, 2, 4]);
    // Leading non-letters are skipped (and counted in the breaks), a letter after a non-letter is not hyphenated.
    expect(tree.hyphenate('-abcd')).to.deep.equal([0, 3, 4]);
    expect(tree.hyphenate('ab-cd')).to.equal(undefined);
  });

  it('an exception wins over the patterns', () => {
    expect(parseFopGrammar(grammar('b1c', '<exceptions>a-bcd</exceptions>')).hyphenate('abcd')).to.deep.equal([0, 1, 4]);
    expect(parseFopGrammar(grammar('b1c', '<hyphen-char value="="/><exceptions>ab=cd</exceptions>')).hyphenate('abcd')).to.deep.equal([0, 2, 4]);
    expect(parseFopGrammar(grammar('b1c', '<exceptions>a<hyphen pre="-"/>bcd</exceptions>')).hyphenate('abcd')).to.deep.equal([0, 1, 4]);
    // As Lucene: an exception's break must leave more than one letter after it.
    expect(parseFopGrammar(grammar('b1c', '<exceptions>abc-d</exceptions>')).hyphenate('abcd')).to.equal(undefined);
  });

  it('refuses malformed XML', () => {
    for (const bad of ['<hyphenation-info><patterns>a1b</hyphenation-info>', 'a1b', '<hyphenation-info><patterns>&bogus;</patterns></hyphenation-info>', '<a/><b/>']) {
      expect(() => parseFopGrammar(Buffer.from(bad)), bad).to.throw();
    }
  });

  it('reads the declared encoding (ISO-8859-1 grammars are common)', () => {
    const latin1 = Buffer.from('<?xml version="1.0" encoding="iso-8859-1"?><hyphenation-info><classes>aA \u00e4\u00c4 bB</classes><patterns>\u00e41b</patterns></hyphenation-info>', 'latin1');
    expect(parseFopGrammar(latin1).hyphenate('a\u00c4ba')).to.deep.equal([0, 2, 4]);
  });
});

describe('embedded engine: hyphenation_decompounder (HyphenationCompoundWordTokenFilter)', () => {
  let configDir: string;
  let files: ConfigFiles;
  const filter = (settings: Record<string, unknown>) => ({ type: 'hyphenation_decompounder', hyphenation_patterns_path: 'analysis/hyphenation_patterns.xml', ...settings });
  const run = (body: AnalyzeRequestBody) => terms(body, createAnalysisRegistry(undefined, { configFiles: files }));
  const define = (def: Record<string, unknown>) => thrown(() => createAnalysisRegistry({ filter: { h: def } }, { configFiles: files }));

  before(() => {
    configDir = mkdtempSync(path.join(os.tmpdir(), 'hyph-config-'));
    mkdirSync(path.join(configDir, 'analysis'));
    copyFileSync(GRAMMAR, path.join(configDir, 'analysis/hyphenation_patterns.xml'));
    writeFileSync(path.join(configDir, 'analysis/words.txt'), '# German subwords\nKaffee\n\n  tasse  \nzucker\n');
    files = new ConfigFiles(configDir);
  });
  after(() => rmSync(configDir, { recursive: true, force: true }));

  it('the reference example: Kaffeetasse → Kaffeetasse, Kaffee, tasse, at the original position and offsets', () => {
    const registry = createAnalysisRegistry(undefined, { configFiles: files });
    const rows = analyze({ tokenizer: 'standard', filter: [filter({ word_list: ['Kaffee', 'zucker', 'tasse'] })], text: 'Kaffeetasse' }, registry);
    expect(rows).to.deep.equal([
      ['Kaffeetasse', 0, 11, '<ALPHANUM>', 0],
      ['Kaffee', 0, 11, '<ALPHANUM>', 0],
      ['tasse', 0, 11, '<ALPHANUM>', 0],
    ]);
    // word_list_path: one word a line, comments and blank lines skipped, lines trimmed.
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list_path: 'analysis/words.txt' })], text: 'eine Kaffeetasse' })).to.deep.equal(['eine', 'Kaffeetasse', 'Kaffee', 'tasse']);
  });

  it('only parts between hyphenation points, longest first from each point; the whole token is never its own part', () => {
    const words = ['fuss', 'fussball', 'ball', 'pumpe', 'fussballpumpe'];
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: words })], text: 'fussballpumpe' })).to.deep.equal(['fussballpumpe', 'fussball', 'fuss', 'ball', 'pumpe']);
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: ['Donau', 'dampf', 'schiff', 'amp'] })], text: 'Donaudampfschiff' })).to.deep.equal(['Donaudampfschiff', 'Donau', 'dampf', 'schiff']);
    // A part that misses is tried without its last character (a binding "s").
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: ['Arbeit', 'amt'] })], text: 'Arbeitsamt' })).to.deep.equal(['Arbeitsamt', 'Arbeit', 'amt']);
    // The grammar's exceptions are used.
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: ['zucker', 'dose'] })], text: 'zuckerdose' })).to.deep.equal(['zuckerdose', 'zucker', 'dose']);
  });

  it('only_longest_match, min/max_subword_size, min_word_size', () => {
    const words = ['fuss', 'fussball', 'ball', 'pumpe'];
    const text = 'fussballpumpe';
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: words, only_longest_match: true })], text })).to.deep.equal(['fussballpumpe', 'fussball', 'ball', 'pumpe']);
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: words, min_subword_size: 5 })], text })).to.deep.equal(['fussballpumpe', 'fussball', 'pumpe']);
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: words, max_subword_size: '5' })], text })).to.deep.equal(['fussballpumpe', 'fuss', 'ball', 'pumpe']);
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: words, min_word_size: 14 })], text })).to.deep.equal(['fussballpumpe']);
    // With only_longest_match a token that is itself a word is not decomposed.
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: words, only_longest_match: true })], text: 'fussball' })).to.deep.equal(['fussball']);
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: words })], text: 'fussball' })).to.deep.equal(['fussball', 'fuss', 'ball']);
  });

  it('the word list matches case-sensitively unless word_list_case is true', () => {
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: ['kaffee'] })], text: 'Kaffeetasse' })).to.deep.equal(['Kaffeetasse']);
    expect(run({ tokenizer: 'standard', filter: [filter({ word_list: ['kaffee'], word_list_case: true })], text: 'Kaffeetasse' })).to.deep.equal(['Kaffeetasse', 'Kaffee']);
    expect(run({ tokenizer: 'standard', filter: ['lowercase', filter({ word_list: ['kaffee'] })], text: 'Kaffeetasse' })).to.deep.equal(['kaffeetasse', 'kaffee']);
  });

  it('errors as Elasticsearch words them', () => {
    expect(define(filter({})).reason).to.equal('word_list must be provided for [h], either as a path to a file, or directly');
    let err = define({ type: 'hyphenation_decompounder', word_list: ['a'] });
    expect([err.status, err.type, err.reason]).to.deep.equal([400, 'illegal_argument_exception', 'hyphenation_patterns_path is a required setting.']);
    const cause = (p: string) => {
      const e = define(filter({ hyphenation_patterns_path: p, word_list: ['a'] })) as unknown as { reason: string; extra: { caused_by: { type: string } } };
      expect(e.reason).to.equal('Exception while reading hyphenation_patterns_path.');
      return e.extra.caused_by.type;
    };
    expect(cause('analysis/missing.xml')).to.equal('no_such_file_exception');
    expect(cause('analysis/words.txt')).to.equal('i_o_exception');
    // Nothing outside the config directory is read.
    expect(cause('../../../../../../etc/passwd')).to.equal('access_control_exception');
    expect(cause('/etc/passwd')).to.equal('access_control_exception');
    // An absolute path inside the directory is read.
    expect(() => createAnalysisRegistry({ filter: { h: filter({ hyphenation_patterns_path: path.join(configDir, 'analysis/hyphenation_patterns.xml'), word_list: ['a'] }) } }, { configFiles: files })).to.not.throw();
    err = define(filter({ word_list_path: 'analysis/none.txt' }));
    expect(err.reason).to.equal(`IOException while reading word_list_path: ${path.join(configDir, 'analysis/none.txt')}`);
    err = define(filter({ word_list_path: '../outside.txt' }));
    expect(err.reason).to.equal(`Access denied trying to read file word_list_path: ${path.resolve(configDir, '../outside.txt')}`);
    expect(define({ type: 'hyphenation_decompounder', hyphenation_patterns_path: 'analysis/hyphenation_patterns.xml', word_list: ['a'], min_subword_size: -1 }).reason).to.equal('minSubwordSize cannot be negative');
  });

  it('a symbolic link out of the config directory is refused', () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'hyph-outside-'));
    try {
      copyFileSync(GRAMMAR, path.join(outside, 'g.xml'));
      symlinkSync(path.join(outside, 'g.xml'), path.join(configDir, 'analysis/link.xml'));
      const e = define(filter({ hyphenation_patterns_path: 'analysis/link.xml', word_list: ['a'] })) as unknown as { extra: { caused_by: { type: string } } };
      expect(e.extra.caused_by.type).to.equal('access_control_exception');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('embedded engine: hyphenation_decompounder over HTTP (config directory <data>/config)', () => {
  let engine: TestEngine;

  before(async () => {
    engine = await startEngine();
    mkdirSync(path.join(engine.dataDir, 'config/analysis'), { recursive: true });
    copyFileSync(GRAMMAR, path.join(engine.dataDir, 'config/analysis/hyphenation_patterns.xml'));
  });
  after(() => engine.close());

  it('_analyze: the reference example', async () => {
    const res = await engine.call('POST', '/_analyze', {
      tokenizer: 'standard',
      filter: [{ type: 'hyphenation_decompounder', hyphenation_patterns_path: 'analysis/hyphenation_patterns.xml', word_list: ['Kaffee', 'zucker', 'tasse'] }],
      text: 'Kaffeetasse',
    });
    expect(res.status).to.equal(200);
    expect(res.json.tokens.map((t: { token: string; position: number; start_offset: number; end_offset: number }) => [t.token, t.position, t.start_offset, t.end_offset])).to.deep.equal([
      ['Kaffeetasse', 0, 0, 11],
      ['Kaffee', 0, 0, 11],
      ['tasse', 0, 0, 11],
    ]);
  });

  it('an index using the filter finds documents by their subwords', async () => {
    const created = await engine.call('PUT', '/drinks', {
      settings: {
        analysis: {
          analyzer: { compounds: { tokenizer: 'standard', filter: ['lowercase', 'decompound'] } },
          filter: { decompound: { type: 'hyphenation_decompounder', hyphenation_patterns_path: 'analysis/hyphenation_patterns.xml', word_list: ['kaffee', 'zucker', 'tasse', 'dose'] } },
        },
      },
      mappings: { properties: { name: { type: 'text', analyzer: 'compounds' } } },
    });
    expect(created.status).to.equal(200);
    await engine.call('PUT', '/drinks/_doc/1?refresh=true', { name: 'Kaffeetasse' });
    await engine.call('PUT', '/drinks/_doc/2?refresh=true', { name: 'Zuckerdose' });
    const ids = async (q: string) => ((await engine.call('POST', '/drinks/_search', { query: { match: { name: q } } })).json.hits.hits as Array<{ _id: string }>).map((h) => h._id);
    expect(await ids('tasse')).to.deep.equal(['1']);
    expect(await ids('Zucker')).to.deep.equal(['2']);
    expect(await ids('kaffeetasse')).to.deep.equal(['1']);
  });

  it('an unreadable grammar refuses the index with ES\'s error', async () => {
    const res = await engine.call('PUT', '/broken', {
      settings: { analysis: { filter: { h: { type: 'hyphenation_decompounder', hyphenation_patterns_path: '../../etc/passwd', word_list: ['a'] } } } },
    });
    expect(res.status).to.equal(400);
    expect(res.json.error.type).to.equal('illegal_argument_exception');
    expect(res.json.error.reason).to.equal('Exception while reading hyphenation_patterns_path.');
    expect(res.json.error.caused_by.type).to.equal('access_control_exception');
    expect((await engine.call('HEAD', '/broken')).status).to.equal(404);
  });
});
