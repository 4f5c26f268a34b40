import { expect } from 'chai';
import { Store, type DocsRef, type StoreWrite } from '../../../lib/engine/embedded/store/index.js';
import { decodeDocRecord } from '../../../lib/engine/embedded/store/doc-record.js';
import { DocPacker, unpackDocs } from '../../../lib/engine/embedded/store/writer-protocol.js';
import { tempDir } from './support.js';

const INDEX: DocsRef = { uuid: 'storeSpecIndexUuid0001', docFormat: 2 };
const LEGACY: DocsRef = { uuid: 'storeSpecIndexUuid0002' };

function doc(id: string, v: number, s?: string, index: DocsRef = INDEX): StoreWrite {
  return { kind: 'doc', index, id, doc: s === undefined ? { v, q: v, t: 1 } : { v, q: v, t: 1, s } };
}

describe('embedded engine: store and its writer thread', function () {
  this.timeout(20_000);

  it('packs document writes for the writer thread and unpacks them unchanged', () => {
    const packer = new DocPacker();
    const input = [
      { db: 'docs2:a', id: '1', doc: { v: 1, q: 0, t: 1, s: '{"a":1}' } },
      { db: 'docs2:b', id: 'ünï-日本-🙂', doc: { v: 7, q: 2 ** 40, t: 3, s: '{"t":"é 🙂"}', r: 'röute' } },
      { db: 'docs2:a', id: 'gone', doc: { v: 2, q: 5, t: 1 } },
    ];
    for (const e of input) packer.add(e.db, e.id, e.doc);
    const packed = packer.pack();
    expect(packed.length).to.be.at.most(packed.bytes.byteLength);
    expect([...unpackDocs(packed)].map((e) => ({ db: e.db, id: e.id, doc: decodeDocRecord(e.record) }))).to.deep.equal(input);
  });

  it('a data directory whose name has a dot in it is a directory like any other', async () => {
    const data = await tempDir();
    try {
      for (const name of ['gateway.data', 'v1.2.3', '.hidden']) {
        const dir = `${data.dir}/${name}`;
        let store = Store.open(dir);
        await store.write([doc('1', 1, '{"a":1}')]);
        await store.close();
        store = Store.open(dir);
        expect(store.getDocument(INDEX, '1'), name).to.deep.equal({ v: 1, q: 1, t: 1, s: '{"a":1}' });
        await store.close();
      }
    } finally {
      await data.remove();
    }
  });

  it('commits writes in call order: the last of many unawaited writes to one id wins, across a restart', async () => {
    const data = await tempDir();
    try {
      let store = Store.open(data.dir);
      const pending: Array<Promise<void>> = [];
      for (let v = 1; v <= 300; v++) {
        // Single writes and batches interleaved, none awaited before the next is issued.
        pending.push(v % 3 === 0 ? store.write([doc('same', v, `{"v":${v}}`), doc(`other-${v}`, 1, '{}')]) : store.write([doc('same', v, `{"v":${v}}`)]));
      }
      await Promise.all(pending);
      expect(store.getDocument(INDEX, 'same')).to.deep.equal({ v: 300, q: 300, t: 1, s: '{"v":300}' });
      await store.close();
      store = Store.open(data.dir);
      expect(store.getDocument(INDEX, 'same')?.v).to.equal(300);
      expect([...store.documents(INDEX)].length).to.equal(101);
      await store.close();
    } finally {
      await data.remove();
    }
  });

  it('a read made once a write resolved sees it, in both document formats, tombstones included', async () => {
    const data = await tempDir();
    const store = Store.open(data.dir);
    try {
      for (const ref of [INDEX, LEGACY]) {
        expect(store.getDocument(ref, 'a')).to.equal(undefined);
        await store.write([doc('a', 1, '{"x":1}', ref)]);
        expect(store.getDocument(ref, 'a')?.s).to.equal('{"x":1}');
        await store.write([doc('a', 2, undefined, ref)]);
        expect(store.getDocument(ref, 'a')).to.deep.equal({ v: 2, q: 2, t: 1 });
      }
    } finally {
      await store.close();
      await data.remove();
    }
  });

  it('close waits for the writes still in flight', async () => {
    const data = await tempDir();
    try {
      let store = Store.open(data.dir);
      const writes = Array.from({ length: 50 }, (_, i) => store.write([doc(`d${i}`, 1, `{"i":${i}}`)]));
      await store.close();
      await Promise.all(writes);
      store = Store.open(data.dir);
      expect([...store.documents(INDEX)].map((d) => d.id).sort()).to.have.length(50);
      await store.close();
    } finally {
      await data.remove();
    }
  });

  it('a batch LMDB refuses fails on its own (nothing of it is kept) and the writer goes on', async () => {
    const data = await tempDir();
    const store = Store.open(data.dir);
    try {
      // LMDB's key size limit is far above Elasticsearch's 512-byte ids, which the REST layer enforces.
      const refused = store.write([doc('kept-out', 1, '{}'), doc('k'.repeat(5000), 1, '{}')]);
      const after = store.write([doc('after', 1, '{}')]);
      let error: unknown;
      await refused.catch((err: unknown) => (error = err));
      expect(String(error)).to.match(/store write failed: .*(key|Key)/);
      await after;
      expect(store.getDocument(INDEX, 'kept-out')).to.equal(undefined);
      expect(store.getDocument(INDEX, 'after')?.v).to.equal(1);
    } finally {
      await store.close();
      await data.remove();
    }
  });

  it('a document version committed after a later one of the same id does not replace it (both formats)', async () => {
    const data = await tempDir();
    try {
      let store = Store.open(data.dir);
      for (const index of [INDEX, LEGACY]) {
        await store.write([doc('x', 2, '{"later":true}', index)]);
        await store.write([doc('x', 1, '{"earlier":true}', index), doc('y', 1, '{}', index)]);
        expect(store.getDocument(index, 'x')).to.deep.include({ v: 2, s: '{"later":true}' });
        expect(store.getDocument(index, 'y')?.v).to.equal(1);
        // a delete (a record without source) of an earlier sequence number neither
        await store.write([doc('x', 1, undefined, index)]);
        expect(store.getDocument(index, 'x')?.v).to.equal(2);
      }
      await store.close();
      store = Store.open(data.dir);
      for (const index of [INDEX, LEGACY]) expect(store.getDocument(index, 'x')).to.deep.include({ v: 2, s: '{"later":true}' });
      await store.close();
    } finally {
      await data.remove();
    }
  });

  it('deleting an index drops its documents after every write issued before', async () => {
    const data = await tempDir();
    try {
      let store = Store.open(data.dir);
      const meta = { name: 'gone', uuid: INDEX.uuid, docFormat: 2 as const, creationDate: 1, state: 'open' as const, settings: {}, mappings: {}, aliases: {} };
      await store.write([{ kind: 'meta', meta }]);
      void store.write([doc('x', 1, '{}')]);
      await store.deleteIndex(meta);
      expect(store.loadIndices()).to.deep.equal([]);
      await store.close();
      store = Store.open(data.dir);
      expect(store.loadIndices()).to.deep.equal([]);
      expect([...store.documents(INDEX)]).to.deep.equal([]);
      await store.close();
    } finally {
      await data.remove();
    }
  });
});
