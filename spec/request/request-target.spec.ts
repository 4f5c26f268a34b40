import { expect } from 'chai';
import fc from 'fast-check';
import { canonicalPath, requestTarget } from '../../lib/request/index.js';

/**
 * The edge's one reading of a request target: whatever spelling a client uses for a path or a
 * query parameter, the gateway and the engine read the same thing — the canonical form, which
 * reads back as itself.
 */

const SEED = 32;
/** Segments as tenants write them: index names, `_`-APIs, ids with odd characters, lists, wildcards. */
const segmentArb = fc.oneof(
  fc.constantFrom('_credentials', '_search', '_doc', 'mine', 'other', '.gateway-credentials', '_all', 'a,b', 'tenant-*', '_mget', '1'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).filter((s) => s !== '.' && s !== '..'),
);

/** Every way a client may spell one segment: plain, percent-encoded (one character or all), double-encoded is another segment. */
function spellings(segment: string): fc.Arbitrary<string> {
  const all = [...segment].map((ch) => Buffer.from(ch).toString('hex').replace(/(..)/g, '%$1').toUpperCase()).join('');
  const plainSafe = /^[A-Za-z0-9\-_.~!$'()*,;:@=&]+$/.test(segment) ? [segment] : [];
  return fc.constantFrom(...plainSafe, encodeURIComponent(segment), all, all.toLowerCase());
}

/** A path spelled with extra slashes between (and around) its segments. */
const spelledPath = fc.array(segmentArb, { minLength: 1, maxLength: 4 }).chain((segments) =>
  fc.tuple(
    fc.constant(segments),
    fc.tuple(...segments.map((s) => fc.tuple(spellings(s), fc.constantFrom('/', '//', '///')))),
    fc.constantFrom('', '/'),
  ),
);

describe('request target: one reading', () => {
  it('every spelling of a path reads as its segments, and its canonical form reads back as itself', () => {
    fc.assert(
      fc.property(spelledPath, ([segments, parts, trailing]) => {
        const raw = parts.map(([spelled, slash]) => slash + spelled).join('') + trailing;
        const read = canonicalPath(raw);
        expect(read.segments).to.deep.equal(segments);
        const again = canonicalPath(read.path);
        expect(again.path).to.equal(read.path);
        expect(again.segments).to.deep.equal(segments);
      }),
      { seed: SEED, numRuns: 500, endOnFailure: true },
    );
  });

  it('`//_credentials` and `/%5Fcredentials` are `/_credentials`', () => {
    expect(canonicalPath('//_credentials/bob').path).to.equal('/_credentials/bob');
    expect(canonicalPath('/%5Fcredentials/bob').path).to.equal('/_credentials/bob');
    expect(canonicalPath('/%5fcredentials//').path).to.equal('/_credentials');

  });

  it('a path or parameter that does not decode is a 400, as are `.` and `..` segments', () => {
    for (const bad of ['/%E0%A4%A', '/%', '/a%2', '/%ED%A0%80', '/.', '/a/..', '/%2e%2E/x']) {
      expect(() => canonicalPath(bad), bad).to.throw().with.property('status', 400);
    }
    expect(() => requestTarget('/x', 'q=%E0%A4%A')).to.throw().with.property('status', 400);
    expect(() => requestTarget('/x', '%=1')).to.throw().with.property('status', 400);
  });

  it('a parameter reads the same whatever its spelling; `source` becomes the body', () => {
    const nameArb = fc.constantFrom('source', 'pipeline', 'index', 'q', 'pretty');
    const spelledName = (name: string) => fc.constantFrom(name, [...name].map((c, i) => (i === 0 ? `%${c.charCodeAt(0).toString(16)}` : c)).join(''), encodeURIComponent(name));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(nameArb, fc.string({ maxLength: 12 })), { minLength: 1, maxLength: 5 }).chain((pairs) =>
          fc.tuple(fc.constant(pairs), fc.tuple(...pairs.map(([n]) => spelledName(n)))),
        ),
        fc.boolean(),
        ([pairs, names], hasBody) => {
          const raw = pairs.map(([, v], i) => `${names[i]}=${encodeURIComponent(v)}`).join('&');
          const target = requestTarget('/mine/_search', raw, hasBody);
          const last = new Map<string, string>();
          for (const [n, v] of pairs) last.set(n, v);
          const read = new URLSearchParams(target.querystring);
          expect(read.has('source'), 'source never stays in the query string').to.equal(false);
          for (const [n, v] of last) if (n !== 'source') expect(read.getAll(n)).to.deep.equal([v]);
          if (last.has('source') && !hasBody) expect(target.source?.text).to.equal(last.get('source'));
          else expect(target.source).to.equal(undefined);
          // the canonical query string reads back as itself
          expect(requestTarget('/mine/_search', target.querystring).querystring).to.equal(target.querystring);
        },
      ),
      { seed: SEED, numRuns: 500, endOnFailure: true },
    );
  });

  it('leaves a plain request as it came (the thin path pays two regular expressions)', () => {
    const t = requestTarget('/shop/_doc/1', 'refresh=true&pretty');
    expect(t.path).to.equal('/shop/_doc/1');
    expect(t.querystring).to.equal('refresh=true&pretty');
  });
});
