import { expect } from 'chai';
import { compileWildcardQuery, simpleMatch } from '../../lib/wildcard/index.js';

describe('wildcard: simpleMatch (Elasticsearch Regex.simpleMatch)', () => {
  it('without a star, is equality (case-sensitive)', () => {
    expect(simpleMatch('logs', 'logs')).to.equal(true);
    expect(simpleMatch('logs', 'logs2')).to.equal(false);
    expect(simpleMatch('logs', 'Logs')).to.equal(false);
    expect(simpleMatch('', '')).to.equal(true);
    expect(simpleMatch('', 'a')).to.equal(false);
  });

  it('`*` alone matches anything, the empty text included', () => {
    expect(simpleMatch('*', '')).to.equal(true);
    expect(simpleMatch('*', 'anything.at all\n')).to.equal(true);
    expect(simpleMatch('**', 'x')).to.equal(true);
  });

  it('prefix, suffix and infix stars', () => {
    expect(simpleMatch('logs-*', 'logs-2024')).to.equal(true);
    expect(simpleMatch('logs-*', 'logs-')).to.equal(true);
    expect(simpleMatch('logs-*', 'log')).to.equal(false);
    expect(simpleMatch('*-2024', 'logs-2024')).to.equal(true);
    expect(simpleMatch('*-2024', 'logs-2025')).to.equal(false);
    expect(simpleMatch('logs-*-eu', 'logs-2024-eu')).to.equal(true);
    expect(simpleMatch('logs-*-eu', 'logs-2024-us')).to.equal(false);
    expect(simpleMatch('a*a', 'a')).to.equal(false);
    expect(simpleMatch('a*a', 'aa')).to.equal(true);
  });

  it('several stars, matched anywhere in order', () => {
    expect(simpleMatch('*a*b*c*', 'xxaxxbxxcxx')).to.equal(true);
    expect(simpleMatch('*a*b*c*', 'xxcxxbxxaxx')).to.equal(false);
    expect(simpleMatch('a*b*c', 'abbbc')).to.equal(true);
    expect(simpleMatch('a*bc*bc', 'abcbc')).to.equal(true);
    expect(simpleMatch('a*bc*bc', 'abc')).to.equal(false);
    expect(simpleMatch('a**b', 'ab')).to.equal(true);
  });

  it('a star crosses dots; other characters are literal, regex metacharacters included', () => {
    expect(simpleMatch('title.*', 'title.keyword')).to.equal(true);
    expect(simpleMatch('*.raw', 'user.name.raw')).to.equal(true);
    expect(simpleMatch('a.b', 'a.b')).to.equal(true);
    expect(simpleMatch('a.b', 'axb')).to.equal(false);
    expect(simpleMatch('a+b', 'a+b')).to.equal(true);
    expect(simpleMatch('a+b', 'aab')).to.equal(false);
    expect(simpleMatch('(x)', '(x)')).to.equal(true);
    expect(simpleMatch('(x)', 'x')).to.equal(false);
    expect(simpleMatch('?', 'a')).to.equal(false);
    expect(simpleMatch('[ab]*', '[ab]c')).to.equal(true);
    expect(simpleMatch('^a$|b\\', '^a$|b\\')).to.equal(true);
  });

  it('case-insensitive on request', () => {
    expect(simpleMatch('https://*.Example.com/*', 'HTTPS://app.example.COM/page', true)).to.equal(true);
    expect(simpleMatch('https://*.example.com/*', 'https://example.org/', true)).to.equal(false);
    expect(simpleMatch('ÉTÉ*', 'été-2024', true)).to.equal(true);
  });

  it('a pathological pattern on a long text ends at once', () => {
    const text = 'a'.repeat(10_000);
    expect(simpleMatch('*a*a*a*a*a*a*a*a*a*a*b', text)).to.equal(false);
    expect(simpleMatch('*a*a*a*a*a*a*a*a*a*a*b*', text)).to.equal(false);
    expect(simpleMatch('*a*a*a*a*a*a*a*a*a*a*', text)).to.equal(true);
  });
});

describe('wildcard: compileWildcardQuery (Lucene WildcardQuery syntax)', () => {
  const matches = (pattern: string, text: string, caseInsensitive = false) => compileWildcardQuery(pattern, caseInsensitive).test(text);

  it('`*` any run, `?` exactly one code point, everything else literal', () => {
    expect(matches('qu*k', 'quick')).to.equal(true);
    expect(matches('qu?ck', 'quick')).to.equal(true);
    expect(matches('qu?ck', 'quck')).to.equal(false);
    expect(matches('?', '😀')).to.equal(true);
    expect(matches('a.b', 'axb')).to.equal(false);
    expect(matches('*', '')).to.equal(true);
    expect(matches('', '')).to.equal(true);
    expect(matches('a*', 'a\nb')).to.equal(true);
  });

  it('`\\` makes the next character literal', () => {
    expect(matches('a\\*b', 'a*b')).to.equal(true);
    expect(matches('a\\*b', 'axb')).to.equal(false);
    expect(matches('a\\?', 'a?')).to.equal(true);
    expect(matches('a\\', 'a\\')).to.equal(true);
  });

  it('reports the literal prefix, empty when case-insensitive', () => {
    expect(compileWildcardQuery('qu\\*i?k*', false).literalPrefix).to.equal('qu*i');
    expect(compileWildcardQuery('quick', false).literalPrefix).to.equal('quick');
    expect(compileWildcardQuery('qu*', true).literalPrefix).to.equal('');
  });

  it('case-insensitive compares folded code points', () => {
    expect(matches('QU*K', 'quick', true)).to.equal(true);
    expect(matches('qu?CK', 'QUICK', true)).to.equal(true);
    expect(matches('ΣΟΦ?Α', 'σοφία', true)).to.equal(true);
    expect(matches('QU*K', 'quick')).to.equal(false);
  });

  it('a pathological pattern on a long text ends at once', () => {
    const text = 'a'.repeat(10_000);
    expect(matches('*a*a*a*a*a*a*a*a*a*a*b', text)).to.equal(false);
    expect(matches('*a?a*a*a*a*a*a*a*a*a*b*', text)).to.equal(false);
    expect(matches('*a*a*a*a*a*a*a*a*a*a*b', text, true)).to.equal(false);
  });
});
