import { expect } from 'chai';
import type { Readable } from 'node:stream';
import { eventLoopTurn, jsonPieces, jsonStream, stringifyCooperatively } from '../../lib/cooperative/index.js';
import { seededRandom } from '../support/seeded-random.js';
import { expectLoopKeptTurning, gapsDuring } from './support/loop-turns.js';

/** Past this many characters a string is escaped in chunks of this size (the module's STRING_CHUNK). */
const STRING_CHUNK = 256 * 1024;

/** The text of a stream, as the reader receives it. */
async function streamText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** What the three ways of writing `value` write, each of which must be JSON.stringify's text. */
async function everyWay(value: unknown, indent?: number): Promise<{ pieces: string[]; cooperative: string; streamed: string }> {
  return {
    pieces: [...jsonPieces(value, indent)],
    cooperative: await stringifyCooperatively(value, indent),
    streamed: await streamText(jsonStream(value, indent)),
  };
}

async function expectSameText(value: unknown, indent: number | undefined, label: string): Promise<void> {
  const expected = JSON.stringify(value, null, indent);
  const { pieces, cooperative, streamed } = await everyWay(value, indent);
  if (expected === undefined) {
    expect(pieces, label).to.deep.equal([]);
    expect(cooperative, label).to.equal('');
    expect(streamed, label).to.equal('');
    return;
  }
  // Compared as booleans first: chai would print tens of megabytes on a mismatch.
  const joined = pieces.join('');
  if (joined !== expected) expect(firstDifference(joined, expected), `${label}: pieces`).to.equal(undefined);
  if (cooperative !== expected) expect(firstDifference(cooperative, expected), `${label}: stringifyCooperatively`).to.equal(undefined);
  if (streamed !== expected) expect(firstDifference(streamed, expected), `${label}: jsonStream`).to.equal(undefined);
}

/** Where two texts part, with some context, for a readable failure. */
function firstDifference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined;
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  return `at ${i} of ${expected.length} (got ${actual.length}): got ${JSON.stringify(actual.slice(i - 40, i + 40))}, expected ${JSON.stringify(expected.slice(i - 40, i + 40))}`;
}

/** Sets a member as JSON.parse would, `__proto__` included. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The items of a `_bulk` answer, `count` of them. */
function bulkItems(count: number): object[] {
  return Array.from({ length: count }, (_, i) => ({
    index: { _index: 'logs', _id: String(i), _version: 1, result: 'created', _shards: { total: 2, successful: 1, failed: 0 }, _seq_no: i, _primary_term: 1, status: 201 },
  }));
}

/** A string of `length` characters whose characters are worth escaping. */
function trickyString(length: number): string {
  const alphabet = ['a', 'é', '€', '😀', '"', '\\', '\n', '\u0000', '\u001f', '\u2028', '\ud800', '\udfff', '</script>', ' '];
  const cycle = alphabet.join('');
  return cycle.repeat(Math.ceil(length / cycle.length)).slice(0, length);
}

/** A chain of `depth` objects, each also holding a big array, so that every level is written piece by piece. */
function deepChain(depth: number): unknown {
  let value: unknown = Array.from({ length: 40_000 }, (_, i) => ({ i }));
  for (let level = 0; level < depth; level++) value = { level, child: value, after: [level, { nested: [] }] };
  return value;
}

