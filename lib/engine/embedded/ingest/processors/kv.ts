/**
 * The kv processor (reference: "KV processor"): `key=value` pairs split out of a string.
 * `field_split` and `value_split` are regular expressions run on the linear-time engine.
 */
import { illegalArgument } from '../ingest-document.js';
import type { ProcessorFactory } from '../processor.js';
import { fieldValue, javaSplit, regexOption } from './string-processors.js';

/** `trim_key` / `trim_value`: the characters to strip from both ends. */
function trimmer(chars: string | undefined): (s: string) => string {
  if (!chars) return (s) => s;
  const set = new Set(chars);
  return (s) => {
    let a = 0;
    let b = s.length;
    while (a < b && set.has(s[a])) a++;
    while (b > a && set.has(s[b - 1])) b--;
    return s.slice(a, b);
  };
}

const BRACKETS: Record<string, string> = { '(': ')', '<': '>', '[': ']', '"': '"', "'": "'" };

function stripBrackets(s: string): string {
  if (s.length >= 2 && BRACKETS[s[0]] === s[s.length - 1]) return s.slice(1, -1);
  if (s.length >= 1 && BRACKETS[s[0]] !== undefined) s = s.slice(1);
  if (s.length >= 1 && Object.values(BRACKETS).includes(s[s.length - 1])) s = s.slice(0, -1);
  return s;
}

export const kv: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const fieldSplit = config.requiredString('field_split');
  const valueSplit = config.requiredString('value_split');
  const fieldRe = regexOption(config, 'field_split', fieldSplit);
  const valueRe = regexOption(config, 'value_split', valueSplit);
  const targetField = config.optionalString('target_field');
  const include = config.optionalList('include_keys')?.map(String);
  const exclude = config.optionalList('exclude_keys')?.map(String);
  const ignoreMissing = config.boolean('ignore_missing', false);
  const prefix = config.optionalString('prefix', '')!;
  const trimKey = trimmer(config.optionalString('trim_key'));
  const trimValue = trimmer(config.optionalString('trim_value'));
  const strip = config.boolean('strip_brackets', false);
  const includeSet = include ? new Set(include) : undefined;
  const excludeSet = exclude ? new Set(exclude) : undefined;
  const pathPrefix = targetField === undefined ? '' : `${targetField}.`;
  return (doc) => {
    const value = fieldValue(doc, field, ignoreMissing);
    if (value === undefined) return;
    for (const pair of javaSplit(String(value), fieldRe, false, doc.budget, 'kv')) {
      const parts = splitOnce(pair, valueRe);
      if (parts.length !== 2) throw illegalArgument(`field [${field}] does not contain value_split [${valueSplit}]`);
      const key = trimKey(parts[0]);
      if (includeSet && !includeSet.has(key)) continue;
      if (excludeSet?.has(key)) continue;
      let v = trimValue(parts[1]);
      if (strip) v = stripBrackets(v);
      const path = pathPrefix + prefix + key;
      doc.set(path, v, doc.has(path));
    }
  };
};

/** Java's `split(regex, 2)`: at the first match only. */
function splitOnce(text: string, re: Parameters<typeof javaSplit>[1]): string[] {
  const m = re.matcher(text);
  if (!m.find()) return [text];
  return [text.slice(0, m.start()), text.slice(m.end())];
}
