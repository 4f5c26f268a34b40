import { expect } from 'chai';
import fc from 'fast-check';
import { BACKENDS } from '../support/backends.js';
import { call, ndjson, NDJSON } from '../support/http.js';
import { openStream, type OpenStream } from '../support/stream-client.js';
import { hitsSnapshot, StreamView } from '../support/stream-views.js';
import type { TestGateway } from '../support/servers.js';
import { parityCase, type ParityCase, type Write } from './support/parity-cases.js';

/**
 * The live-search parity property: whatever the mapping, the documents, the query and the writes,
 * a search stream's pushes applied to its initial answer equal a fresh run of the search. The
 * local matcher decides what it can; what it cannot (matcherDecides) the engine decides, and the
 * property holds either way. `make test` runs PARITY_RUNS cases (default 20) from a fixed seed;
 * `npm run parity:long` runs 10,000 (PARITY_SEED picks another seed; PARITY_PATH replays a reported case).
 */
const RUNS = Number(process.env.PARITY_RUNS ?? 20);
const SEED = Number(process.env.PARITY_SEED ?? 3407);
/** Written last: every search matches it (its query is `bool.should: [query, ids: END]`), so once its push is in, every write before it was decided. */
const END = 'zz-end';
const SIZE = 100;

const enc = encodeURIComponent;

/**
 * Cases the property found once, run before the generated ones (fast-check counts them among the
 * PARITY_RUNS, at least 20 in `make test`) on both backends (parity:long):
 * - a `gauss` decay over a keyword field (case 1033) scored every document NaN, which the search kept
 *   and the matcher dropped; Elasticsearch refuses the query, and so must the search and the stream;
 * - a script that fails on a keyword `n` in a bool whose other required clause excludes the document
 *   (case 1268): the search checks the script only on the other clause's documents, the matcher ran it
 *   first and ended the stream with the script's error;
 * - a script that fails on a document a later write deletes: a search between the two writes fails
 *   (Elasticsearch runs script queries at search time, and a script that throws fails the shard:
 *   with one shard, the search answers the error), so the stream pushes that error and ends, and
 *   the fresh search after the delete, which answers again, has no stream left to compare with.
 *   The property's checker took the ended stream for a lost write; it now replays the writes and
 *   accepts an error that a search answered after one of them (`errorAnsweredBetweenWrites`).
 */
const FOUND: ParityCase[] = [{
  mappings: { properties: { when: { type: 'keyword' } } },
  initial: [['1', { when: '2020-01-09' }], ['2', { title: 'red' }]],
  queries: [{ function_score: { query: { match_all: {} }, functions: [{ weight: 1 }, { gauss: { when: { origin: '2020-01-10', scale: '10d' } } }], min_score: 0.5 } }],
  writes: [{ op: 'index', id: '3', source: { when: '2020-01-11' } }, { op: 'update', id: '2', doc: { when: '2020-01-10' }, upsert: false }],
}, {
  mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'keyword' } } },
  initial: [],
  queries: [{
    dis_max: {
      queries: [
        { bool: { must: [{ script: { script: { source: "doc['n'].size() > 0 && doc['n'].value > params.v", params: { v: 0 } } } }], filter: [{ wildcard: { tag: '*e*' } }] } },
        { match_bool_prefix: { title: 're' } },
      ],
    },
  }],
  writes: [{ op: 'update', id: '0', doc: { title: 'red', n: [10] }, upsert: true }],
}, {
  mappings: { properties: { n: { type: 'keyword' } } },
  initial: [],
  queries: [{ script: { script: { source: "doc['n'].size() > 0 && doc['n'].value > params.v", params: { v: 0 } } } }],
  writes: [{ op: 'index', id: '1', source: { n: [10] } }, { op: 'delete', id: '1' }],
}];

async function applyWrite(gw: TestGateway, index: string, w: Write): Promise<void> {
  if (w.op === 'index') await call(gw.url, 'PUT', `/${index}/_doc/${enc(w.id)}`, { body: w.source });
  else if (w.op === 'update') await call(gw.url, 'POST', `/${index}/_update/${enc(w.id)}`, { body: { doc: w.doc, doc_as_upsert: w.upsert } });
  else await call(gw.url, 'DELETE', `/${index}/_doc/${enc(w.id)}`);
}

const withoutEnd = (snapshot: Record<string, unknown>) => Object.fromEntries(Object.entries(snapshot).filter(([id]) => id !== END));

/**
 * Whether a search answered `error` (its status and type) after one of the case's writes: the
 * case replayed on another index, the search run after the initial documents and after each write.
 */