/** Random values of every kind JSON.stringify meets, some large enough to be written piece by piece. */
function randomValues(count: number, seed: number): unknown[] {
  const random = seededRandom(seed);
  const below = (n: number) => Math.floor(random() * n);
  const pick = <T>(choices: readonly T[]): T => choices[below(choices.length)];
  const keys = ['a', 'b', 'key', '0', '1', '10', '-1', '01', '__proto__', 'é', '😀', 'with "quotes"', 'line\nbreak', '', 'toString', 'long'.repeat(20)];
  const leaves: Array<() => unknown> = [
    () => null,
    () => random() < 0.5,
    () => below(2_000_000) - 1_000_000,
    () => (random() - 0.5) * 10 ** below(40),
    () => pick([NaN, Infinity, -Infinity, -0, Number.MAX_VALUE, Number.MIN_VALUE, 5e-324]),
    () => undefined,
    () => () => 1,
    () => Symbol('s'),
    () => trickyString(below(40)).split('').sort(() => random() - 0.5).join(''),
    () => new Date(below(2 ** 40)),
    () => ({ toJSON: (key: string) => `key:${key}` }),
  ];
  const leaf = () => pick(leaves)();

  /** At most one large part a value: a long string, or an array or object too big for one call. */
  let largeParts = 0;
  function value(depth: number): unknown {
    const roll = random();
    if (depth > 4 || roll < 0.4) return leaf();
    if (roll < 0.5 && largeParts++ === 0) {
      const kind = below(3);
      if (kind === 0) return trickyString(STRING_CHUNK + below(2) * STRING_CHUNK + below(1000));
      if (kind === 1) return Array.from({ length: 40_000 + below(10_000) }, () => (random() < 0.999 ? leaf() : value(depth + 1)));
      const object: Record<string, unknown> = {};
      for (let i = 0; i < 20_000 + below(5_000); i++) object[`k${i}`] = random() < 0.999 ? leaf() : value(depth + 1);
      return object;
    }
    if (roll < 0.7) return Array.from({ length: below(6) }, () => value(depth + 1));
    const object: Record<string, unknown> = {};
    for (let i = below(6); i > 0; i--) put(object, pick(keys), value(depth + 1));
    return object;
  }
  return Array.from({ length: count }, () => {
    largeParts = random() < 0.25 ? 0 : 1;
    return value(0);
  });
}

