/**
 * Processors only OpenSearch 2 has, or has with its own options and output (its ingest-common
 * module): `copy` and `remove_by_pattern` (2.12), `community_id` (2.13, with `*_field` options) and
 * `fingerprint` (2.16, `hash_method` like `SHA-1@2.16.0`, whose name prefixes the hash). The engine
 * runs them when it speaks OpenSearch's dialect; Elasticsearch 8 refuses their names, or (its
 * `community_id` and `fingerprint`) reads other options and writes other values.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { simpleMatch } from '../../../../wildcard/index.js';
import { deepCopy, illegalArgument, isMap, javaText, javaType, METADATA_FIELDS, type IngestDocument, type JsonMap } from '../ingest-document.js';
import { ingestBytes } from '../ingest-budget.js';
import type { ConfigReader } from '../processor-config.js';
import type { ProcessorFactory } from '../processor.js';
import { compileStringTemplate } from '../templates.js';

/** `copy`: `source_field`'s value (a deep copy) into `target_field`, which must not exist unless `override_target`. */
export const copy: ProcessorFactory = (config) => {
  const source = compileStringTemplate(config.requiredString('source_field'), config, 'source_field');
  const target = compileStringTemplate(config.requiredString('target_field'), config, 'target_field');
  const ignoreMissing = config.boolean('ignore_missing', false);
  const removeSource = config.boolean('remove_source', false);
  const overrideTarget = config.boolean('override_target', false);
  return (doc) => {
    const from = source(doc);
    if (!doc.has(from) || doc.get(from) === null) {
      if (ignoreMissing) return;
      throw illegalArgument(doc.has(from) ? `source field [${from}] is null, cannot process it.` : `source field [${from}] doesn't exist`);
    }
    const to = target(doc);
    if (doc.has(to) && !overrideTarget) throw illegalArgument(`target field [${to}] already exists`);
    const value = doc.get(from);
    doc.budget.charge('copy', ingestBytes(value));
    doc.set(to, deepCopy(value));
    if (removeSource) doc.remove(from);
  };
};

/** `remove_by_pattern`: the source's top-level fields matching `field_pattern` go, or all but those matching `exclude_field_pattern`; metadata stays. */
export const removeByPattern: ProcessorFactory = (config) => {
  const patterns = stringList(config, 'field_pattern');
  const excluded = stringList(config, 'exclude_field_pattern');
  if (patterns && excluded) throw config.error('field_pattern', 'either field_pattern or exclude_field_pattern must be set');
  if (!patterns && !excluded) throw config.error('field_pattern', 'either field_pattern or exclude_field_pattern must be set');
  const matches = (name: string, list: string[]) => list.some((p) => simpleMatch(p, name));
  return (doc) => {
    for (const name of Object.keys(doc.source)) {
      if (METADATA_FIELDS.has(name) || name === '_ingest') continue;
      const remove = patterns ? matches(name, patterns) : !matches(name, excluded!);
      if (remove) delete doc.source[name];
    }
  };
};

function stringList(config: ConfigReader, name: string): string[] | undefined {
  const list = config.optionalList(name, true);
  if (list === undefined) return undefined;
  if (list.length === 0) return undefined;
  if (list.some((p) => typeof p !== 'string' || p === '')) throw config.error(name, `${name} cannot be null nor empty`);
  return list as string[];
}

// --- fingerprint -------------------------------------------------------------------------------

/** The hash methods, named with the version whose concatenation they hash (so a stored hash stays comparable). */
const HASH_METHODS: Readonly<Record<string, string>> = { 'MD5@2.16.0': 'md5', 'SHA-1@2.16.0': 'sha1', 'SHA-256@2.16.0': 'sha256', 'SHA3-256@2.16.0': 'sha3-256' };

/**
 * `fingerprint`: a hash of `fields` (or every source field but `exclude_fields`, or every source
 * field), each written `|name|length:value` in name order, an object's leaves by their dotted names,
 * then `|`; the target gets `<hash_method>:<base64 of the hash>`.
 */
