/**
 * Range field types (integer_range, long_range, float_range, double_range, date_range, ip_range):
 * a value is an interval `{gt|gte, lt|lte}` (ip_range also a CIDR string). The index keeps each
 * interval as two doc values, its inclusive lower and upper ends, as numbers of the range's element
 * type (dates in epoch ms, IPs as BigInts in IPv6 space, as Lucene's InetAddressPoint orders them).
 * A range query relates the query's interval to the document's (ES's RangeFieldMapper and
 * ShapeRelation: intersects, contains, within); a term query is the one-point interval.
 */
import { isIP } from 'node:net';
import { EsError } from '../../../errors/index.js';
import { dateFormatOf } from './dates.js';
import { parseDateMath } from './date-math.js';
import { parseInstant } from './date-format.js';
import { documentParsingError } from './errors.js';
import type { IndexableField } from './parse-document.js';
import { parseTimeZone } from './time-zone.js';
import { fieldType, type FieldMapping } from './types.js';

export const RANGE_TYPES = new Set(['integer_range', 'long_range', 'float_range', 'double_range', 'date_range', 'ip_range']);

export type RangeEnd = number | bigint;
export type RangeRelation = 'intersects' | 'contains' | 'within';

export function isRangeType(type: string): boolean {
  return RANGE_TYPES.has(type);
}

const IP_MAX = (1n << 128n) - 1n;
const LIMITS: Record<string, [RangeEnd, RangeEnd]> = {
  integer_range: [-2147483648, 2147483647],
  long_range: [Number.MIN_SAFE_INTEGER * 1024, Number.MAX_SAFE_INTEGER * 1024],
  // the largest finite values (doc values are kept as JSON, which has no infinity)
  float_range: [-3.4028234663852886e38, 3.4028234663852886e38],
  double_range: [-Number.MAX_VALUE, Number.MAX_VALUE],
  date_range: [-8640000000000000, 8640000000000000],
  ip_range: [0n, IP_MAX],
};

/** An IP address as a BigInt in IPv6 space (IPv4 as its IPv4-mapped address); undefined when not an IP. */
export function ipToBigInt(text: string): bigint | undefined {
  const kind = isIP(text);
  if (kind === 4) {
    const [a, b, c, d] = text.split('.').map(Number);
    return 0xffff00000000n + BigInt(((a << 24) >>> 0) + (b << 16) + (c << 8) + d);
  }
  if (kind !== 6) return undefined;
  let s = text;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  let tail: number[] = [];
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    tail = [(a << 8) + b, (c << 8) + d];
    s = s.slice(0, -v4[1].length) + (s.endsWith('::' + v4[1]) ? '' : '0');
    if (s.endsWith(':0')) s = s.slice(0, -2);
  }
  const [head, rest] = s.includes('::') ? s.split('::') : [s, undefined];
  const hs = head ? head.split(':').filter((x) => x !== '').map((x) => parseInt(x, 16)) : [];
  const rs = rest ? rest.split(':').filter((x) => x !== '').map((x) => parseInt(x, 16)) : [];
  const groups = rest === undefined ? [...hs, ...tail] : [...hs, ...new Array<number>(8 - hs.length - rs.length - tail.length).fill(0), ...rs, ...tail];
  let n = 0n;
  for (const g of groups.slice(0, 8)) n = (n << 16n) + BigInt(g);
  return n;
}

/** A BigInt on the IPv6 line → ES's text form (v4 when mapped, compressed v6 otherwise). */
export function bigIntToIp(n: bigint): string {
  if (n >> 32n === 0xffffn) return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 0xffn)).join('.');
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((n >> BigInt(i * 16)) & 0xffffn).toString(16));
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen && j - i > 1) { best = i; bestLen = j - i; }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

/**
 * An ip as a text that orders as Elasticsearch orders ips, by their 16-byte IPv6 form (an IPv4
 * address as ::ffff:a.b.c.d): the 32 hex digits of those bytes. Undefined when it is no ip.
 */
export function ipOrderKey(text: string): string | undefined {
  const n = isIP(text) === 0 ? undefined : ipToBigInt(text);
  return n === undefined ? undefined : n.toString(16).padStart(32, '0');
}

/** The ip an ipOrderKey stands for, in the text Elasticsearch shows. */
export function ipOfOrderKey(key: string): string {
  return bigIntToIp(BigInt(`0x${key}`));
}

/**
 * An ip's text as Elasticsearch shows and indexes it (InetAddresses.toAddrString): an IPv4-mapped
 * IPv6 address as IPv4, IPv6 compressed and in lower case; undefined when it is no ip.
 */
