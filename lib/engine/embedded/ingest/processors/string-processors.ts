/**
 * Processors over string fields: lowercase, uppercase, trim, split, join, gsub, urldecode, bytes. A string field,
 * or a list of strings, is read from `field` and written to `target_field` (default: `field`).
 * Regular expressions (split's `separator`, gsub's `pattern`) run on the linear-time engine.
 */
import { compileJavaRegex, findAll, InvalidPatternError, javaReplacement } from '../../regex/index.js';
import { illegalArgument, javaText, javaType, type IngestDocument } from '../ingest-document.js';
import { INGEST_ELEMENT_BYTES, INGEST_REPLACEMENT_BYTES, type IngestBudget } from '../ingest-budget.js';
import type { ConfigReader } from '../processor-config.js';
import type { ProcessorBody, ProcessorFactory } from '../processor.js';
import { HtmlStripCharFilter } from '../../analysis/index.js';
import { EsError } from '../../../../errors/index.js';

/** A processor that maps each string of `field` (a string or a list of strings) to a new value. */
function stringProcessor(config: ConfigReader, transform: (s: string) => unknown): ProcessorBody {
  return stringProcessorWith(config, config.requiredString('field'), transform);
}

/** The value of `field`; undefined when it is missing or null and `ignoreMissing`, else ES's errors. */
export function fieldValue(doc: IngestDocument, field: string, ignoreMissing: boolean): unknown {
  const value = doc.get(field, ignoreMissing);
  if (value === undefined || value === null) {
    if (ignoreMissing) return undefined;
    throw illegalArgument(`field [${field}] is null, cannot process it.`);
  }
  return value;
}

export const lowercase: ProcessorFactory = (config) => stringProcessor(config, (s) => s.toLowerCase());
export const uppercase: ProcessorFactory = (config) => stringProcessor(config, (s) => s.toUpperCase());
export const trim: ProcessorFactory = (config) => stringProcessor(config, (s) => s.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, ''));

/** A Java regex option compiled on the linear-time engine; a pattern it cannot run is a configuration error. */
export function regexOption(config: ConfigReader, property: string, source: string) {
  try {
    return compileJavaRegex(source);
  } catch (e) {
    if (e instanceof InvalidPatternError) throw config.error(property, `Invalid regex pattern [${source}]: ${e.message}`);
    throw e;
  }
}

/**
 * Java's `String.split(regex, limit)`: limit 0 drops trailing empty strings, -1 keeps them.
 * `budget`, when given, is charged for each piece as it is cut (split by "" makes one per character).
 */
export function javaSplit(text: string, re: ReturnType<typeof compileJavaRegex>, keepTrailing: boolean, budget?: IngestBudget, processor = 'split'): string[] {
  if (re.pattern() === '') {
    // Java splits "abc" by "" into its characters: charged (and refused) up front, not piece by piece
    budget?.charge(processor, text.length * (INGEST_ELEMENT_BYTES + 1));
    const chars = text.split('');
    if (keepTrailing) chars.push('');
    return chars;
  }
  const out: string[] = [];
  let last = 0;
  for (const m of findAll(re, text)) {
    if (m.end() === 0) continue; // a zero-width match at the start yields no leading empty string
    if (m.start() === m.end() && m.start() >= text.length) break;
    budget?.charge(processor, INGEST_ELEMENT_BYTES + m.start() - last);
    out.push(text.slice(last, m.start()));
    last = m.end();
  }
  out.push(text.slice(last));
  if (out.length === 1 && last === 0) return [text];
  if (!keepTrailing) while (out.length && out[out.length - 1] === '') out.pop();
  return out;
}

export const split: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const separator = config.requiredString('separator');
  const re = regexOption(config, 'separator', separator);
  const ignoreMissing = config.boolean('ignore_missing', false);
  const preserveTrailing = config.boolean('preserve_trailing', false);
  const target = config.optionalString('target_field', field)!;
  return (doc) => {
    const value = fieldValue(doc, field, ignoreMissing);
    if (value === undefined) return;
    if (typeof value !== 'string') throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to [java.lang.String]`);
    doc.set(target, javaSplit(value, re, preserveTrailing, doc.budget));
  };
};

export const join: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const separator = config.requiredString('separator');
  const target = config.optionalString('target_field', field)!;
  return (doc) => {
    const value = doc.get(field);
    if (value === null) throw illegalArgument(`field [${field}] is null, cannot join.`);
    if (!Array.isArray(value)) throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to [java.util.List]`);
    const joined = value.map(javaText).join(separator);
    doc.budget.charge('join', joined.length);
    doc.set(target, joined);
  };
};

