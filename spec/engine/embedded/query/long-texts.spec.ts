import { expect } from 'chai';
import { LONG_LITERAL_CHARS, parseJsonCooperatively, PieceText, piecesOf, type ReadableText } from '../../../../lib/cooperative/index.js';
import { checkQueryLimits, parseQuery, resolveTermsLookups } from '../../../../lib/engine/embedded/search/query/index.js';
import { wordCount } from '../../../../lib/engine/embedded/search/query/query-limits.js';

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** A text cut into pieces at the given lengths' multiples, as a body decoded a piece at a time. */
function piecesOfText(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/** A ReadableText that remembers how far it was read. */
function watched(text: ReadableText): { text: ReadableText; furthest: () => number } {
  let furthest = 0;
  return {
    text: {
      length: text.length,
      charCodeAt: (i) => ((furthest = Math.max(furthest, i + 1)), text.charCodeAt(i)),
      indexOf: (s, from) => text.indexOf(s, from),
      slice: (start, end) => ((furthest = Math.max(furthest, end ?? text.length)), text.slice(start, end)),
    },
    furthest: () => furthest,
  };
}

describe('long query texts: counted through the pieces the body was decoded in', () => {
  it('wordCount over pieces counts what it counts over the text, wherever words, surrogate pairs and slices are cut', () => {
    const rnd = random(11);
    const alphabet = ['a', 'é', '7', ' ', ',', '😀', '𝒜', '-', '\n', 'Z'];
    for (let t = 0; t < 12; t++) {
      const text = Array.from({ length: 100_000 + Math.floor(rnd() * 150_000) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
      const pieces = new PieceText(piecesOfText(text, 1 + Math.floor(rnd() * 90_000)));
      for (const limit of [0, 5, 4096, 1_000_000]) expect(wordCount('unused', limit, pieces), `text ${t}, limit ${limit}`).to.equal(wordCount(text, limit));
    }
  });

  it('a 20 MB text is refused after its first words: reading it through its pieces stops at the first slice', () => {
    const text = 'lorem '.repeat(3_500_000);
    const { text: readable, furthest } = watched(new PieceText(piecesOfText(text, 1024 * 1024)));
    expect(wordCount('unused', 4096, readable)).to.equal(4097);
    expect(furthest()).to.be.at.most(64 * 1024);
  });

  it('a match or phrase text parsed from a body kept as pieces keeps them beside its query: the clause limit reads them, and refuses as before', async () => {
    const text = 'lorem ipsum '.repeat(LONG_LITERAL_CHARS / 4);
    for (const [name, query] of [
      ['match', (t: string) => ({ match: { title: t } })],
      ['match with options', (t: string) => ({ match: { title: { query: t, operator: 'and' } } })],
      ['match_phrase', (t: string) => ({ match_phrase: { title: t } })],
      ['match_phrase_prefix', (t: string) => ({ match_phrase_prefix: { title: { query: t } } })],
      ['match_bool_prefix', (t: string) => ({ match_bool_prefix: { title: t } })],
      ['multi_match', (t: string) => ({ multi_match: { query: t, fields: ['title', 'body'] } })],
    ] as const) {
      const body = JSON.stringify({ query: query(text) });
      const value = (await parseJsonCooperatively(new PieceText(piecesOfText(body, 50_000)))) as { query: unknown };
      // no terms lookup to resolve: the query as parsed, not a copy that would lose the pieces
      const resolved = resolveTermsLookups(value.query, () => undefined);
      expect(resolved, name).to.equal(value.query);
      const q = parseQuery(resolved);
      expect((q as { query?: unknown }).query, name).to.equal(text);
      expect(String(piecesOf(q, 'query')), name).to.equal(text);
      expect(() => checkQueryLimits([], [q]), name).to.throw('Query contains too many nested clauses; maxClauseCount is set to 4096');
    }
  });

  it('pieces are kept only for the value they were decoded for: a member given another value reads as that value', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(LONG_LITERAL_CHARS * 2), b: ['y'.repeat(LONG_LITERAL_CHARS)], c: 'short' });
    const value = (await parseJsonCooperatively(new PieceText(piecesOfText(body, 20_000)))) as { a: string; b: string[]; c: string };
    expect(String(piecesOf(value, 'a'))).to.equal(value.a);
    expect(String(piecesOf(value.b, 0))).to.equal(value.b[0]);
    expect(piecesOf(value, 'c')).to.equal(undefined);
    value.a = 'another';
    expect(piecesOf(value, 'a')).to.equal(undefined);
  });
});
