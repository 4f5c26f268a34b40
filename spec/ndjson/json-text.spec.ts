import { expect } from 'chai';
import { EsError } from '../../lib/errors/index.js';
import { canonicalJson, hasLongDigitRun, holdsRoundedInteger, nestsTooDeep, parseJsonText } from '../../lib/ndjson/index.js';

/** A small seeded generator, so a failure names a case that can be run again. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('ndjson: JSON text checks', () => {
  describe('hasLongDigitRun', () => {
    it('says what /\\d{16}/ says, for digit runs of every length at every offset', () => {
      for (let len = 0; len <= 40; len++) {
        for (let offset = 0; offset < 40; offset++) {
          const text = 'x'.repeat(offset) + '7'.repeat(len) + 'y'.repeat(offset % 5);
          expect(hasLongDigitRun(text), `${offset}+${len}`).to.equal(/\d{16}/.test(text));
        }
      }
    });

    it('agrees with the regular expression over random texts of digits and other characters', () => {
      const random = prng(16);
      for (let n = 0; n < 3000; n++) {
        const len = Math.floor(random() * 200);
        let text = '';
        const digitBias = random();
        for (let i = 0; i < len; i++) text += random() < digitBias ? String(Math.floor(random() * 10)) : ' ,."a:[]{}'[Math.floor(random() * 10)];
        expect(hasLongDigitRun(text), JSON.stringify(text)).to.equal(/\d{16}/.test(text));
      }
    });
  });

  describe('nesting depth', () => {
    const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

    it('accepts 1,000 levels and refuses 1,001, with the position Elasticsearch names', () => {
      expect(nestsTooDeep(JSON.parse(nested(1000)))).to.equal(false);
      expect(nestsTooDeep(JSON.parse(nested(1001)))).to.equal(true);
      expect(() => parseJsonText(nested(1000))).not.to.throw();
      try {
        parseJsonText(nested(1001));
        expect.fail('a 1,001-deep text was accepted');
      } catch (err) {
        expect(err).to.be.instanceOf(EsError);
        expect((err as EsError).type).to.equal('x_content_parse_exception');
        expect((err as EsError).message).to.match(/^\[1:1001\] Document nesting depth \(1001\) exceeds the maximum allowed \(1000/);
      }
    });

    it('counts objects and arrays alike, at any branch, without recursion (200,000 levels)', () => {
      const mixed = JSON.parse(`{"a":[1,{"b":${nested(999)}}]}`);
      expect(nestsTooDeep(mixed)).to.equal(true); // 1 + 1 + 1 + 999
      expect(nestsTooDeep(JSON.parse(`{"a":[1,{"b":${nested(997)}}]}`))).to.equal(false);
      expect(nestsTooDeep(JSON.parse(nested(200_000)))).to.equal(true);
    });

    it('costs nothing for a long string: a 20 MB value is parsed and checked', () => {
      const text = JSON.stringify({ query: { match: { f: 'q '.repeat(10 * 1024 * 1024) } } });
      expect((parseJsonText(text) as { query: { match: { f: string } } }).query.match.f.length).to.equal(20 * 1024 * 1024);
    });

    it('a text both too deep and malformed gets the depth error, as Elasticsearch meets it first', () => {
      expect(() => parseJsonText(nested(1001).slice(0, -1))).to.throw(/nesting depth \(1001\)/);
      expect(() => parseJsonText('{"a": }')).to.throw(EsError, /Unexpected token/);
    });
  });

  describe('the text forwarded for a JSON body', () => {
    it('is re-serialized unless an integer was rounded, which goes on as written', () => {
      const safe = '{"a" : 9007199254740991, "b": [1.5, {"c": 1234567890123456}]}';
      expect(holdsRoundedInteger(JSON.parse(safe))).to.equal(false);
      expect(canonicalJson(safe, JSON.parse(safe))).to.equal('{"a":9007199254740991,"b":[1.5,{"c":1234567890123456}]}');
      for (const rounded of ['{"a": 9007199254740993}', '{"a": [[{"b": -12345678901234567890}]]}', '[1e300]']) {
        expect(holdsRoundedInteger(JSON.parse(rounded)), rounded).to.equal(true);
        expect(canonicalJson(rounded, JSON.parse(rounded))).to.equal(rounded);
      }
    });

    it('with a rounded integer, a duplicate key is refused rather than read two ways', () => {
      const text = '{"index": "mine", "index": "other", "n": 12345678901234567890}';
      expect(() => canonicalJson(text, JSON.parse(text))).to.throw(EsError, /[Dd]uplicate key/);
    });
  });
});
