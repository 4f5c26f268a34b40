import { EsError } from '../../../../errors/index.js';
import { compileLuceneRegExp, type LinearRegex } from '../../regex/index.js';
import { murmur3 } from '../murmur3.js';
import { canonicalIp } from '../../mapping/index.js';
import { isObject, type DocSet, type Value } from './types.js';
import type { ValueKind } from './values-source.js';

/** A terms `include`/`exclude` filter: regular expressions, exact values, or hash partitions. */
export interface IncludeExclude {
  accept(key: Value): boolean;
  isRegex: boolean;
}

const M64 = (1n << 64n) - 1n;

/** HPPC's BitMixer.mix64 (what ES partitions numeric terms by). */
export function mix64(value: bigint): bigint {
  let z = value & M64;
  z = ((z ^ (z >> 32n)) * 0x4cd6944c5cc20b6dn) & M64;
  z = ((z ^ (z >> 29n)) * 0xfc12c5b19d3259e9n) & M64;
  return z ^ (z >> 32n);
}

function floorMod(x: bigint, n: bigint): bigint {
  return ((x % n) + n) % n;
}

function toSigned(x: bigint): bigint {
  return x >= 1n << 63n ? x - (1n << 64n) : x;
}

const HASH_PARTITIONING_SEED = 31;

/** `index.max_regex_length` of the searched indices (the smallest): the longest include/exclude regex. */
export function maxRegexLengthOf(docs: DocSet): number {
  let max = DEFAULT_MAX_REGEX_LENGTH;
  for (const seg of docs) {
    const v = seg.handle.meta.settings['index.max_regex_length'];
    if (v !== undefined && Number(v) < max) max = Number(v);
  }
  return max;
}

const DEFAULT_MAX_REGEX_LENGTH = 1000;

/** A Lucene regular expression (always anchored), as the `regexp` query reads it; compiled by the linear engine. */
function luceneRegex(src: string, maxLength: number): LinearRegex {
  if (src.length > maxLength) {
    throw new EsError(400, 'illegal_argument_exception',
      `The length of regex [${src.length}] used in the request has exceeded the allowed maximum of [${maxLength}]. This maximum can be set by changing the [index.max_regex_length] index level setting.`);
  }
  try {
    return compileLuceneRegExp(src);
  } catch (err) {
    if (err instanceof EsError) throw err;
    throw new EsError(400, 'illegal_argument_exception', `invalid regular expression [${src}]: ${(err as Error).message}`);
  }
}

function normalizeKey(v: unknown, kind: ValueKind, parse: (v: unknown) => number): Value {
  if (kind === 'bytes') return String(v);
  // an ip as Elasticsearch parses it (any spelling of the address), shown as the buckets show it
  if (kind === 'ip') return canonicalIp(String(v)) ?? String(v);
  if (kind === 'boolean') return v === true || v === 'true' || v === 1 ? 1 : 0;
  if (kind === 'date') return parse(v);
  return Number(v);
}

export interface IncludeExcludeSpec {
  include?: unknown;
  exclude?: unknown;
}

export function validateIncludeExclude(spec: IncludeExcludeSpec, aggName: string): void {
  const inc = spec.include;
  if (isObject(inc)) {
    const { partition, num_partitions: n } = inc;
    if (typeof partition !== 'number' || typeof n !== 'number') {
      throw new EsError(400, 'parsing_exception', `Missing [partition] or [num_partitions] parameter for include clause in [${aggName}]`, { line: 1, col: 1 });
    }
    if (spec.exclude !== undefined && !Array.isArray(spec.exclude) && typeof spec.exclude !== 'string') {
      throw new EsError(400, 'parsing_exception', `Unsupported exclude clause in [${aggName}]`, { line: 1, col: 1 });
    }
  }
}

/** Builds the filter for one kind of keys; regular expressions only work on strings, and no longer than `maxRegexLength`. */
export function buildIncludeExclude(spec: IncludeExcludeSpec, kind: ValueKind, aggName: string, parseDate: (v: unknown) => number, maxRegexLength = DEFAULT_MAX_REGEX_LENGTH): IncludeExclude | undefined {
  const { include, exclude } = spec;
  if (include === undefined && exclude === undefined) return undefined;
  const isRegex = typeof include === 'string' || typeof exclude === 'string';
  if (isRegex && kind !== 'bytes') {
    throw new EsError(400, 'aggregation_execution_exception',
      `Aggregation [${aggName}] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of values for include/exclude clauses`);
  }
  const tests: Array<(k: Value) => boolean> = [];
  if (typeof include === 'string') {
    const re = luceneRegex(include, maxRegexLength);
    tests.push((k) => re.testExact(String(k)));
  } else if (Array.isArray(include)) {
    const set = new Set(include.map((v) => normalizeKey(v, kind, parseDate)));
    tests.push((k) => set.has(k));
  } else if (isObject(include)) {
    const partition = Number(include.partition);
    const n = Number(include.num_partitions);
    if (kind === 'bytes' || kind === 'ip') {
      tests.push((k) => (((murmur3(String(k), HASH_PARTITIONING_SEED) % n) + n) % n) === partition);
    } else {
      const bn = BigInt(n);
      const bp = BigInt(partition);
      tests.push((k) => {
        const num = Number(k);
        const bits = Number.isInteger(num) && kind !== 'double' ? BigInt(num) : doubleBits(num);
        return floorMod(toSigned(mix64(bits)), bn) === bp;
      });
    }
  }
  if (typeof exclude === 'string') {
    const re = luceneRegex(exclude, maxRegexLength);
    tests.push((k) => !re.testExact(String(k)));
  } else if (Array.isArray(exclude)) {
    const set = new Set(exclude.map((v) => normalizeKey(v, kind, parseDate)));
    tests.push((k) => !set.has(k));
  }
  return { isRegex, accept: (k) => tests.every((t) => t(k)) };
}

function doubleBits(n: number): bigint {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, n);
  return buf.getBigInt64(0);
}
