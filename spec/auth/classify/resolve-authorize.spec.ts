import { classificationOf } from '../../support/classification.js';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedEngine } from '../../../lib/engine/embedded/index.js';
import type { Backend } from '../../../lib/engine/backend.js';
import { callJson } from '../../../lib/engine/json-call.js';
import {
  authorizeIndices,
  narrowExpression,
  patternsCover,
  patternsCoverPattern,
  resolveIndices,
  type ResolvedIndices,
} from '../../../lib/auth/classify/index.js';

describe('resolveIndices and authorizeIndices against the embedded engine', () => {
  let engine: Backend & { close(): Promise<void> };
  let dir: string;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'classify-'));
    engine = await openEmbeddedEngine({ dataDir: dir });
    for (const index of ['shop', 'shop-archive', 'logs-1', 'logs-2', 'other', '.gateway-credentials']) {
      expect((await callJson(engine, 'PUT', `/${index}`)).status, index).to.equal(200);
    }
    const aliases = await callJson(engine, 'POST', '/_aliases', {
      actions: [
        { add: { index: 'shop', alias: 'shop-read' } },
        { add: { indices: ['logs-1', 'logs-2'], alias: 'logs' } },
        { add: { indices: ['shop', 'other'], alias: 'sneaky' } },
      ],
    });
    expect(aliases.status).to.equal(200);
  });
  after(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  const kinds = (r: ResolvedIndices) => Object.fromEntries(r.expressions.map((e) => [e.expression, [e.kind, e.indices]]));

  it('names, aliases, wildcards, _all and missing names', async () => {
    const r = await resolveIndices(engine, ['shop', 'shop-read', 'logs', 'logs-*', 'nope', '_all']);
    expect(kinds(r)).to.deep.equal({
      shop: ['index', ['shop']],
      'shop-read': ['alias', ['shop']],
      logs: ['alias', ['logs-1', 'logs-2']],
      'logs-*': ['wildcard', ['logs-1', 'logs-2']],
      nope: ['missing', []],
      _all: ['all', ['logs-1', 'logs-2', 'other', 'shop', 'shop-archive']],
    });
    expect(r.aliases).to.deep.equal({ 'shop-read': ['shop'], logs: ['logs-1', 'logs-2'] });
    expect(r.missing).to.deep.equal(['nope']);
    expect([...r.concrete].sort()).to.deep.equal(['logs-1', 'logs-2', 'other', 'shop', 'shop-archive']);
  });

  it('exclusions apply, after a wildcard, to what precedes them', async () => {
    const r = await resolveIndices(engine, ['shop*', 'logs-*', '-logs-2', '-shop-a*']);
    expect(kinds(r)).to.deep.equal({
      'shop*': ['wildcard', ['shop']],
      'logs-*': ['wildcard', ['logs-1']],
      '-logs-2': ['exclusion', []],
      '-shop-a*': ['exclusion', []],
    });
    expect(r.concrete).to.deep.equal(['shop', 'logs-1']);
  });

  it('system indices are not reached by `*`, but are by their own name', async () => {
    expect((await resolveIndices(engine, ['*'])).concrete).to.not.include('.gateway-credentials');
    expect(kinds(await resolveIndices(engine, ['.gateway-credentials']))['.gateway-credentials']).to.deep.equal(['index', ['.gateway-credentials']]);
  });

  it('a credential for shop: its names and aliases pass, others are refused, wildcards narrow', async () => {
    const patterns = ['shop', 'logs-*'];
    const r = await resolveIndices(engine, ['shop', 'shop-read', 'sneaky', 'other', '*', 'logs-*', 'nope', 'logs-new']);
    const a = authorizeIndices(patterns, r);
    const verdicts = Object.fromEntries(a.decisions.map((d) => [d.expression, d.verdict]));
    expect(verdicts).to.deep.equal({
      shop: 'allow',
      'shop-read': 'allow', // every index it points to is allowed
      sneaky: 'deny', // points at `other` too
      other: 'deny',
      '*': 'narrow',
      'logs-*': 'allow', // within the credential's own pattern
      nope: 'deny', // not covered, existing or not
      'logs-new': 'allow', // covered by name: may be created
    });
    expect(a.allowed).to.equal(false);
    expect(a.denied).to.deep.equal(['sneaky', 'other', 'nope']);
    const star = a.decisions.find((d) => d.expression === '*')!;
    expect(star.denied.sort()).to.deep.equal(['other', 'shop-archive']);
    expect(narrowExpression('*', star.allowed).split(',').sort()).to.deep.equal(['logs-1', 'logs-2', 'shop']);
    expect(a.decisions.find((d) => d.expression === 'sneaky')!.denied).to.deep.equal(['other']);
  });

  it('a wildcard reaching nothing the credential may see narrows to an empty list', async () => {
    const a = authorizeIndices(['shop'], await resolveIndices(engine, ['other*']));
    expect(a.allowed).to.equal(true);
    expect(a.decisions[0]).to.include({ verdict: 'narrow' });
    expect(narrowExpression('other*', a.decisions[0].allowed)).to.equal('');
  });

  it('strict wildcards (unrewritable body expressions) must be covered whole', async () => {
    const r = await resolveIndices(engine, ['*']);
    expect(authorizeIndices(['shop'], r, { strictWildcards: true }).allowed).to.equal(false);
    expect(authorizeIndices(['*'], r, { strictWildcards: true }).allowed).to.equal(true);
  });

  it("strict: `_all` the caller wrote is held as `*` (it reaches an index created after the check); the `_all` of a request naming none, to what it reaches now", () => {
    // a cluster whose every visible index is the tenant's: `_all` reaches nothing foreign at the check
    const r: ResolvedIndices = { expressions: [{ expression: '_all', kind: 'all', indices: ['shop', 'shop-archive'] }], concrete: ['shop', 'shop-archive'], aliases: {}, missing: [], aliasFilters: {} };
    expect(authorizeIndices(['shop*'], r, { strictWildcards: true, allWritten: true }).allowed, 'written').to.equal(false);
    expect(authorizeIndices(['*'], r, { strictWildcards: true, allWritten: true }).allowed, 'written, credential on every index').to.equal(true);
    expect(authorizeIndices(['shop*'], r, { strictWildcards: true }).allowed, 'implied').to.equal(true);
    expect(authorizeIndices(['shop*'], r).decisions[0].verdict, 'narrowable').to.equal('narrow');
  });

  it('system indices: never for a non-admin pattern, even `*` or their own name; always for the admin', async () => {
    const r = await resolveIndices(engine, ['.gateway-credentials', '.gateway-*']);
    for (const patterns of [['*'], ['.gateway-*'], ['.gateway-credentials'], ['.*']]) {
      const a = authorizeIndices(patterns, r);
      expect(a.decisions[0].verdict, patterns.join()).to.equal('deny');
      expect(a.decisions[1].verdict, patterns.join()).to.equal('narrow');
      expect(a.decisions[1].allowed).to.deep.equal([]);
    }
    expect(authorizeIndices([], r, { admin: true }).decisions.map((d) => d.verdict)).to.deep.equal(['allow', 'allow']);
  });

  it('end to end: a tenant _bulk, _msearch and _reindex naming another index are refused', async () => {
    const tenant = ['shop', 'shop-*'];
    const bodies: Array<[string, string]> = [
      ['/shop/_bulk', '{"index":{}}\n{"a":1}\n{"index":{"_index":"other"}}\n{"a":1}\n'],
      ['/shop/_msearch', '{}\n{}\n{"index":"sneaky"}\n{}\n'],
      ['/_reindex', JSON.stringify({ source: { index: 'shop' }, dest: { index: 'other' } })],
      ['/_mget', JSON.stringify({ docs: [{ _index: 'logs', _id: '1' }] })],
    ];
    for (const [p, body] of bodies) {
      const c = classificationOf({ method: 'POST', path: p, querystring: '', body });
      const a = authorizeIndices(tenant, await resolveIndices(engine, c.indices));
      expect(a.allowed, p).to.equal(false);
    }
    const own = classificationOf({ method: 'POST', path: '/shop/_bulk', querystring: '', body: '{"index":{}}\n{"a":1}\n{"delete":{"_index":"shop-read","_id":"1"}}\n' });
    expect(authorizeIndices(tenant, await resolveIndices(engine, own.indices)).allowed).to.equal(true);
  });

  it('follows alias changes: an alias that gains another tenant\'s index is refused from then on', async () => {
    expect(authorizeIndices(['shop'], await resolveIndices(engine, ['shop-read'])).allowed).to.equal(true);
    await callJson(engine, 'POST', '/_aliases', { actions: [{ add: { index: 'other', alias: 'shop-read' } }] });
    expect(authorizeIndices(['shop'], await resolveIndices(engine, ['shop-read'])).allowed).to.equal(false);
    await callJson(engine, 'POST', '/_aliases', { actions: [{ remove: { index: 'other', alias: 'shop-read' } }] });
  });

  it('expand_wildcards follows the request: closed indices only when asked', async () => {
    await callJson(engine, 'POST', '/shop-archive/_close');
    expect((await resolveIndices(engine, ['shop*'])).concrete).to.deep.equal(['shop']);
    expect((await resolveIndices(engine, ['shop*'], { expandWildcards: 'open,closed' })).concrete.sort()).to.deep.equal(['shop', 'shop-archive']);
    await callJson(engine, 'POST', '/shop-archive/_open');
  });

  it('no expressions: nothing to resolve', async () => {
    expect(await resolveIndices(engine, [])).to.deep.equal({ expressions: [], concrete: [], aliases: {}, missing: [], aliasFilters: {} });
  });
});

