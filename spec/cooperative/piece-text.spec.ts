import { expect } from 'chai';
import { PieceText } from '../../lib/cooperative/index.js';
import { readBulk, readBulkCooperatively } from '../../lib/ndjson/index.js';

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** `text` cut into pieces of random lengths (many of one character), as a body decoded chunk by chunk. */
function cutAnywhere(text: string, rnd: () => number, longest: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; ) {
    const n = rnd() < 0.3 ? 1 : 1 + Math.floor(rnd() * longest);
    pieces.push(text.slice(at, at + n));
    at += n;
  }
  return pieces;
}

describe('PieceText: a text read as the pieces it was decoded in', () => {
  it('reads as the joined text: characters, one-character searches and slices, across pieces', () => {
    const rnd = random(7);
    const text = Array.from({ length: 5000 }, () => 'ab"\\\n x😀'[Math.floor(rnd() * 9)]).join('');
    const pieces = new PieceText(cutAnywhere(text, rnd, 40));
    expect(pieces.length).to.equal(text.length);
    expect(String(pieces)).to.equal(text);
    for (let t = 0; t < 3000; t++) {
      const i = Math.floor(rnd() * (text.length + 2)) - 1;
      const j = i + Math.floor(rnd() * 200);
      const from = Math.max(0, i);
      expect(pieces.charCodeAt(i)).to.deep.equal(text.charCodeAt(i));
      expect(pieces.indexOf('"', from)).to.equal(text.indexOf('"', from));
      expect(pieces.indexOf('\n', from)).to.equal(text.indexOf('\n', from));
      expect(pieces.slice(from, j)).to.equal(text.slice(from, j));
    }
  });

  it('gives the bulk reader the same items as the text, and the same refusals', async () => {
    const rnd = random(11);
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      const r = rnd();
      if (r < 0.1) lines.push('  \r');
      lines.push(r < 0.5 ? JSON.stringify({ index: { _index: `i${i % 7}`, _id: `d${i}` } }) : ` { "create" : { "_id" : "c${i}", "routing": "r" } } `);
      lines.push(JSON.stringify({ n: i, text: 'é😀\\"'.repeat(i % 5) }));
      if (r > 0.9) lines.push(JSON.stringify({ delete: { _index: 'x', _id: `x${i}` } }));
    }
    const text = lines.join('\n') + '\n';
    for (const longest of [1, 7, 300, 100_000]) {
      expect(await readBulkCooperatively(new PieceText(cutAnywhere(text, rnd, longest)))).to.deep.equal(readBulk(text));
    }
    for (const bad of [text.slice(0, -1), text.replace('"create"', '"crate"')]) {
      let expected: unknown;
      let got: unknown;
      try {
        readBulk(bad);
      } catch (err) {
        expected = err;
      }
      await readBulkCooperatively(new PieceText(cutAnywhere(bad, rnd, 500))).catch((err) => (got = err));
      expect(expected).to.be.instanceOf(Error);
      expect(got).to.deep.equal(expected);
    }
  });
});