export function canonicalIp(text: string): string | undefined {
  if (isIP(text) === 0) return undefined;
  const n = ipToBigInt(text);
  return n === undefined ? undefined : bigIntToIp(n);
}

/** The first and last address of a CIDR block (`10.0.0.0/8`, `2001:db8::/32`) on the IPv6 line; undefined when it is none. */
export function cidrBounds(text: string): [bigint, bigint] | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const address = text.slice(0, slash);
  const bits = Number(text.slice(slash + 1));
  const v4 = isIP(address) === 4;
  const n = isIP(address) === 0 ? undefined : ipToBigInt(address);
  const max = v4 ? 32 : 128;
  if (n === undefined || !/^\d+$/.test(text.slice(slash + 1)) || bits > max) return undefined;
  const host = (1n << BigInt(max - bits)) - 1n;
  return [n & ~host, n | host];
}

function step(type: string, v: RangeEnd, up: boolean): RangeEnd {
  if (typeof v === 'bigint') return up ? v + 1n : v - 1n;
  if (type === 'float_range' || type === 'double_range') {
    // the next representable value (Math.nextUp / nextDown)
    const buf = new DataView(new ArrayBuffer(8));
    if (type === 'float_range') {
      buf.setFloat32(0, v);
      const bits = buf.getInt32(0);
      buf.setInt32(0, v === 0 ? (up ? 1 : -2147483647) : (v > 0) === up ? bits + 1 : bits - 1);
      return buf.getFloat32(0);
    }
    buf.setFloat64(0, v);
    const bits = buf.getBigInt64(0);
    buf.setBigInt64(0, v === 0 ? (up ? 1n : -9223372036854775807n) : (v > 0) === up ? bits + 1n : bits - 1n);
    return buf.getFloat64(0);
  }
  return up ? v + 1 : v - 1;
}

/** One end of a range value or query, as the range's element type orders it. */
function endOf(type: string, mapping: FieldMapping, raw: unknown, roundUp: boolean, query?: { format?: string; timeZone?: string; now: number }): RangeEnd {
  if (type === 'ip_range') {
    const ip = ipToBigInt(String(raw));
    if (ip === undefined) throw new EsError(400, 'illegal_argument_exception', `'${String(raw)}' is not an IP string literal.`);
    return ip;
  }
  if (type === 'date_range') {
    if (query) {
      const format = query.format ?? (typeof raw === 'number' ? 'epoch_millis' : dateFormatOf(mapping));
      return parseDateMath(typeof raw === 'number' ? raw : String(raw), { format, zone: parseTimeZone(query.timeZone), roundUp, now: query.now }).millis;
    }
    const instant = parseInstant(raw, dateFormatOf(mapping));
    if (instant === undefined) throw new EsError(400, 'illegal_argument_exception', `failed to parse date field [${String(raw)}] with format [${dateFormatOf(mapping)}]`);
    return instant.millis;
  }
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n)) throw new EsError(400, 'number_format_exception', `For input string: "${String(raw)}"`);
  if (type === 'integer_range' || type === 'long_range') return Math.trunc(n);
  return type === 'float_range' ? Math.fround(n) : n;
}

/** A CIDR block of an ip_range: its first and last addresses. */
function cidrRange(text: string): [bigint, bigint] | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const address = text.slice(0, slash);
  const ip = ipToBigInt(address);
  const bits = Number(text.slice(slash + 1));
  if (ip === undefined || !Number.isInteger(bits)) return undefined;
  const prefix = isIP(address) === 4 ? bits + 96 : bits;
  if (prefix < 0 || prefix > 128) return undefined;
  const hostBits = BigInt(128 - prefix);
  const lo = (ip >> hostBits) << hostBits;
  return [lo, lo + (1n << hostBits) - 1n];
}

/** An interval given as bounds (`gt`/`gte`, `lt`/`lte`; `from`/`to` with include flags), inclusive ends. */
function boundsOf(type: string, mapping: FieldMapping, spec: Record<string, unknown>, query?: { format?: string; timeZone?: string; now: number }): [RangeEnd, RangeEnd] {
  const [min, max] = LIMITS[type];
  let lo = min;
  let hi = max;
  const lower = spec.gt ?? spec.gte ?? spec.from;
  const upper = spec.lt ?? spec.lte ?? spec.to;
  const loExclusive = spec.gt !== undefined || (spec.gte === undefined && spec.include_lower === false);
  const hiExclusive = spec.lt !== undefined || (spec.lte === undefined && spec.include_upper === false);
  if (lower !== undefined && lower !== null) {
    lo = endOf(type, mapping, lower, loExclusive, query);
    if (loExclusive) lo = step(type, lo, true);
  }
  if (upper !== undefined && upper !== null) {
    hi = endOf(type, mapping, upper, !hiExclusive, query);
    if (hiExclusive) hi = step(type, hi, false);
  }
  return [lo, hi];
}

