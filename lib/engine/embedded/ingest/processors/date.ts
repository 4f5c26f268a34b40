/**
 * The date processor (reference: "Date processor"): the first of `formats` that parses the field
 * (ISO8601, UNIX, UNIX_MS, TAI64N or a java.time pattern) gives the date, read in `timezone` when
 * the text names no zone, and written to `target_field` (`@timestamp`) with `output_format`.
 */
import { DatePrinter, parseInstant, parseTimeZone, type TimeZone } from '../../mapping/index.js';
import { illegalArgument, javaText, type IngestDocument } from '../ingest-document.js';
import type { ConfigReader } from '../processor-config.js';
import type { ProcessorFactory } from '../processor.js';
import { compileStringTemplate, type Template } from '../templates.js';

const DEFAULT_OUTPUT_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";
/** Locales whose month and day names the parser knows (English); others are refused rather than misread. */
const ENGLISH_LOCALES = new Set(['en', 'en_us', 'en-us', 'en_gb', 'en-gb', 'english', 'root', '']);

type Parser = (text: string, zone: TimeZone) => number | undefined;

const ZONED_TEXT = /(?:Z|[+-]\d{2}(?::?\d{2})?|\b(?:UTC|GMT))$/i;
const ZONE_LETTERS = /[XxZzVO]/;

/** A zone-less wall time read as UTC, moved into `zone`. */
function inZone(millis: number, zone: TimeZone): number {
  return zone.id === 'UTC' || zone.id === 'Z' ? millis : zone.toUtc(millis);
}

function formatParser(format: string): Parser {
  switch (format) {
    case 'ISO8601':
      return (text, zone) => {
        const i = parseInstant(text, 'iso8601');
        return i === undefined ? undefined : ZONED_TEXT.test(text) ? i.millis : inZone(i.millis, zone);
      };
    case 'UNIX':
      return (text) => (/^\s*-?\d+(?:\.\d+)?\s*$/.test(text) ? Math.trunc(Number(text) * 1000) : undefined);
    case 'UNIX_MS':
      return (text) => (/^\s*-?\d+\s*$/.test(text) ? Number(text) : undefined);
    case 'TAI64N':
      return (text) => {
        const hex = text.startsWith('@') ? text.slice(1) : text;
        if (!/^[0-9a-fA-F]{24}$/.test(hex)) return undefined;
        const base = parseInt(hex.slice(1, 16), 16);
        const rest = parseInt(hex.slice(16, 24), 16);
        return base * 1000 - 10000 + Math.floor(rest / 1_000_000);
      };
    default: {
      const zoned = ZONE_LETTERS.test(format.replace(/'[^']*'/g, ''));
      return (text, zone) => {
        const i = parseInstant(text, format);
        return i === undefined ? undefined : zoned ? i.millis : inZone(i.millis, zone);
      };
    }
  }
}

function zoneTemplate(config: ConfigReader): (doc: IngestDocument) => TimeZone {
  const raw = config.optionalString('timezone');
  if (raw === undefined) return () => parseTimeZone('UTC');
  const template: Template = compileStringTemplate(raw, config, 'timezone');
  if (!raw.includes('{{')) {
    const zone = parseTimeZone(raw);
    return () => zone;
  }
  return (doc) => parseTimeZone(template(doc));
}

export const date: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const target = config.optionalString('target_field', '@timestamp')!;
  const formats = config.requiredList('formats').map(String);
  const zoneOf = zoneTemplate(config);
  const locale = config.optionalString('locale');
  if (locale !== undefined && !locale.includes('{{') && !ENGLISH_LOCALES.has(locale.toLowerCase())) {
    throw config.error('locale', `locale [${locale}] is not supported by the embedded engine (English month and day names only)`);
  }
  const outputFormat = config.optionalString('output_format', DEFAULT_OUTPUT_FORMAT)!;
  try {
    new DatePrinter(outputFormat).print(0);
  } catch (e) {
    throw config.error('output_format', `invalid output format [${outputFormat}]`);
  }
  const parsers = formats.map(formatParser);
  return (doc) => {
    const value = doc.get(field);
    const text = javaText(value);
    const zone = zoneOf(doc);
    for (const parse of parsers) {
      let millis: number | undefined;
      try {
        millis = parse(text, zone);
      } catch {
        millis = undefined;
      }
      if (millis !== undefined && Number.isFinite(millis)) {
        doc.set(target, new DatePrinter(outputFormat, zone).print(millis));
        return;
      }
    }
    throw illegalArgument(`unable to parse date [${text}]`);
  };
};

/**
 * `date_index_name`: the document goes to an index named by its date — `_index` becomes the date
 * math name `<{prefix}{{date}||/{rounding}{{format}|{zone}}}>` (the date as `uuuu-MM-dd'T'HH:mm:ss.SSS`
 * in `timezone`), which the write resolves as any date math index name, as Elasticsearch's
 * DateIndexNameProcessor does. `date_formats` default to `yyyy-MM-dd'T'HH:mm:ss.SSSXX`.
 */
export const dateIndexName: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const prefix = compileStringTemplate(config.optionalString('index_name_prefix', '')!, config, 'index_name_prefix');
  const rounding = compileStringTemplate(config.requiredString('date_rounding'), config, 'date_rounding');
  const nameFormat = compileStringTemplate(config.optionalString('index_name_format', 'yyyy-MM-dd')!, config, 'index_name_format');
  const zone = parseTimeZone(config.optionalString('timezone', 'UTC')!);
  const locale = config.optionalString('locale');
  if (locale !== undefined && !ENGLISH_LOCALES.has(locale.toLowerCase())) {
    throw config.error('locale', `locale [${locale}] is not supported by the embedded engine (English month and day names only)`);
  }
  const formats = config.optionalList('date_formats', true)?.map(String) ?? ["yyyy-MM-dd'T'HH:mm:ss.SSSXX"];
  const parsers = formats.map(formatParser);
  const printer = new DatePrinter("uuuu-MM-dd'T'HH:mm:ss.SSS", zone);
  const zoneName = zone.id === 'Z' ? 'UTC' : zone.id;
  return (doc) => {
    const value = doc.get(field);
    const text = value === null ? 'null' : javaText(value);
    let millis: number | undefined;
    for (const parse of parsers) {
      try {
        millis = parse(text, zone);
      } catch {
        millis = undefined;
      }
      if (millis !== undefined && Number.isFinite(millis)) break;
      millis = undefined;
    }
    if (millis === undefined) throw illegalArgument(`unable to parse date [${text}]`);
    doc.set('_index', `<${prefix(doc)}{${printer.print(millis)}||/${rounding(doc)}{${nameFormat(doc)}|${zoneName}}}>`);
  };
};
