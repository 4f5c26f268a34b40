import { expect } from 'chai';
import { call, ndjson } from '../../support/http.js';
import { BACKENDS } from '../../support/backends.js';

/**
 * Index sorting (`index.sort.*`), as the Elasticsearch reference's "Index sorting" and "Early
 * termination of search request" pages describe it, through the gateway on both backends.
 */

const RANKS: Array<[string, number | null]> = [['1', 4], ['2', 1], ['3', 3], ['4', 2], ['5', 8], ['6', 6], ['7', 5], ['8', 7], ['9', null]];
const bulkOf = (index: string, docs: Array<[string, number | null]>) =>
  ndjson(docs.flatMap(([id, rank]) => [{ index: { _index: index, _id: id } }, rank === null ? { other: 1 } : { rank, tag: `t${rank % 2}` }]));
const MAPPINGS = { properties: { rank: { type: 'integer' }, tag: { type: 'keyword' }, title: { type: 'text' } } };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const idsOf = (json: any): string[] => json.hits.hits.map((h: { _id: string }) => h._id);

for (const backend of BACKENDS) {
  describe(`index sorting (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    const req = (method: string, path: string, body?: unknown) => call(url, method, path, body === undefined ? {} : { body });
    const search = (index: string, body: Record<string, unknown>, params = '') => req('POST', `/${index}/_search${params}`, body);
    const create = (index: string, settings: Record<string, unknown>, mappings: Record<string, unknown> = MAPPINGS) =>
      req('PUT', `/${index}`, { settings, mappings });
    const load = async (index: string, docs = RANKS) => {
      const r = await call(url, 'POST', '/_bulk?refresh=true', { body: bulkOf(index, docs), headers: { 'content-type': 'application/x-ndjson' } });
      expect(r.json.errors, r.text).to.equal(false);
    };

    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await create('ranked', { 'index.sort.field': 'rank' })).status).to.equal(200);
      expect((await create('ranked_desc', { index: { sort: { field: ['tag', 'rank'], order: ['asc', 'desc'], missing: ['_first', '_first'] } } })).status).to.equal(200);
      expect((await create('unsorted', {})).status).to.equal(200);
      for (const index of ['ranked', 'ranked_desc', 'unsorted']) await load(index);
    });
    after(() => stop());

    it('refuses at creation what Elasticsearch refuses', async () => {
      const reasons: Array<[Record<string, unknown>, string, Record<string, unknown>?]> = [
        [{ 'index.sort.field': 'nope' }, 'unknown index sort field:[nope]'],
        [{ 'index.sort.field': 'title' }, 'docvalues not found for index sort field:[title]'],
        [{ 'index.sort.field': ['rank', 'tag'], 'index.sort.order': ['asc'] }, 'index.sort.field:[rank, tag] index.sort.order:[asc], size mismatch'],
        [{ 'index.sort.field': 'rank', 'index.sort.missing': ['_last', '_first'] }, 'index.sort.field:[rank] index.sort.missing:[_last, _first], size mismatch'],
        [{ 'index.sort.field': 'rank', 'index.sort.order': 'up' }, 'Illegal sort order:up'],
        [{ 'index.sort.field': 'rank', 'index.sort.missing': 'middle' }, 'Illegal missing value:[middle], must be one of [_last, _first]'],
        [{ 'index.sort.field': 'rank', 'index.sort.mode': 'avg' }, 'Illegal index sort mode:[AVG], must be one of [MAX, MIN]'],
        [{ 'index.sort.order': 'desc' }, 'setting [index.sort.order] requires [index.sort.field] to be configured'],
        [{ 'index.sort.fields': 'rank' }, 'unknown setting [index.sort.fields] did you mean any of [index.sort.field, index.sort.mode]?'],
        [{ 'index.sort.field': 'n.v' }, 'cannot apply index sort to field [n.v] under nested object [n]', { properties: { n: { type: 'nested', properties: { v: { type: 'long' } } } } }],
      ];
      for (const [settings, reason, mappings] of reasons) {
        const r = await create('refused', settings, mappings);
        expect(r.status, r.text).to.equal(400);
        expect(r.json.error.type).to.equal('illegal_argument_exception');
        expect(r.json.error.reason).to.equal(reason);
      }
      expect((await req('HEAD', '/refused')).status).to.equal(404);
      // nested objects elsewhere in the mappings are allowed (8.x)
      const ok = await create('nested_elsewhere', { 'index.sort.field': 'rank' }, { properties: { rank: { type: 'long' }, n: { type: 'nested' } } });
      expect(ok.status, ok.text).to.equal(200);
    });

    it('refuses to change the sort later: open index (not dynamic), closed index (final)', async () => {
      const open = await req('PUT', '/ranked/_settings', { 'index.sort.order': 'desc' });
      expect(open.status).to.equal(400);
      expect(open.json.error.reason).to.match(/^Can't update non dynamic settings \[\[index.sort.order\]\] for open indices/);
      expect((await create('closed_sorted', { 'index.sort.field': 'rank' })).status).to.equal(200);
      expect((await req('POST', '/closed_sorted/_close')).status).to.equal(200);
      const closed = await req('PUT', '/closed_sorted/_settings', { 'index.sort.field': 'tag' });
      expect(closed.status).to.equal(400);
      expect(closed.json.error.reason).to.equal('final index setting [index.sort.field], not updateable');
    });

    it('orders `_doc` (and equal hits) by the index sort; an index without one keeps write order', async () => {
      const byDoc = await search('ranked', { sort: '_doc', size: 20 });
      expect(idsOf(byDoc.json)).to.deep.equal(['2', '4', '3', '1', '7', '6', '8', '5', '9']);
      // match_all: every score equal, ties broken by doc id
      expect(idsOf((await search('ranked', { size: 20 })).json)).to.deep.equal(['2', '4', '3', '1', '7', '6', '8', '5', '9']);
      // tag asc then rank desc, missing first: doc 9 (no tag, no rank), then t0 (even ranks) by rank desc, then t1
      expect(idsOf((await search('ranked_desc', { sort: ['_doc'], size: 20 })).json)).to.deep.equal(['9', '5', '6', '1', '4', '8', '7', '3', '2']);
      expect(idsOf((await search('unsorted', { sort: '_doc', size: 20 })).json)).to.deep.equal(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
      // the index's own field, not a runtime field of the search that shadows it
      const shadowed = await search('ranked', { sort: '_doc', size: 20, runtime_mappings: { rank: { type: 'long', script: { source: 'emit(0 - doc[\'tag\'].size())' } } } });
      expect(shadowed.status, shadowed.text).to.equal(200);
      expect(idsOf(shadowed.json)).to.deep.equal(['2', '4', '3', '1', '7', '6', '8', '5', '9']);
    });

    it('terminates early with track_total_hits false and a sort that is a prefix of the index sort', async () => {
      const early = await search('ranked', { sort: ['rank'], track_total_hits: false, size: 3 });
      expect(early.json.terminated_early).to.equal(true);
      expect(early.json.hits.total).to.equal(undefined);
      expect(idsOf(early.json)).to.deep.equal(['2', '4', '3']);
      const prefix = await search('ranked_desc', { sort: [{ tag: { order: 'asc', missing: '_first' } }], track_total_hits: false, size: 2 });
      expect(prefix.json.terminated_early).to.equal(true);
      // not: totals tracked, another order, a sort the index sort does not start with, every match on the page
      expect((await search('ranked', { sort: ['rank'], size: 3 })).json).not.to.have.property('terminated_early');
      expect((await search('ranked', { sort: [{ rank: 'desc' }], track_total_hits: false, size: 3 })).json).not.to.have.property('terminated_early');
      expect((await search('ranked_desc', { sort: ['rank'], track_total_hits: false, size: 3 })).json).not.to.have.property('terminated_early');
      expect((await search('ranked', { sort: ['rank'], track_total_hits: false, size: 20 })).json).not.to.have.property('terminated_early');
      expect((await search('unsorted', { sort: ['rank'], track_total_hits: false, size: 3 })).json).not.to.have.property('terminated_early');
    });

    it('refuses track_total_hits false in a scroll; a scroll over `_doc` pages in the index order', async () => {
      const refused = await search('ranked', { sort: ['rank'], track_total_hits: false, size: 3 }, '?scroll=1m');
      expect(refused.status).to.equal(400);
      expect(refused.json.error.reason).to.equal('Validation Failed: 1: disabling [track_total_hits] is not allowed in a scroll context;');
      const seen: string[] = [];
      let page = await search('ranked', { sort: ['_doc'], size: 4 }, '?scroll=1m');
      while (page.json.hits.hits.length) {
        seen.push(...idsOf(page.json));
        // a write between pages changes none of what the scroll answers
        await req('PUT', '/ranked/_doc/0?refresh=true', { rank: 0 });
        page = await req('POST', '/_search/scroll', { scroll: '1m', scroll_id: page.json._scroll_id });
      }
      expect(seen).to.deep.equal(['2', '4', '3', '1', '7', '6', '8', '5', '9']);
      await req('DELETE', '/ranked/_doc/0?refresh=true');
    });

    it('pages a point in time by search_after over `_doc` in the index order, unchanged by writes meanwhile', async () => {
      const pit = await req('POST', '/ranked/_pit?keep_alive=1m');
      expect(pit.status, pit.text).to.equal(200);
      const seen: string[] = [];
      let after: unknown[] | undefined;
      for (;;) {
        const body: Record<string, unknown> = { pit: { id: pit.json.id }, sort: ['_doc'], size: 2 };
        if (after) body.search_after = after;
        const r = await req('POST', '/_search', body);
        expect(r.status, r.text).to.equal(200);
        if (!r.json.hits.hits.length) break;
        seen.push(...idsOf(r.json));
        after = r.json.hits.hits.at(-1).sort;
        // a document that would sort first arrives while the point in time is paged
        await req('PUT', `/ranked/_doc/new${seen.length}?refresh=true`, { rank: -seen.length });
      }
      expect(seen).to.deep.equal(['2', '4', '3', '1', '7', '6', '8', '5', '9']);
      await req('DELETE', '/_pit', { id: pit.json.id });
    });
  });
}
