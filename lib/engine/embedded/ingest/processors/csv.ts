/**
 * `csv`: one line of CSV text split into the `target_fields`, as Elasticsearch's CsvProcessor and
 * its CsvParser do — a `quote` character (doubled inside a quoted field), a `separator`, `trim` of
 * spaces and tabs around unquoted fields, `empty_value` for empty fields (else they are not set);
 * fields beyond the targets are ignored.
 */
import { illegalArgument, javaType, type IngestDocument } from '../ingest-document.js';
import type { ProcessorFactory } from '../processor.js';

export const csv: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const quote = config.optionalString('quote', '"')!;
  if (quote.length !== 1) throw config.error('quote', 'quote has to be single character like " or \'');
  const separator = config.optionalString('separator', ',')!;
  if (separator.length !== 1) throw config.error('separator', 'separator has to be single character like , or ;');
  const trim = config.boolean('trim', false);
  const emptyValue = config.take('empty_value');
  const ignoreMissing = config.boolean('ignore_missing', false);
  const targets = config.requiredList('target_fields').map(String);
  if (targets.length === 0) throw config.error('target_fields', 'target fields list can\'t be empty');
  return (doc) => {
    const line = doc.get(field, ignoreMissing);
    if ((line === undefined || line === null) && ignoreMissing) return;
    if (line === undefined || line === null) throw illegalArgument(`field [${field}] is null, cannot process it.`);
    if (typeof line !== 'string') throw illegalArgument(`field [${field}] of type [${javaType(line)}] cannot be cast to [java.lang.String]`);
    parseCsvLine(line, { quote, separator, trim, emptyValue, targets, doc });
  };
};

interface CsvTarget {
  quote: string;
  separator: string;
  trim: boolean;
  emptyValue: unknown;
  targets: string[];
  doc: IngestDocument;
}

const isWhitespace = (c: string) => c === ' ' || c === '\t';

/** CsvParser's state machine over `line`, setting each field as it ends. */
function parseCsvLine(line: string, t: CsvTarget): void {
  let state: 'start' | 'unquoted' | 'quoted' | 'quotedEnd' = 'start';
  let start = 0;
  let i = 0;
  let field = 0;
  let escaped = '';
  /** Ends the current field at `end`; true when every target is set. */
  const setField = (end: number): boolean => {
    const value = escaped + line.slice(start, end);
    escaped = '';
    if (value.length > 0) t.doc.set(t.targets[field], value);
    else if (t.emptyValue !== undefined && t.emptyValue !== null) t.doc.set(t.targets[field], t.emptyValue);
    field++;
    return field === t.targets.length;
  };
  for (; field < t.targets.length && i < line.length; i++) {
    if (state === 'start') {
      let done = true;
      for (; i < line.length; i++) {
        const c = line[i];
        if (c === t.quote) {
          state = 'quoted';
          start = i + 1;
          done = false;
          break;
        } else if (c === t.separator) {
          start++;
          if (setField(start)) return;
        } else if (isWhitespace(c)) {
          if (t.trim) start++;
        } else {
          state = 'unquoted';
          done = false;
          break;
        }
      }
      if (done) return;
    } else if (state === 'unquoted') {
      let spaces = 0;
      for (; i < line.length; i++) {
        const c = line[i];
        if (c === '\n' || c === '\r' || c === t.quote) throw illegalArgument(`Illegal character inside unquoted field at ${i}`);
        if (t.trim && isWhitespace(c)) spaces++;
        else if (c === t.separator) {
          state = 'start';
          if (setField(i - spaces)) return;
          start = i + 1;
          break;
        } else spaces = 0;
      }
    } else if (state === 'quoted') {
      for (; i < line.length; i++) {
        if (line[i] === t.quote) {
          state = 'quotedEnd';
          break;
        }
      }
    } else {
      if (line[i] === t.quote) {
        // a doubled quote is one quote of the value
        escaped += line.slice(start, i - 1) + t.quote;
        start = i + 1;
        state = 'quoted';
        continue;
      }
      let pending = true;
      let done = true;
      for (; i < line.length; i++) {
        const c = line[i];
        if (isWhitespace(c)) {
          if (pending) {
            if (setField(i - 1)) return;
            pending = false;
          }
        } else if (c === t.separator) {
          if (pending && setField(i - 1)) return;
          start = i + 1;
          state = 'start';
          done = false;
          break;
        } else throw illegalArgument(`character '${c}' after quoted field at ${i}`);
      }
      if (done) return;
    }
  }
  if (field >= t.targets.length) return;
  if (state === 'unquoted') setField(line.length);
  else if (state === 'quotedEnd') setField(line.length - 1);
  else if (state === 'quoted') throw illegalArgument('Unmatched quote');
}
