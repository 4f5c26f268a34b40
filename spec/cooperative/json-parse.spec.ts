import { expect } from 'chai';
import { jsonPieces, LONG_LITERAL_CHARS, parseJsonCooperatively, PieceText, stringifyCooperatively } from '../../lib/cooperative/index.js';

const CHARS = ['a', 'é', '"', '\\', '\n', '\u0000', '😀', '\ud83d', '\ude00', '/', ' ', 'u', '\u2028', '0'];
/** A deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('parseJsonCooperatively: JSON.parse, with long strings decoded apart', function () {
  this.timeout(60_000);

  it('gives exactly what JSON.parse gives, for random texts with long strings, escapes and surrogates', async () => {
    const rnd = random(42);
    const str = (n: number) => Array.from({ length: n }, () => CHARS[Math.floor(rnd() * CHARS.length)]).join('');
    const value = (depth: number): unknown => {
      const r = rnd();
      if (depth > 3 || r < 0.3) {
        const k = rnd();
        return k < 0.5 ? str(rnd() < 0.3 ? LONG_LITERAL_CHARS + Math.floor(rnd() * 200_000) : 5) : k < 0.7 ? rnd() * 1e6 : k < 0.8 ? null : k < 0.9 ? true : -3;
      }
      if (r < 0.65) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(rnd() * 4); i++) o[rnd() < 0.1 ? str(LONG_LITERAL_CHARS + 10) : str(3)] = value(depth + 1);
      return o;
    };
    for (let t = 0; t < 60; t++) {
      const v = { root: value(0), big: str(150_000) };
      const text = t % 2 ? JSON.stringify(v) : JSON.stringify(v, null, 2);
      const parsed = await parseJsonCooperatively(text);
      expect(parsed).to.deep.equal(JSON.parse(text));
      expect(JSON.stringify(parsed)).to.equal(JSON.stringify(JSON.parse(text)));
    }
  });

  it('reads a text kept as the pieces it was decoded in (PieceText) exactly as the text, wherever the pieces are cut', async () => {
    const rnd = random(7);
    for (let t = 0; t < 30; t++) {
      const long = (n: number) => Array.from({ length: n }, () => CHARS[Math.floor(rnd() * CHARS.length)]).join('');
      const text = JSON.stringify({ q: { match: { a: long(LONG_LITERAL_CHARS + Math.floor(rnd() * 300_000)) } }, b: [long(4), long(LONG_LITERAL_CHARS * 2)], c: 1 });
      // cut anywhere: inside escapes, surrogate pairs, keys and between a literal's quotes
      const cuts = Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => Math.floor(rnd() * text.length)).sort((x, y) => x - y);
      const pieces = [0, ...cuts].map((from, k) => text.slice(from, k < cuts.length ? cuts[k] : text.length));
      const parsed = await parseJsonCooperatively(new PieceText(pieces));
      expect(JSON.stringify(parsed)).to.equal(JSON.stringify(JSON.parse(text)));
      // written again from the pieces its long strings were kept as (json.ts), as from the strings
      expect(await stringifyCooperatively(parsed)).to.equal(JSON.stringify(JSON.parse(text)));
    }
    // strings long enough to be written a chunk at a time, in an object and in an array
    const big = (c: string) => `${c}\u00e9😀\n`.repeat(150_000);
    const text = JSON.stringify({ q: big('a'), list: [1, big('b')] });
    const pieces = [text.slice(0, 7), text.slice(7, 400_000), text.slice(400_000, 1_300_003), text.slice(1_300_003)];
    const parsed = await parseJsonCooperatively(new PieceText(pieces));
    expect(await stringifyCooperatively(parsed)).to.equal(text);
    expect([...jsonPieces(parsed, 2)].join('')).to.equal(JSON.stringify(JSON.parse(text), null, 2));
    // a text JSON.parse refuses is refused the same way through its pieces
    let thrown: unknown;
    await parseJsonCooperatively(new PieceText(['{"a":"', 'x'.repeat(LONG_LITERAL_CHARS), '",}'])).catch((err) => (thrown = err));
    expect(thrown).to.be.instanceOf(SyntaxError);
  });

  it('never cuts a piece inside an escape sequence', async () => {
    for (let off = 0; off < 8; off++) {
      const s = 'x'.repeat(512 * 1024 - off) + '\\u00e9\\n\\"\\\\' + 'y'.repeat(70_000);
      const text = `{"a":"${s}","b":["${s}"]}`;
      expect(await parseJsonCooperatively(text)).to.deep.equal(JSON.parse(text));
    }
  });

  it('keeps JSON.parse semantics for __proto__ and duplicate keys, and its SyntaxError for a bad text', async () => {
    const long = 'p'.repeat(LONG_LITERAL_CHARS);
    const proto = (await parseJsonCooperatively(`{"__proto__":"${long}","a":"${long}","a":"${long}x"}`)) as Record<string, string>;
    expect(Object.getPrototypeOf(proto)).to.equal(Object.prototype);
    expect(Object.keys(proto)).to.deep.equal(['__proto__', 'a']);
    expect(proto.a).to.have.length(LONG_LITERAL_CHARS + 1);
    expect(({} as Record<string, unknown>).length).to.equal(undefined);
    for (const bad of [`{"a":"${long}",}`, `{"a":"${long}\u0001"}`, `{"a":"${long}`]) {
      let thrown: unknown;
      await parseJsonCooperatively(bad).catch((err) => (thrown = err));
      expect(thrown).to.be.instanceOf(SyntaxError);
    }
  });

  it('lets the event loop turn while it decodes a 10 MB string with escapes, and takes one without as it stands', async () => {
    const escaped = JSON.stringify({ query: { match: { name: 'q\n'.repeat(5_242_880) } } });
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const parsed = (await parseJsonCooperatively(escaped)) as { query: { match: { name: string } } };
    clearInterval(ticker);
    expect(parsed.query.match.name).to.equal('q\n'.repeat(5_242_880));
    // a parse in one piece lets no timer fire; how many turns a faster machine needs is its own (3 here, 2026-11-30)
    expect(turns).to.be.greaterThan(0);
    const plain = JSON.stringify({ query: { match: { name: 'q '.repeat(5_242_880) } } });
    expect(((await parseJsonCooperatively(plain)) as { query: { match: { name: string } } }).query.match.name).to.equal('q '.repeat(5_242_880));
  });
});
