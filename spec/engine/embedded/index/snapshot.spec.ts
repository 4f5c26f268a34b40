import { expect } from 'chai';
import { SnapshotReader, SnapshotWriter, codeVersion } from '../../../../lib/engine/embedded/index/index.js';

/** The header of a snapshot file, rewritten (its length prefix follows). */
function rewriteHead(bytes: Buffer, edit: (head: { version: string }) => void): Buffer {
  const magic = 8;
  const len = bytes.readUInt32LE(magic);
  const head = JSON.parse(bytes.toString('utf8', magic + 4, magic + 4 + len)) as { version: string };
  edit(head);
  const text = Buffer.from(JSON.stringify(head));
  // Same length keeps the columns' alignment: pad the edited header with spaces (valid JSON).
  expect(text.length).to.be.at.most(len);
  const out = Buffer.from(bytes);
  out.fill(0x20, magic + 4, magic + 4 + len);
  text.copy(out, magic + 4);
  return out;
}

describe('embedded engine: index snapshots', () => {
  it('are stamped with the code version, computed once from the engine files', () => {
    const v = codeVersion();
    expect(v).to.match(/^[0-9a-f]{32}$/);
    expect(codeVersion()).to.equal(v);
  });

  it('read back their header and columns under the same code version, and not under another', () => {
    const w = new SnapshotWriter();
    const col = w.column(Int32Array.of(3, 1, 4, 1, 5));
    const bytes = Buffer.concat(w.toBuffers({ key: 'k', col }));
    const r = SnapshotReader.open(bytes)!;
    expect(r).to.not.equal(undefined);
    expect((r.header as { key: string }).key).to.equal('k');
    expect([...r.i32((r.header as { col: { $b: number } }).col)]).to.deep.equal([3, 1, 4, 1, 5]);

    const older = rewriteHead(bytes, (h) => {
      h.version = '0'.repeat(32);
    });
    expect(SnapshotReader.open(older)).to.equal(undefined);
    const same = rewriteHead(bytes, () => {});
    expect(SnapshotReader.open(same)).to.not.equal(undefined);
  });
});

describe('embedded engine: term dictionary', () => {
  it('built from a snapshot term list finds every term and keeps adding after it', async () => {
    const { TermDict } = await import('../../../../lib/engine/embedded/index/term-dict.js');
    const terms = Array.from({ length: 1000 }, (_, i) => `t${i * 7}`);
    const d = TermDict.ofDistinct(terms.slice());
    for (let i = 0; i < terms.length; i++) expect(d.get(terms[i])).to.equal(i);
    expect(d.get('absent')).to.equal(-1);
    expect(d.intern('t7')).to.equal(1);
    expect(d.added).to.equal(false);
    for (let i = 0; i < 2000; i++) expect(d.intern(`new${i}`)).to.equal(1000 + i);
    expect(d.added).to.equal(true);
    for (let i = 0; i < terms.length; i++) expect(d.get(terms[i])).to.equal(i);
    for (let i = 0; i < 2000; i++) expect(d.get(`new${i}`)).to.equal(1000 + i);
    expect(d.size).to.equal(3000);
  });
});