export const gsub: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const pattern = config.requiredString('pattern');
  const re = regexOption(config, 'pattern', pattern);
  const rawReplacement = config.take('replacement');
  if (rawReplacement === undefined) throw config.error('replacement', 'required property is missing');
  let replace: (groups: ReadonlyArray<string | null | undefined>) => string;
  try {
    replace = javaReplacement(String(rawReplacement), re);
  } catch (e) {
    throw config.error('replacement', e instanceof Error ? e.message : String(e));
  }
  return stringProcessorWith(config, field, (s, doc) => {
    // the output is measured as it grows, so an amplifying replacement is refused before it is built
    const room = doc.budget.remaining();
    let used = 0;
    let out = '';
    let last = 0;
    for (const m of findAll(re, s)) {
      const groups: Array<string | null> = [];
      for (let g = 0; g <= re.groupCount(); g++) groups.push(m.group(g));
      out += s.slice(last, m.start()) + replace(groups);
      last = m.end();
      used += INGEST_REPLACEMENT_BYTES;
      if (used + out.length + s.length - last > room) throw doc.budget.exceeded('gsub', doc.budget.maxBytes - room + used + out.length + s.length - last);
    }
    out += s.slice(last);
    doc.budget.charge('gsub', used + out.length);
    return out;
  });
};

/** stringProcessor for a factory that has already read `field`. */
function stringProcessorWith(config: ConfigReader, field: string, transform: (s: string, doc: IngestDocument) => unknown): ProcessorBody {
  const ignoreMissing = config.boolean('ignore_missing', false);
  const target = config.optionalString('target_field', field)!;
  return (doc) => {
    const value = fieldValue(doc, field, ignoreMissing);
    if (value === undefined) return;
    if (Array.isArray(value)) {
      doc.set(target, value.map((v) => {
        if (typeof v !== 'string') throw illegalArgument(`value [${javaText(v)}] of type [${javaType(v)}] in list field [${field}] cannot be cast to [java.lang.String]`);
        return transform(v, doc);
      }));
    } else if (typeof value === 'string') doc.set(target, transform(value, doc));
    else throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to [java.lang.String]`);
  };
}

/** `html_strip`: the string without its HTML tags and with its entities decoded, as the `html_strip` character filter reads it. */
export const htmlStrip: ProcessorFactory = (config) => {
  const filter = new HtmlStripCharFilter();
  return stringProcessor(config, (s) => filter.apply(s).text);
};

/** `urldecode`: the string decoded as Java's `URLDecoder.decode(value, UTF_8)` decodes it (`+` is a space). */
export const urldecode: ProcessorFactory = (config) => stringProcessor(config, javaUrlDecode);

/** `%XX` runs are UTF-8 bytes (a malformed sequence decodes to U+FFFD); a bad or cut escape is refused as ES refuses it. */
function javaUrlDecode(s: string): string {
  const utf8 = new TextDecoder('utf-8');
  let out = '';
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '+') {
      out += ' ';
      i++;
    } else if (c === '%') {
      const bytes: number[] = [];
      while (i < s.length && s[i] === '%') {
        const hex = s.slice(i + 1, i + 3);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw illegalArgument('Could not URL-decode value.');
        bytes.push(parseInt(hex, 16));
        i += 3;
      }
      out += utf8.decode(Uint8Array.from(bytes));
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const BYTE_UNITS: Array<[string, number]> = [
  ['pb', 1024 ** 5], ['p', 1024 ** 5], ['tb', 1024 ** 4], ['t', 1024 ** 4], ['gb', 1024 ** 3], ['g', 1024 ** 3],
  ['mb', 1024 ** 2], ['m', 1024 ** 2], ['kb', 1024], ['k', 1024], ['b', 1],
];

/** `bytes`: a human size (`1kb`, `2.5mb`, `-1`) as its number of bytes, as ByteSizeValue.parseBytesSizeValue reads it. */
export const bytes: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  return stringProcessorWith(config, field, (s) => byteCount(s, field));
};

function byteCount(value: string, field: string): number {
  const lower = value.trim().toLowerCase();
  const unit = BYTE_UNITS.find(([suffix]) => lower.endsWith(suffix));
  if (unit === undefined) {
    if (lower === '-1' || lower === '0') return Number(lower);
    throw new EsError(400, 'parse_exception', `failed to parse setting [${field}] with value [${value}] as a size in bytes: unit is missing or unrecognized`);
  }
  const number = lower.slice(0, -unit[0].length).trim();
  // Long.parseLong, else a fraction (Double.parseDouble) truncated to whole bytes
  if (/^[+-]?\d+$/.test(number)) return Number(number) * unit[1];
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(number)) return Math.trunc(Number(number) * unit[1]);
  throw new EsError(400, 'parse_exception', `failed to parse [${value}]`);
}