const VALUE_KEYS = new Set(['gt', 'gte', 'lt', 'lte', 'from', 'to', 'include_lower', 'include_upper']);

/** A document's range value(s) → the field's doc values (lower, upper pairs). */
export function rangeField(value: unknown, mapping: FieldMapping, path: string, id: string, into?: IndexableField): IndexableField | undefined {
  const type = fieldType(mapping);
  const field: IndexableField = into ?? { type, terms: [], positions: [], values: [] };
  const fail = (reason: string, causeType = 'illegal_argument_exception') =>
    documentParsingError(`failed to parse field [${path}] of type [${type}] in document with id '${id}'. Preview of field's value: '${JSON.stringify(value)}'`, { type: causeType, reason });
  const add = (v: unknown) => {
    if (v === null || v === undefined) return;
    let lo: RangeEnd;
    let hi: RangeEnd;
    if (type === 'ip_range' && typeof v === 'string') {
      const cidr = cidrRange(v);
      if (!cidr) throw fail(`error parsing field [${path}], expected an object but got ${v}`);
      [lo, hi] = cidr;
    } else {
      if (typeof v !== 'object' || Array.isArray(v)) throw fail(`error parsing field [${path}], expected an object but got ${String(v)}`, 'mapper_parsing_exception');
      const spec = v as Record<string, unknown>;
      for (const k of Object.keys(spec)) if (!VALUE_KEYS.has(k)) throw fail(`error parsing field [${path}], with unknown parameter [${k}]`, 'mapper_parsing_exception');
      try {
        [lo, hi] = boundsOf(type, mapping, spec);
      } catch (e) {
        throw fail(e instanceof Error ? e.message : String(e));
      }
    }
    if (lo > hi) throw fail(`min value (${String(lo)}) is greater than max value (${String(hi)})`);
    field.values.push(lo, hi);
    field.terms.push(`${String(lo)}..${String(hi)}`);
    field.positions.push(0);
  };
  if (Array.isArray(value)) for (const v of value) add(v);
  else add(value);
  return field.values.length ? field : undefined;
}

/** A range query's interval on a range field: inclusive ends, unbounded where the query gives none. */
export function rangeQueryInterval(
  mapping: FieldMapping, q: { gt?: unknown; gte?: unknown; lt?: unknown; lte?: unknown; format?: string; timeZone?: string }, now: number,
): [RangeEnd, RangeEnd] {
  return boundsOf(fieldType(mapping), mapping, q as Record<string, unknown>, { format: q.format, timeZone: q.timeZone, now });
}

/** A term query's value on a range field: the one-point interval. */
export function rangeTermInterval(mapping: FieldMapping, value: unknown, now: number): [RangeEnd, RangeEnd] {
  return rangeQueryInterval(mapping, { gte: value, lte: value }, now);
}

/** Whether one of a document's intervals (lower, upper pairs) relates to the query's as asked. */
export function rangeValuesRelate(values: readonly unknown[], [qlo, qhi]: [RangeEnd, RangeEnd], relation: RangeRelation): boolean {
  if (qlo > qhi) return false; // exclusive bounds with nothing between them
  for (let i = 0; i + 1 < values.length; i += 2) {
    const lo = values[i] as RangeEnd;
    const hi = values[i + 1] as RangeEnd;
    switch (relation) {
      case 'intersects':
        if (lo <= qhi && hi >= qlo) return true;
        break;
      case 'contains':
        if (lo <= qlo && hi >= qhi) return true;
        break;
      case 'within':
        if (lo >= qlo && hi <= qhi) return true;
        break;
    }
  }
  return false;
}

/** Each bucket key (`offset + k·interval`) a document's intervals cover, for histograms over range fields. */
export function rangeBucketKeys(values: readonly unknown[], interval: number, offset: number): number[] {
  const keys = new Set<number>();
  for (let i = 0; i + 1 < values.length; i += 2) {
    const lo = Number(values[i]);
    const hi = Number(values[i + 1]);
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) continue;
    const first = Math.floor((lo - offset) / interval);
    const last = Math.floor((hi - offset) / interval);
    for (let k = first; k <= last && keys.size < 65536; k++) keys.add(k * interval + offset);
  }
  return [...keys].sort((a, b) => a - b);
}