export const fingerprint: ProcessorFactory = (config) => {
  const fields = stringList(config, 'fields');
  const excluded = stringList(config, 'exclude_fields');
  if (fields && excluded) throw config.error('fields', 'either fields or exclude_fields can be set');
  const target = config.optionalString('target_field', 'fingerprint')!;
  const method = config.optionalString('hash_method', 'SHA-1@2.16.0')!;
  const algorithm = HASH_METHODS[method.toUpperCase()];
  if (!algorithm) throw config.error('hash_method', 'hash method must be MD5@2.16.0, SHA-1@2.16.0, SHA-256@2.16.0 or SHA3-256@2.16.0');
  const ignoreMissing = config.boolean('ignore_missing', false);
  return (doc) => {
    const names = fields
      ? [...new Set(fields)].filter((f) => !METADATA_FIELDS.has(f))
      : Object.keys(doc.source).filter((f) => !METADATA_FIELDS.has(f) && !excluded?.includes(f));
    names.sort(javaOrder);
    let text = '';
    const part = (name: string, value: unknown) => {
      const v = javaText(value);
      text += `|${name}|${v.length}:${v}`;
    };
    for (const name of names) {
      if (!doc.has(name)) {
        if (ignoreMissing) continue;
        throw illegalArgument(`field [${name}] doesn't exist`);
      }
      const value = doc.get(name);
      if (isMap(value)) {
        const leaves = flatten(value);
        for (const key of Object.keys(leaves).sort(javaOrder)) part(`${name}.${key}`, leaves[key]);
      } else part(name, value);
    }
    if (text === '') return;
    doc.budget.charge('fingerprint', text.length);
    doc.set(target, `${method}:${createHash(algorithm).update(text + '|', 'utf8').digest('base64')}`);
  };
};

/** Java's String order (UTF-16 code units), which the hashed text is in. */
const javaOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function flatten(map: JsonMap, out: JsonMap = {}, prefix = ''): JsonMap {
  for (const [key, value] of Object.entries(map)) {
    if (isMap(value)) flatten(value, out, `${prefix}${key}.`);
    else out[prefix + key] = value;
  }
  return out;
}

// --- community_id ------------------------------------------------------------------------------

/** IANA protocol numbers the Community ID specification hashes, by the names `protocol_field` may hold. */
const PROTOCOLS: ReadonlyArray<readonly [string, number]> = [
  ['icmp', 1], ['igmp', 2], ['tcp', 6], ['udp', 17], ['gre', 47], ['ipv6-icmp', 58], ['eigrp', 88], ['ospf', 89], ['pim', 103], ['sctp', 132],
];
const PROTOCOL_NUMBERS = new Set(PROTOCOLS.map(([, n]) => n));
const TRANSPORT = new Set([6, 17, 132]);
const ICMP = 1;
const ICMP_V6 = 58;
/** ICMP message types with a counterpart (echo and reply…): such a flow is two-way, the counterpart standing in for the code. */
const ICMP_COUNTERPART = new Map([[8, 0], [0, 8], [13, 14], [14, 13], [15, 16], [16, 15], [10, 9], [9, 10], [17, 18], [18, 17]]);
const ICMP_V6_COUNTERPART = new Map([[128, 129], [129, 128], [133, 134], [134, 133], [135, 136], [136, 135], [130, 131], [131, 130], [144, 145], [145, 144]]);

/**
 * `community_id`: the Community ID flow hash (version 1) of a network flow tuple: SHA-1 over the
 * seed, both addresses, the protocol, a zero byte and both ports (an ICMP flow's type and code),
 * the smaller endpoint first unless the flow is one-way ICMP; written as `1:<base64>`.
 */
