import { expect } from 'chai';
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { DocValues, InvertedIndex, SliceReader, SnapshotReader, SnapshotWriter, type FieldIndex } from '../../../../lib/engine/embedded/index/index.js';
import { FieldIndex as FieldIndexClass } from '../../../../lib/engine/embedded/index/field-index.js';
import type { IndexableField } from '../../../../lib/engine/embedded/mapping/index.js';
import { readJson } from '../../../../lib/engine/index.js';
import { ndjson, startEngine } from '../support.js';

function kw(values: string[]): IndexableField {
  return { type: 'keyword', terms: [...values], positions: values.map(() => 0), values: [...values] };
}

function doc(fields: Record<string, IndexableField>) {
  return { fields: new Map(Object.entries(fields)) };
}

/** Live ordinals of a term's postings. */
function postings(fi: FieldIndex, term: string, inv: InvertedIndex): number[] {
  const tid = fi.termId(term);
  if (tid < 0) return [];
  const r = fi.postingsOf(tid, new SliceReader());
  const out: number[] = [];
  while (!r.done) {
    const ord = r.read();
    if (inv.isLive(ord)) out.push(ord);
  }
  return out;
}

describe('embedded engine: index structures', () => {
  describe('doc values columns', () => {
    it('keep single strings, numbers, booleans and multi values per ordinal', () => {
      const dv = new DocValues();
      dv.set(0, ['a']);
      dv.set(2, [3.5]);
      dv.set(3, [true]);
      dv.set(4, [false]);
      dv.set(5, ['x', 'y']);
      dv.set(6, [-0]);
      expect(dv.get(0)).to.deep.equal(['a']);
      expect(dv.get(1)).to.equal(undefined);
      expect(dv.get(2)).to.deep.equal([3.5]);
      expect(dv.get(3)).to.deep.equal([true]);
      expect(dv.get(4)).to.deep.equal([false]);
      expect(dv.get(5)).to.deep.equal(['x', 'y']);
      expect(Object.is(dv.get(6)![0], -0)).to.equal(true);
      expect(dv.size).to.equal(6);
      expect([...dv.keys()]).to.deep.equal([0, 2, 3, 4, 5, 6]);
      dv.delete(5);
      dv.set(0, ['b', 'c']);
      expect(dv.get(5)).to.equal(undefined);
      expect(dv.get(0)).to.deep.equal(['b', 'c']);
      expect(dv.size).to.equal(5);
      expect(dv.view(2)).to.deep.equal([3.5]);
    });

    it('keep date_nanos epoch nanoseconds exactly, single and multi-valued, through a snapshot', () => {
      const dv = new DocValues();
      const ns = 1540815132123456789n;
      dv.set(0, [ns]);
      dv.set(1, [ns + 1n, ns - 1n]);
      dv.set(40, [2n ** 63n - 1n]);
      expect(dv.get(0)).to.deep.equal([ns]);
      expect(dv.view(1)).to.deep.equal([ns + 1n, ns - 1n]);
      const w = new SnapshotWriter();
      const header = dv.toSnapshot(w);
      const reader = SnapshotReader.open(Buffer.concat(w.toBuffers(JSON.parse(JSON.stringify(header)))))!;
      const loaded = new DocValues();
      loaded.loadSnapshot(reader, reader.header as typeof header);
      expect([...loaded.entries()]).to.deep.equal([[0, [ns]], [1, [ns + 1n, ns - 1n]], [40, [2n ** 63n - 1n]]]);
    });
  });

  describe('revealing a staged document', () => {
    it('activates the fields the document has, not every field of the index (an index of 10,000 fields)', () => {
      const inv = new InvertedIndex();
      inv.put('wide', doc(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, kw([`v${i}`])]))));
      const ord = inv.stage('small', doc({ f1: kw(['w']), f2: kw(['w']) }));
      const activate = FieldIndexClass.prototype.activate;
      let calls = 0;
      FieldIndexClass.prototype.activate = function (this: FieldIndex, o: number) {
        calls++;
        activate.call(this, o);
      };
      try {
        inv.reveal('small', ord);
      } finally {
        FieldIndexClass.prototype.activate = activate;
      }
      expect(calls).to.equal(2);
      expect(postings(inv.field('f2')!, 'w', inv)).to.deep.equal([ord]);
      expect(inv.field('f2')!.docCount).to.equal(2);
      expect(inv.field('f3')!.docCount).to.equal(1);
    });
  });

  describe('fields with identical content share one index until they differ', () => {
    it('x.keyword and x.raw answer alike while equal, and separately after the first difference', () => {
      const inv = new InvertedIndex();
      inv.put('1', doc({ 'x.keyword': kw(['a']), 'x.raw': kw(['a']) }));
      inv.put('2', doc({ 'x.keyword': kw(['b']), 'x.raw': kw(['b']) }));
      expect(inv.field('x.raw')).to.equal(inv.field('x.keyword'));
      // ignore_above-like difference: only x.raw has the long value
      inv.put('3', doc({ 'x.raw': kw(['long value']) }));
      const k = inv.field('x.keyword')!;
      const r = inv.field('x.raw')!;
      expect(r).to.not.equal(k);
      expect(postings(k, 'long value', inv)).to.deep.equal([]);
      expect(postings(r, 'long value', inv)).to.deep.equal([2]);
      expect(postings(k, 'a', inv)).to.deep.equal([0]);
      expect(postings(r, 'a', inv)).to.deep.equal([0]);
      expect(k.docCount).to.equal(2);
      expect(r.docCount).to.equal(3);
      expect(k.docValues.get(2)).to.equal(undefined);
      expect(r.docValues.get(2)).to.deep.equal(['long value']);
      // a delete is applied once to each index
      inv.delete('1');
      expect(k.docCount).to.equal(1);
      expect(r.docCount).to.equal(2);
      inv.put('4', doc({ 'x.keyword': kw(['c']), 'x.raw': kw(['d']) }));
      expect(postings(k, 'c', inv)).to.deep.equal([3]);
      expect(postings(r, 'c', inv)).to.deep.equal([]);
      expect(postings(r, 'd', inv)).to.deep.equal([3]);
    });

    it('a document staged while its fields are shared, and revealed after they split, is live in both', () => {
      const inv = new InvertedIndex();
      inv.put('1', doc({ 'x.keyword': kw(['a']), 'x.raw': kw(['a']) }));
      const pending = inv.stage('2', doc({ 'x.keyword': kw(['b']), 'x.raw': kw(['b']) }));
      // the first difference splits x.raw from x.keyword while document 2 is pending in both
      inv.put('3', doc({ 'x.raw': kw(['long value']) }));
      const k = inv.field('x.keyword')!;
      const r = inv.field('x.raw')!;
      expect(r).to.not.equal(k);
      inv.reveal('2', pending);
      expect(postings(k, 'b', inv)).to.deep.equal([pending]);
      expect(postings(r, 'b', inv)).to.deep.equal([pending]);
      expect(k.docCount).to.equal(2);
      expect(r.docCount).to.equal(3);
    });

    it('a delete while shared counts once', () => {
      const inv = new InvertedIndex();
      inv.put('1', doc({ a: kw(['v']), b: kw(['v']) }));
      inv.put('2', doc({ a: kw(['w']), b: kw(['w']) }));
      inv.delete('1');
      expect(inv.field('a')!.docCount).to.equal(1);
      expect(inv.field('b')!.docCount).to.equal(1);
      expect(inv.field('a')!.sumTotalTermFreq).to.equal(1);
    });
  });

  describe('sorted terms (prefix, range, wildcard and fuzzy read them)', () => {
    it('stay sorted as terms are added after a read, a few (merged in) or many (sorted anew), and a clone keeps its own', () => {
      const inv = new InvertedIndex();
      const words = ['pear', 'apple', 'fig', 'kiwi', 'date', 'lime', 'plum', 'cherry', 'grape', 'mango'];
      words.forEach((w, i) => inv.put(String(i), doc({ f: kw([w]), g: kw([w]) })));
      const fi = inv.field('f')!;
      const before = fi.sortedTerms();
      expect(before).to.deep.equal([...words].sort());
      inv.put('10', doc({ f: kw(['banana']), g: kw(['banana']) })); // one new term: merged into a new array
      const merged = fi.sortedTerms();
      expect(merged).to.deep.equal([...words, 'banana'].sort());
      expect(before).to.deep.equal([...words].sort()); // a reader of the earlier array is not disturbed
      expect(fi.sortedTerms()).to.equal(merged); // nothing added: the same array
      const many = Array.from({ length: 30 }, (_, i) => `z${String(30 - i).padStart(2, '0')}`);
      many.forEach((w, i) => inv.put(`m${i}`, doc({ f: kw([w, 'Apple']), g: kw([w, 'Apple']) })));
      expect(fi.sortedTerms()).to.deep.equal([...words, 'banana', ...many, 'Apple'].sort());
      // a field that starts to differ from the one it shared an index with gets its own terms
      inv.put('x', doc({ f: kw(['aa']), g: kw(['bb']) }));
      expect(inv.field('f')!.sortedTerms()).to.include('aa').and.not.include('bb');
      expect(inv.field('g')!.sortedTerms()).to.include('bb').and.not.include('aa');
    });
  });

  describe('staged documents', () => {
    it('stay out of liveness and statistics until revealed; the previous version stays live until then', () => {
      const inv = new InvertedIndex();
      inv.put('1', doc({ k: kw(['old']) }));
      const staged = inv.stage('1', doc({ k: kw(['new', 'newer']) }));
      const k = inv.field('k')!;
      expect(inv.docCount).to.equal(1);
      expect(inv.isLive(staged)).to.equal(false);
      expect(k.docCount).to.equal(1);
      expect(k.sumTotalTermFreq).to.equal(1);
      expect(postings(k, 'old', inv)).to.deep.equal([0]);
      expect(postings(k, 'new', inv)).to.deep.equal([]);
      inv.reveal('1', staged);
      expect(inv.docCount).to.equal(1);
      expect(inv.ordOf('1')).to.equal(staged);
      expect(k.docCount).to.equal(1);
      expect(k.sumTotalTermFreq).to.equal(2);
      expect(postings(k, 'old', inv)).to.deep.equal([]);
      expect(postings(k, 'new', inv)).to.deep.equal([staged]);
      const dropped = inv.stage('2', doc({ k: kw(['gone']) }));
      inv.discard(dropped);
      inv.reveal('2', dropped);
      expect(inv.docCount).to.equal(1);
      expect(inv.ordOf('2')).to.equal(undefined);
      expect(k.docCount).to.equal(1);
      expect(k.docValues.get(dropped)).to.equal(undefined);
    });
  });

  describe('live ordinals (what match_all reads)', () => {
    it('are one shared column until a document becomes live or dead', () => {
      const inv = new InvertedIndex();
      inv.put('a', doc({ k: kw(['x']) }));
      inv.put('b', doc({ k: kw(['y']) }));
      const first = inv.liveOrdinals();
      expect([...first]).to.deep.equal([0, 1]);
      expect(inv.liveOrdinals()).to.equal(first);
      // a staged write changes nothing visible: same column
      const staged = inv.stage('a', doc({ k: kw(['z']) }));
      expect(inv.liveOrdinals()).to.equal(first);
      inv.reveal('a', staged);
      const second = inv.liveOrdinals();
      expect(second).to.not.equal(first);
      expect([...second]).to.deep.equal([1, staged]);
      // a discarded staged write neither
      inv.discard(inv.stage('c', doc({ k: kw(['w']) })));
      expect(inv.liveOrdinals()).to.equal(second);
      inv.delete('b');
      expect([...inv.liveOrdinals()]).to.deep.equal([staged]);
      inv.put('d', doc({ k: kw(['v']) }));
      expect([...inv.liveOrdinals()]).to.deep.equal([staged, staged + 2]);
    });

    it('match_all answers follow deletes and new writes', async () => {
      const es = await startEngine();
      try {
        await es.call('POST', '/live/_bulk?refresh=true', ndjson([{ index: { _id: '1' } }, { n: 1 }, { index: { _id: '2' } }, { n: 2 }, { index: { _id: '3' } }, { n: 3 }]), { 'content-type': 'application/x-ndjson' });
        const ids = async () => ((await es.call('POST', '/live/_search', { query: { match_all: {} }, sort: ['_doc'] })).json.hits.hits as Array<{ _id: string; _score: number | null }>).map((h) => h._id);
        const total = async () => (await es.call('POST', '/live/_search', { size: 0, aggs: { n: { sum: { field: 'n' } } } })).json;
        expect(await ids()).to.deep.equal(['1', '2', '3']);
        expect((await total()).aggregations.n.value).to.equal(6);
        await es.call('DELETE', '/live/_doc/2?refresh=true');
        expect(await ids()).to.deep.equal(['1', '3']);
        expect((await total()).aggregations.n.value).to.equal(4);
        await es.call('PUT', '/live/_doc/4?refresh=true', { n: 10 });
        expect(await ids()).to.deep.equal(['1', '3', '4']);
        const boosted = await es.call('POST', '/live/_search', { query: { match_all: { boost: 2.5 } } });
        expect(boosted.json.hits.hits.map((h: { _score: number }) => h._score)).to.deep.equal([2.5, 2.5, 2.5]);
        const plain = await es.call('POST', '/live/_search', { query: { match_all: {} } });
        expect(plain.json.hits.hits.map((h: { _score: number }) => h._score)).to.deep.equal([1, 1, 1]);
        expect((await total()).hits.total.value).to.equal(3);
      } finally {
        await es.close(true);
      }
    });
  });

  describe('writes and the store', () => {
    it('a write is searchable only once durable; a failed store commit changes nothing in memory', async () => {
      const es = await startEngine();
      try {
        await es.call('PUT', '/w', { mappings: { properties: { t: { type: 'keyword' } } } });
        await es.call('PUT', '/w/_doc/1?refresh=true', { t: 'one' });
        const store = (es.engine as unknown as { store: { write(w: unknown[]): Promise<void> } }).store;
        const write = store.write.bind(store);
        // While the commit is in flight, searches do not see the write yet.
        let seenDuringCommit: number | undefined;
        store.write = async (w) => {
          const r = await es.engine.request({ method: 'POST', path: '/w/_count', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: { term: { t: 'two' } } }) });
          seenDuringCommit = (await readJson<{ count: number }>(r)).count;
          return write(w);
        };
        let r = await es.call('PUT', '/w/_doc/2', { t: 'two' });
        expect(r.status).to.equal(201);
        expect(seenDuringCommit).to.equal(0);
        expect((await es.call('POST', '/w/_count', { query: { term: { t: 'two' } } })).json.count).to.equal(1);

        // A failing commit: the request fails, and versions, documents, mappings and search are as before.
        store.write = async () => {
          throw new Error('disk full');
        };
        r = await es.call('POST', '/w/_bulk', ndjson([
          { index: { _id: '1' } }, { t: 'uno', extra: 'new field' },
          { delete: { _id: '2' } },
          { index: { _id: '3' } }, { t: 'three' },
        ]), { 'content-type': 'application/x-ndjson' });
        expect(r.status).to.be.greaterThanOrEqual(500);
        store.write = write;
        expect((await es.call('GET', '/w/_doc/1')).json).to.include({ _version: 1, found: true });
        expect((await es.call('GET', '/w/_doc/1')).json._source).to.deep.equal({ t: 'one' });
        expect((await es.call('GET', '/w/_doc/3')).status).to.equal(404);
        expect((await es.call('POST', '/w/_count', {})).json.count).to.equal(2);
        expect((await es.call('POST', '/w/_count', { query: { term: { t: 'uno' } } })).json.count).to.equal(0);
        expect((await es.call('GET', '/w/_mapping')).json.w.mappings.properties).to.not.have.property('extra');
        r = await es.call('PUT', '/w/_doc/3', { t: 'three' });
        expect(r.json).to.include({ result: 'created', _version: 1 });
        r = await es.call('PUT', '/w/_doc/1', { t: 'uno' });
        expect(r.json).to.include({ result: 'updated', _version: 2 });
        expect((await es.call('POST', '/w/_count', { query: { term: { t: 'uno' } } })).json.count).to.equal(1);
      } finally {
        await es.close(true);
      }
    });
  });

  describe('restart', function () {
    this.timeout(30_000);
    const queries: unknown[] = [
      { query: { match: { title: 'quick fox' } } },
      { query: { match_phrase: { title: 'brown fox' } } },
      { query: { term: { 'tag.raw': 'red' } } },
      { query: { range: { n: { gte: 3, lt: 40 } } }, sort: [{ n: 'asc' }] },
      { query: { exists: { field: 'flag' } }, sort: ['_doc'] },
      { query: { nested: { path: 'parts', query: { term: { 'parts.p': 'x' } } } } },
      { size: 0, aggs: { tags: { terms: { field: 'tag.keyword' } }, n: { stats: { field: 'n' } }, flags: { terms: { field: 'flag' } } } },
      { query: { prefix: { 'title.keyword': 'the' } }, sort: [{ 'title.keyword': 'desc' }] },
    ];

    it('loads the snapshot taken at close, and rebuilds from the store when the snapshot does not match it', async () => {
      let es = await startEngine();
      const dataDir = es.dataDir;
      try {
        await es.call('PUT', '/snap', { mappings: { properties: { parts: { type: 'nested' }, n: { type: 'long' } } } });
        const lines: unknown[] = [];
        const words = ['quick', 'brown', 'fox', 'lazy', 'dog', 'the', 'red', 'green'];
        for (let i = 0; i < 60; i++) {
          lines.push({ index: { _id: String(i) } });
          lines.push({
            title: `the ${words[i % 8]} ${words[(i * 3) % 8]} fox ${i}`,
            tag: i % 7 === 0 ? ['red', 'green'] : words[(i * 5) % 8],
            n: i * 1.5,
            flag: i % 4 === 0 ? true : i % 4 === 1 ? false : undefined,
            parts: [{ p: i % 2 ? 'x' : 'y' }, { p: 'z' }],
            ...(i === 7 ? { long: 'x'.repeat(300) } : {}),
          });
        }
        let r = await es.call('POST', '/snap/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
        expect(r.json.errors).to.equal(false);
        await es.call('DELETE', '/snap/_doc/5');
        await es.call('PUT', '/snap/_doc/6', { title: 'the replaced quick fox', tag: 'red', n: 6 });
        const search = async () => Promise.all(queries.map(async (q) => {
          const res = await es.call('POST', '/snap/_search', q);
          expect(res.status).to.equal(200);
          return { hits: res.json.hits, aggregations: res.json.aggregations };
        }));
        const before = await search();
        // documents written through _bulk (staged, then revealed) with their nested objects
        expect(before[5].hits.total.value).to.equal(29);
        expect(before[6].aggregations.n.count).to.equal(59);
        await es.close(false);
        const file = path.join(dataDir, 'snapshots');
        expect(existsSync(file)).to.equal(true);

        es = await startEngine({ dataDir });
        expect(await search()).to.deep.equal(before);
        // writes after a snapshot load are indexed as usual
        await es.call('PUT', '/snap/_doc/new', { title: 'the quick new fox', tag: 'red', n: 2 });
        const withNew = await search();
        expect(withNew[0].hits.total.value).to.equal(before[0].hits.total.value + 1);

        // An older snapshot than the store: ignored, the index is rebuilt with every document.
        const uuid = (await es.call('GET', '/snap/_settings')).json.snap.settings.index.uuid as string;
        const snapFile = path.join(dataDir, 'snapshots', `${uuid}.idx`);
        await es.close(false);
        copyFileSync(snapFile, `${snapFile}.old`);
        es = await startEngine({ dataDir });
        await es.call('PUT', '/snap/_doc/newer', { title: 'the quick newest fox', tag: 'red', n: 2 });
        await es.close(false);
        copyFileSync(`${snapFile}.old`, snapFile);
        es = await startEngine({ dataDir });
        r = await es.call('POST', '/snap/_search', { query: { match: { title: 'newest' } } });
        expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['newer']);
        r = await es.call('POST', '/snap/_search', { size: 0, aggs: { tags: { terms: { field: 'tag.keyword' } } } });
        const red = r.json.aggregations.tags.buckets.find((b: { key: string }) => b.key === 'red');
        const redBefore = before[6].aggregations.tags.buckets.find((b: { key: string }) => b.key === 'red');
        expect(red.doc_count).to.equal(redBefore.doc_count + 2);
      } finally {
        await es.close(true);
      }
    });
  });
});