describe('cooperative JSON: the text of JSON.stringify, in pieces', function () {
  this.timeout(60_000);

  /** Values JSON.stringify treats in a particular way; the big ones are written piece by piece. */
  const TRICKY: Array<[string, () => unknown]> = [
    ['null, booleans, numbers', () => [null, true, false, 0, -0, 1.5, -1e21, 1e-7, NaN, Infinity, -Infinity]],
    ['nested empties', () => ({ a: [], b: {}, c: [[], {}, [[]], { d: {} }], e: '' })],
    ['top-level empties', () => []],
    ['top-level empty object', () => ({})],
    ['top-level undefined', () => undefined],
    ['top-level function', () => () => 1],
    ['top-level string', () => 'plain'],
    ['undefined, function and symbol members', () => ({ a: undefined, b: () => 1, c: Symbol('c'), d: 1, [Symbol('e')]: 2 })],
    ['arrays holding undefined, functions, symbols and holes', () => [undefined, () => 1, Symbol('x'), , 1]], // eslint-disable-line no-sparse-arrays
    ['toJSON and Date', () => ({ date: new Date(0), custom: { toJSON: (key: string) => ({ seenKey: key }) }, list: [new Date(1e12)] })],
    ['unicode and lone surrogates', () => ({ text: trickyString(500), [trickyString(30)]: 'key', lone: ['\ud800', '\udc00', 'a\ud83d', '\ude00b'] })],
    ['non-enumerable and inherited members', () => {
      const object = Object.create({ inherited: 1 }) as Record<string, unknown>;
      Object.defineProperty(object, 'hidden', { value: 1, enumerable: false });
      object.own = 2;
      return { object, many: Array.from({ length: 50_000 }, () => object) };
    }],
    ['boxed primitives', () => Array.from({ length: 50_000 }, (_, i) => [new Number(i), new String(`s${i}`), new Boolean(i % 2)])],
    ['a large boxed string', () => ({ boxed: new String(trickyString(100_000)) })],
    ['a 100,000-item array of objects', () => bulkItems(100_000)],
    ['a _bulk answer', () => ({ took: 30, errors: false, items: bulkItems(30_000) })],
    ['an object with many keys', () => {
      const object: Record<string, unknown> = {};
      for (let i = 0; i < 30_000; i++) object[i % 3 ? `key ${i}` : String(i)] = i % 5 ? { i } : i % 2 ? undefined : [i];
      put(object, '__proto__', { not: 'the prototype' });
      return object;
    }],
    ['an object whose many members are all skipped', () => Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, undefined]))],
    ['a large array of undefined, functions and NaN', () => Array.from({ length: 100_000 }, (_, i) => [undefined, () => i, NaN][i % 3])],
    ['a large sparse array', () => { const sparse: unknown[] = []; sparse[100_000] = 'last'; sparse[5] = { five: 5 }; return sparse; }],
    ['toJSON in a large array gets the index as its key', () => Array.from({ length: 100_000 }, () => ({ toJSON: (key: string) => `#${key}` }))],
    ['toJSON in a large object gets the member name as its key', () => Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`m${i}`, { toJSON: (key: string) => key.length }]))],
    ['a toJSON returning a large value', () => ({ lazy: { toJSON: () => bulkItems(20_000) } })],
    ["a toJSON's result is not asked for its own toJSON", () => Array.from({ length: 40_000 }, (_, i) => ({ toJSON: () => ({ i, toJSON: () => 'never' }) }))],
    ['a top-level toJSON', () => ({ toJSON: (key: string) => ({ key, items: bulkItems(20_000) }) })],
    ['a large string', () => trickyString(3 * STRING_CHUNK + 12_345)],
    ['an emoji across a chunk boundary', () => 'a'.repeat(STRING_CHUNK - 1) + '😀' + 'b'.repeat(STRING_CHUNK)],
    ['lone surrogates at a chunk boundary', () => ['a'.repeat(STRING_CHUNK - 1) + '\ud800' + 'b'.repeat(STRING_CHUNK), 'a'.repeat(STRING_CHUNK) + '\udc00b' + 'c'.repeat(STRING_CHUNK)]],
    ['large strings as members', () => ({ first: 'x'.repeat(STRING_CHUNK * 2), 'second\n': trickyString(STRING_CHUNK + 1), list: [trickyString(STRING_CHUNK * 2 + 3), 'small'] })],
    ['deep-ish nesting (indented by wrapping)', () => deepChain(20)],
    ['deeper nesting (indented line by line)', () => deepChain(70)],
    ['deep small nesting', () => { let v: unknown = 'bottom'; for (let i = 0; i < 2_000; i++) v = i % 2 ? [v] : { v }; return [v, bulkItems(10_000)]; }],
  ];

  for (const indent of [undefined, 2]) {
    describe(indent ? `pretty-printed (indent ${indent})` : 'compact', () => {
      for (const [name, make] of TRICKY) {
        it(name, () => expectSameText(make(), indent, name));
      }
    });
  }

  it('indents as JSON.stringify reads its space: truncated, at most 10, nothing below 1', async () => {
    const value = { items: bulkItems(12_000), nested: { list: [1, [2, { three: 3 }]] } };
    for (const indent of [0, 1, 4, 2.7, 10, 12, -1, NaN, Infinity]) await expectSameText(value, indent, `indent ${indent}`);
  });

  it('a randomized corpus comes out as JSON.stringify writes it, compact and pretty-printed', async () => {
    const values = randomValues(300, 20_240_611);
    let inManyPieces = 0;
    for (const [i, value] of values.entries()) {
      for (const indent of [undefined, 2]) {
        const expected = JSON.stringify(value, null, indent);
        const pieces = [...jsonPieces(value, indent)];
        if (pieces.length > 1) inManyPieces++;
        if (expected === undefined) expect(pieces, `value ${i}`).to.deep.equal([]);
        else if (pieces.join('') !== expected) expect(firstDifference(pieces.join(''), expected), `value ${i}, indent ${indent}`).to.equal(undefined);
      }
    }
    expect(inManyPieces, 'values large enough to be written piece by piece').to.be.above(20);
  });

  it('a small value is one piece, written by one call; a large one comes in many', () => {
    expect([...jsonPieces({ a: 1, b: [1, 2, { c: 'd' }] })]).to.deep.equal(['{"a":1,"b":[1,2,{"c":"d"}]}']);
    expect([...jsonPieces({ a: [] }, 2)]).to.deep.equal(['{\n  "a": []\n}']);
    expect([...jsonPieces(bulkItems(100_000))].length).to.be.above(20);
    expect([...jsonPieces('x'.repeat(4 * STRING_CHUNK))].length).to.be.at.least(2);
  });

  it('calls each toJSON once, as JSON.stringify does', () => {
    let calls = 0;
    const value = Array.from({ length: 30_000 }, (_, i) => ({ toJSON: () => (calls++, i) }));
    JSON.stringify(value);
    const native = calls;
    calls = 0;
    [...jsonPieces(value)];
    expect(calls).to.equal(native).and.equal(30_000);
  });

  describe('what JSON.stringify refuses', () => {
    const BIGINTS: Array<[string, () => unknown]> = [
      ['at the top', () => 1n],
      ['in a small value', () => ({ a: [1n] })],
      ['in a large array', () => [...bulkItems(20_000), { deep: 2n }]],
      ['as a member of a large object', () => ({ items: bulkItems(20_000), n: 3n })],
    ];
    for (const [where, make] of BIGINTS) {
      it(`a BigInt ${where}: TypeError from every way`, async () => {
        expect(() => [...jsonPieces(make())]).to.throw(TypeError);
        const rejection = await stringifyCooperatively(make()).then(() => undefined, (error: unknown) => error);
        expect(rejection).to.be.instanceOf(TypeError);
        const stream = jsonStream(make());
        const failure = await streamText(stream).then(() => undefined, (error: unknown) => error);
        expect(failure).to.be.instanceOf(TypeError);
        expect(stream.destroyed).to.equal(true);
      });
    }

    it('a cycle, small or through large containers: TypeError', async () => {
      const small: Record<string, unknown> = { a: 1 };
      small.self = small;
      const large: Record<string, unknown> = { items: bulkItems(20_000) };
      (large.items as unknown[]).push({ back: large });
      for (const value of [small, large, [bulkItems(20_000), small]]) {
        expect(() => [...jsonPieces(value)]).to.throw(TypeError, /circular/);
        expect(await stringifyCooperatively(value).catch((error: unknown) => error)).to.be.instanceOf(TypeError);
      }
    });
  });

  describe('jsonStream', () => {
    it('writes nothing before the first read, and no more than the reader asks for', async () => {
      let calls = 0;
      const value = Array.from({ length: 100_000 }, (_, i) => ({ toJSON: () => (calls++, { i, text: 'some text to fill the chunks' }) }));
      const stream = jsonStream(value);
      await eventLoopTurn();
      expect(calls, 'nothing is written before the first read').to.equal(0);

      const readable = new Promise((resolve) => stream.once('readable', resolve));
      stream.read(0); // starts writing, as a reader would
      await readable;
      for (let i = 0; i < 3; i++) await eventLoopTurn(); // the stream fills its buffer
      const buffered = calls;
      expect(buffered).to.be.above(0).and.below(20_000);
      for (let i = 0; i < 5; i++) await eventLoopTurn();
      expect(calls, 'nothing more is written while the buffer is full').to.equal(buffered);
      expect(stream.readableLength).to.be.at.most(2 * 64 * 1024);

      const streamed = await streamText(stream);
      expect(calls).to.equal(100_000);
      expect(streamed).to.equal(JSON.stringify(value));
    });

    it('stops writing once destroyed', async () => {
      let calls = 0;
      const value = Array.from({ length: 100_000 }, (_, i) => ({ toJSON: () => (calls++, { i, text: 'some text to fill the chunks' }) }));
      const stream = jsonStream(value);
      const firstChunk = new Promise((resolve) => stream.once('data', resolve));
      await firstChunk;
      stream.destroy();
      await new Promise((resolve) => stream.once('close', resolve));
      const atClose = calls;
      for (let i = 0; i < 5; i++) await eventLoopTurn();
      expect(calls).to.equal(atClose).and.be.below(100_000);
    });

    it('pushes chunks of about 64 KB and gives the event loop turns while writing 16 MB', async () => {
      const value = { took: 30, errors: false, items: bulkItems(64_000), tail: trickyString(4 * STRING_CHUNK) };
      const expected = JSON.stringify(value, null, 2);
      expect(expected.length).to.be.above(16_000_000);

      const turning = await gapsDuring(async () => {
        const chunks: Buffer[] = [];
        const stream = jsonStream(value, 2);
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        await new Promise((resolve, reject) => stream.once('end', resolve).once('error', reject));
        return chunks;
      });
      const chunks = turning.result;
      expect(Buffer.concat(chunks).toString('utf8') === expected, 'the streamed text is the text of JSON.stringify').to.equal(true);
      expect(Math.max(...chunks.map((chunk) => chunk.length))).to.be.at.most(64 * 1024);
      expect(chunks.length).to.be.above(200);
      expectLoopKeptTurning(turning, 5);
    });
  });

  describe('stringifyCooperatively', () => {
    it('gives the event loop turns while writing a 10 MB string, and returns its exact text', async () => {
      const value = trickyString(10 * 1024 * 1024);
      const turning = await gapsDuring(() => stringifyCooperatively(value));
      expect(turning.result === JSON.stringify(value)).to.equal(true);
      expectLoopKeptTurning(turning, 3);
    });

    it('gives the event loop turns while writing a 75,000-item array, and returns its exact text', async () => {
      const value = bulkItems(75_000);
      const turning = await gapsDuring(() => stringifyCooperatively(value));
      expect(turning.result === JSON.stringify(value)).to.equal(true);
      // Joining the pieces into one 12 MB string at the end is a single copy.
      expectLoopKeptTurning(turning, 5);
    });
  });
});