describe('index patterns', () => {
  it('patternsCover: names and wildcards, system indices excluded', () => {
    expect(patternsCover(['shop', 'logs-*'], 'logs-2024')).to.equal(true);
    expect(patternsCover(['shop', 'logs-*'], 'shopping')).to.equal(false);
    expect(patternsCover(['*'], '.gateway-apps')).to.equal(false);
    expect(patternsCover([], '.gateway-apps', { admin: true })).to.equal(true);
    expect(patternsCover(['a.b*'], 'aXb')).to.equal(false);
  });
  it('patternsCoverPattern: a granted pattern must lie within the granter\'s', () => {
    expect(patternsCoverPattern(['logs-*'], 'logs-2024-*')).to.equal(true);
    expect(patternsCoverPattern(['logs-*'], 'log*')).to.equal(false);
    expect(patternsCoverPattern(['logs-*'], 'logs-a')).to.equal(true);
    expect(patternsCoverPattern(['*'], '.gateway-*')).to.equal(false);
    expect(patternsCoverPattern(['*'], '*')).to.equal(false);
    expect(patternsCoverPattern(['*'], 'a*')).to.equal(true);
  });
  it('narrowExpression leaves names and aliases as written and dedupes', () => {
    expect(narrowExpression('shop', [])).to.equal('shop');
    expect(narrowExpression('_all', ['a', 'b', 'a'])).to.equal('a,b');
  });
});
