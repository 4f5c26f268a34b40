import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/**
 * Painless `long` is Java's 64-bit integer: arithmetic past 2^53 is exact (a JS double would round
 * 2^53 + 1 to 2^53), and overflow wraps as Java's two's complement does. Results are read through
 * `_execute`, which answers Java's toString of the value.
 */
describe('painless: long arithmetic past 2^53', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  const run = async (source: string) => {
    const r = await es.call('POST', '/_scripts/painless/_execute', { script: { source } });
    expect(r.status, `${source}: ${r.text}`).to.equal(200);
    return r.json.result as string;
  };

  const cases: Array<[string, string]> = [
    ['long a = 9007199254740993L; return a + 2;', '9007199254740995'],
    ['long a = 9007199254740993L; return a - 4;', '9007199254740989'],
    ['return 123456789123456789L * 10;', '1234567891234567890'],
    ['long a = 9007199254740993L; return a / 3;', '3002399751580331'],
    ['long a = 9007199254740993L; return a % 1000;', '993'],
    ['long a = -9007199254740993L; return a >> 1;', '-4503599627370497'],
    ['long a = -1L; return a >>> 1;', '9223372036854775807'],
    ['return 1L << 63;', '-9223372036854775808'],
    ['return Long.MAX_VALUE;', '9223372036854775807'],
    ['return Long.MIN_VALUE;', '-9223372036854775808'],
    ['long a = Long.MAX_VALUE; return a + 1;', '-9223372036854775808'],
    ['return Long.MIN_VALUE - 1;', '9223372036854775807'],
    ['long a = 1L << 62; return a * 3;', '-4611686018427387904'],
    ['return Long.MIN_VALUE / -1;', '-9223372036854775808'],
    ['return -Long.MIN_VALUE;', '-9223372036854775808'],
    ['long x = 9007199254740993L; return x == 9007199254740992L;', 'false'],
    ['long x = 9007199254740993L; return x > 9007199254740992L;', 'true'],
    ['long x = 9007199254740993L; x++; x += 10; return x;', '9007199254741004'],
    ['long x = 0; for (int i = 0; i < 70; i++) { x = x * 2 + 1; } return x;', '-1'],
    ['def a = 9007199254740993L; return a + 2;', '9007199254740995'],
    ['def m = ["a": 9007199254740993L]; return m.a * 2;', '18014398509481986'],
    ['return Long.parseLong("9007199254740993") + 0;', '9007199254740993'],
    ['long x = 9007199254740993L; return String.valueOf(x) + "!";', '9007199254740993!'],
    ['return (int) 9007199254740993L;', '1'],
    ['long x = 9007199254740993L; double d = x; return d;', '9.007199254740992E15'],
    ['return (long) 1e19;', '9223372036854775807'],
    ['return 0xffffffffffffffffL;', '-1'],
    // a long past 2^53 as a boxed Long: its methods
    ['def x = 9007199254740993L; return x.longValue() + 1;', '9007199254740994'],
    ['def x = 9007199254740993L; return x.intValue();', '1'],
    ['def x = 9007199254740993L; return x.toString() + "/" + x.hashCode();', '9007199254740993/2097153'],
    ['def x = 9007199254740993L; return x instanceof Long && x.compareTo(9007199254740992L) == 1 && x.equals(9007199254740993L);', 'true'],
    ['def l = [9007199254740993L, 1L]; Collections.sort(l); return l;', '[1, 9007199254740993]'],
  ];
  for (const [source, expected] of cases) {
    it(`${source} → ${expected}`, async () => {
      expect(await run(source)).to.equal(expected);
    });
  }

  it('a def holding a long stays a long, however small: def s = 0L grows past 2^31 as Java\'s Long does', async () => {
    expect(await run('def s = 0L; for (def i = 0; i < 100000; i++) { s = s + i * 3; } return s;')).to.equal('14999850000');
    expect(await run('long a = 5; def b = a; return b * 1000000000;')).to.equal('5000000000');
    expect(await run('def x = 5L; return x instanceof Long && !(x instanceof Integer);')).to.equal('true');
    expect(await run('def x = 5L; def y = 5; return x == y;')).to.equal('true');
    const r = await es.call('POST', '/_scripts/painless/_execute', { script: { source: 'def x = 5L; int i = x; return i;' } });
    expect(r.status, r.text).to.equal(400);
    expect(r.text).to.include('Cannot cast java.lang.Long to int');
  });

  it('doc values of integer fields are longs (ScriptDocValues.Longs): doc[f].value * 1000000 does not overflow', async () => {
    const made = await es.call('PUT', '/longs', { mappings: { properties: { n: { type: 'long' }, i: { type: 'integer' } } } });
    expect(made.status, made.text).to.equal(200);
    expect((await es.call('PUT', '/longs/_doc/1?refresh=true', { n: 5000, i: 5000 })).status).to.equal(201);
    const r = await es.call('POST', '/longs/_search', {
      script_fields: {
        n: { script: "doc['n'].value * 1000000" },
        i: { script: "doc['i'].value * 1000000" },
        cls: { script: "doc['i'].value instanceof Long" },
      },
      aggs: { total: { sum: { script: "doc['n'].value * 1000000" } } },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.hits.hits[0].fields).to.deep.equal({ n: [5000000000], i: [5000000000], cls: [true] });
    expect(r.json.aggregations.total.value).to.equal(5000000000);
  });

  it('a long literal past 64 bits does not compile', async () => {
    const r = await es.call('POST', '/_scripts/painless/_execute', { script: { source: 'return 9223372036854775808L;' } });
    expect(r.status, r.text).to.equal(400);
    expect(r.text).to.include('Invalid long constant [9223372036854775808L]');
  });
});