export const communityId: ProcessorFactory = (config) => {
  const sourceIp = config.optionalString('source_ip_field');
  const sourcePort = config.optionalString('source_port_field');
  const destinationIp = config.optionalString('destination_ip_field');
  const destinationPort = config.optionalString('destination_port_field');
  const ianaNumber = config.optionalString('iana_protocol_number_field');
  const protocolName = config.optionalString('protocol_field');
  const icmpType = config.optionalString('icmp_type_field');
  const icmpCode = config.optionalString('icmp_code_field');
  const seedValue = config.take('seed');
  const seed = seedValue === undefined ? 0 : Number(seedValue);
  if (!Number.isInteger(seed) || seed < 0 || seed > 65535) throw config.error('seed', 'seed must be between 0 and 65535');
  const target = config.optionalString('target_field', 'community_id')!;
  const ignoreMissing = config.boolean('ignore_missing', false);
  if (!ianaNumber && !protocolName) throw config.error('iana_protocol_number_field', 'at least one of fields [iana_protocol_number_field] and [protocol_field] must be set');
  if (!sourceIp) throw config.error('source_ip_field', 'required property is missing');
  if (!destinationIp) throw config.error('destination_ip_field', 'required property is missing');
  return (doc) => {
    const protocol = resolveProtocol(doc, ianaNumber, protocolName, ignoreMissing);
    if (protocol === undefined) return;
    const src = resolveIp(doc, sourceIp, ignoreMissing);
    const dst = src && resolveIp(doc, destinationIp, ignoreMissing);
    if (!src || !dst) return;
    if (src.length !== dst.length) throw illegalArgument('source ip and destination ip must have same format');
    let ports: [number, number] | undefined;
    let oneWay = false;
    if (TRANSPORT.has(protocol)) {
      const sp = resolveNumber(doc, sourcePort, 'port', 65535, ignoreMissing);
      const dp = sp === undefined ? undefined : resolveNumber(doc, destinationPort, 'port', 65535, ignoreMissing);
      if (sp === undefined || dp === undefined) return;
      ports = [sp, dp];
    } else if (protocol === ICMP || protocol === ICMP_V6) {
      const type = resolveNumber(doc, icmpType, 'type', 255, ignoreMissing);
      if (type === undefined) return;
      const counterpart = (protocol === ICMP ? ICMP_COUNTERPART : ICMP_V6_COUNTERPART).get(type);
      if (counterpart !== undefined) ports = [type, counterpart];
      else {
        const code = resolveNumber(doc, icmpCode, 'code', 255, ignoreMissing);
        if (code === undefined) return;
        ports = [type, code];
        oneWay = true;
      }
    }
    let [a, b] = [src, dst];
    let [pa, pb] = ports ?? [0, 0];
    if (!oneWay && compareEndpoints(a, pa, b, pb) > 0) [a, b, pa, pb] = [b, a, pb, pa];
    const head = Buffer.from([seed >> 8, seed & 0xff]);
    const tail = ports ? Buffer.from([protocol, 0, pa >> 8, pa & 0xff, pb >> 8, pb & 0xff]) : Buffer.from([protocol, 0]);
    doc.set(target, `1:${createHash('sha1').update(Buffer.concat([head, a, b, tail])).digest('base64')}`);
  };
};

function compareEndpoints(a: Buffer, pa: number, b: Buffer, pb: number): number {
  return Buffer.compare(a, b) || pa - pb;
}

function resolveProtocol(doc: IngestDocument, numberField: string | undefined, nameField: string | undefined, ignoreMissing: boolean): number | undefined {
  const number = numberField ? doc.get(numberField, true) : undefined;
  if (number !== undefined && number !== null) {
    const n = integerOf(number, numberField!);
    if (!PROTOCOL_NUMBERS.has(n)) throw illegalArgument(`unsupported iana protocol number [${n}]`);
    return n;
  }
  const name = nameField ? doc.get(nameField, true) : undefined;
  if (name !== undefined && name !== null) {
    const found = PROTOCOLS.find(([p]) => p === String(name).toLowerCase());
    if (!found) throw illegalArgument(`unsupported protocol [${javaText(name)}]`);
    return found[1];
  }
  if (ignoreMissing) return undefined;
  throw illegalArgument(`cannot resolve protocol by neither iana protocol number field [${numberField ?? ''}] nor protocol name field [${nameField ?? ''}]`);
}

function resolveIp(doc: IngestDocument, field: string, ignoreMissing: boolean): Buffer | undefined {
  const value = doc.get(field, true);
  if (value === undefined || value === null || value === '') {
    if (ignoreMissing) return undefined;
    throw illegalArgument(`ip address in the field [${field}] is null or empty`);
  }
  const text = javaText(value);
  const bytes = ipBytes(text);
  if (!bytes) throw illegalArgument(`ip address [${text}] in the field [${field}] is not a valid ipv4/ipv6 address`);
  return bytes;
}

function resolveNumber(doc: IngestDocument, field: string | undefined, what: 'port' | 'type' | 'code', max: number, ignoreMissing: boolean): number | undefined {
  const value = field ? doc.get(field, true) : undefined;
  if (value === undefined || value === null) {
    if (ignoreMissing) return undefined;
    throw illegalArgument(what === 'port'
      ? `both source port and destination port cannot be null, but port in the field path [${field ?? ''}] is null`
      : `icmp message ${what} cannot be null`);
  }
  const n = integerOf(value, field!);
  if (n < 0 || n > max) {
    throw illegalArgument(what === 'port'
      ? `both source port and destination port must be between 0 and 65535, but port in the field path [${field}] is [${n}]`
      : `invalid icmp message ${what} [${n}]`);
  }
  return n;
}

function integerOf(value: unknown, field: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n)) throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to [java.lang.Integer]`);
  return n;
}

/** An address's bytes (4 for IPv4, 16 for IPv6), or undefined when the text is not one. */
function ipBytes(text: string): Buffer | undefined {
  const version = isIP(text);
  if (version === 4) return Buffer.from(text.split('.').map(Number));
  if (version !== 6) return undefined;
  let address = text;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    address = address.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}