async function errorAnsweredBetweenWrites(gw: TestGateway, index: string, c: ParityCase, body: unknown, error: { status?: number; error: { type?: string } }): Promise<boolean> {
  const created = await call(gw.url, 'PUT', `/${index}`, { body: { settings: { number_of_shards: 1 }, mappings: c.mappings } });
  if (created.status !== 200) return false;
  try {
    if (c.initial.length > 0) {
      const lines = c.initial.flatMap(([id, source]) => [{ index: { _index: index, _id: id } }, source]);
      await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON });
    }
    for (const w of c.writes) {
      await applyWrite(gw, index, w);
      await call(gw.url, 'POST', `/${index}/_refresh`);
      const answer = await call(gw.url, 'POST', `/${index}/_search`, { body });
      if (answer.status === error.status && answer.json?.error?.type === error.error.type) return true;
    }
    return false;
  } finally {
    await call(gw.url, 'DELETE', `/${index}`);
  }
}

/** Runs one case; answers what went wrong, or undefined when the property holds. */
async function checkCase(gw: TestGateway, index: string, c: ParityCase): Promise<string | undefined> {
  const created = await call(gw.url, 'PUT', `/${index}`, { body: { settings: { number_of_shards: 1 }, mappings: c.mappings } });
  if (created.status !== 200) return `index not created: ${created.text}`;
  try {
    if (c.initial.length > 0) {
      const lines = c.initial.flatMap(([id, source]) => [{ index: { _index: index, _id: id } }, source]);
      await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON });
    }
    const streams: Array<{ query: unknown; body: Record<string, unknown>; stream: OpenStream; view: StreamView }> = [];
    for (const q of c.queries) {
      const body = { size: SIZE, query: { bool: { should: [q, { ids: { values: [END] } }] } } };
      const plain = await call(gw.url, 'POST', `/${index}/_search`, { body });
      const stream = await openStream(gw.url, `/${index}/_search?stream=true`, { method: 'POST', body });
      if (plain.status !== 200) {
        // a query the engine refuses is refused as a stream too, with the same status
        stream.close();
        if (stream.status !== plain.status) return `query ${JSON.stringify(q)}: search answered ${plain.status}, the stream ${stream.status}`;
        continue;
      }
      if (stream.status !== 200) return `query ${JSON.stringify(q)}: search answered 200, the stream ${stream.status}`;
      await stream.live;
      streams.push({ query: q, body, stream, view: new StreamView('search') });
    }
    try {
      for (const w of c.writes) await applyWrite(gw, index, w);
      await call(gw.url, 'PUT', `/${index}/_doc/${END}?refresh=true`, { body: {} });
      for (const s of streams) {
        const fresh = await call(gw.url, 'POST', `/${index}/_search`, { body: s.body });
        // a query that fails on the documents written (a script on a field they lack) has no answer to compare with
        if (fresh.status !== 200) continue;
        const ended = await s.stream.until((m) => m.some((x) => x._id === END || x.error !== undefined), Number(process.env.PARITY_WAIT_MS ?? 20_000))
          .then(() => true, () => false);
        if (!ended) return `query ${JSON.stringify(s.query)}: the last write never reached the stream; it got ${JSON.stringify(s.stream.messages).slice(0, 1500)}`;
        const error = s.stream.messages.find((x) => x.error !== undefined);
        if (error) {
          // the stream ended with an error: what a search answered at some point of the writes, or a failure of the stream's own
          if (await errorAnsweredBetweenWrites(gw, `${index}-replay`, c, s.body, error)) continue;
          return `query ${JSON.stringify(s.query)}: the stream ended with an error no search answered between the writes: ${JSON.stringify(error).slice(0, 1500)}`;
        }
        for (const m of s.stream.messages) s.view.apply(m);
        const pushed = withoutEnd(s.view.snapshot());
        const expected = withoutEnd(hitsSnapshot(fresh.json));
        if (JSON.stringify(pushed) !== JSON.stringify(expected)) {
          return `query ${JSON.stringify(s.query)}:\n  pushes applied to the initial answer: ${JSON.stringify(pushed)}\n  a fresh search: ${JSON.stringify(expected)}`;
        }
      }
    } finally {
      for (const s of streams) s.stream.close();
    }
    return undefined;
  } finally {
    await call(gw.url, 'DELETE', `/${index}`);
  }
}

for (const backend of BACKENDS) {
  describe(`live-search parity property (${backend.name})`, function () {
    this.timeout(Math.max(120_000, RUNS * 3_000));
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(() => stop?.());

    it(`a search stream's pushes applied to its initial answer equal a fresh search (${RUNS} generated cases, seed ${SEED})`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(parityCase, async (c) => {
          const failure = await checkCase(gw, `parity-${n++}`, c);
          if (process.env.PARITY_PROGRESS && n % 100 === 0) console.log(`  ${backend.name}: ${n} cases`);
          expect(failure, failure).to.equal(undefined);
        }),
        { numRuns: RUNS, seed: SEED, path: process.env.PARITY_PATH, examples: FOUND.map((c) => [c] as [ParityCase]), endOnFailure: process.env.PARITY_SHRINK !== '1', verbose: 1 },
      );
    });
  });
}
