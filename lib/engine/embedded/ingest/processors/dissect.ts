/**
 * The dissect processor (reference: "Dissect processor"): a pattern of `%{key}`s and the literal
 * delimiters between them splits a string without regular expressions. Modifiers: `%{+key}`
 * appends (with `/n` ordering and `append_separator`), `%{?key}` and `%{}` skip, `%{*key}` /
 * `%{&key}` name a field by one value and fill it with another, `->` skips repeated delimiters.
 */
import { EsError } from '../../../../errors/index.js';
import { illegalArgument, javaType } from '../ingest-document.js';
import type { ConfigReader } from '../processor-config.js';
import type { ProcessorFactory } from '../processor.js';
import { fieldValue } from './string-processors.js';

type Modifier = 'none' | 'append' | 'skip' | 'reference_name' | 'reference_value';

interface Key {
  name: string;
  modifier: Modifier;
  order: number;
  rightPadding: boolean;
  /** The literal after this key ('' for the last key: it takes the rest). */
  delimiter: string;
}

interface DissectPattern {
  prefix: string;
  keys: Key[];
}

const KEY = /%\{([^}]*)\}/g;

function parseKey(text: string, config: ConfigReader, pattern: string): Omit<Key, 'delimiter'> {
  let body = text;
  let rightPadding = false;
  if (body.endsWith('->')) {
    rightPadding = true;
    body = body.slice(0, -2);
  }
  let modifier: Modifier = 'none';
  const first = body[0];
  if (first === '+') modifier = 'append';
  else if (first === '?') modifier = 'skip';
  else if (first === '*') modifier = 'reference_name';
  else if (first === '&') modifier = 'reference_value';
  if (modifier !== 'none') body = body.slice(1);
  let order = 0;
  const ordered = /^(.*)\/(\d+)$/.exec(body);
  if (ordered) {
    if (modifier !== 'append') throw config.error('pattern', `Unable to parse pattern [${pattern}]: the /n order modifier needs the + append modifier`);
    body = ordered[1];
    order = Number(ordered[2]);
  }
  if (body === '') modifier = 'skip';
  if (/[+?*&]|->/.test(body)) throw config.error('pattern', `Unable to parse pattern [${pattern}]: more than one modifier in [%{${text}}]`);
  return { name: body, modifier, order, rightPadding };
}

function parsePattern(pattern: string, config: ConfigReader): DissectPattern {
  const keys: Key[] = [];
  let prefix = '';
  let last = 0;
  let pending: Omit<Key, 'delimiter'> | undefined;
  for (const m of pattern.matchAll(KEY)) {
    const literal = pattern.slice(last, m.index);
    if (pending) {
      if (literal === '') throw config.error('pattern', `Unable to parse pattern [${pattern}]: keys need a delimiter between them`);
      keys.push({ ...pending, delimiter: literal });
    } else prefix = literal;
    pending = parseKey(m[1], config, pattern);
    last = m.index! + m[0].length;
  }
  if (!pending) throw config.error('pattern', `Unable to parse any keys from the pattern [${pattern}]`);
  keys.push({ ...pending, delimiter: pattern.slice(last) });
  const names = keys.filter((k) => k.modifier === 'reference_name').map((k) => k.name);
  const values = keys.filter((k) => k.modifier === 'reference_value').map((k) => k.name);
  if (names.length !== values.length || names.some((n) => !values.includes(n))) {
    throw config.error('pattern', `Unable to parse pattern [${pattern}]: every %{*key} needs its %{&key}`);
  }
  return { prefix, keys };
}

function noMatch(pattern: string, value: string): EsError {
  return new EsError(500, 'dissect_exception', `Unable to find match for dissect pattern: ${pattern} against source: ${value}`);
}

/** The key → value pairs of `value` under the pattern, or a dissect_exception. */
function dissect(p: DissectPattern, pattern: string, value: string, separator: string): Map<string, string> {
  if (!value.startsWith(p.prefix)) throw noMatch(pattern, value);
  let at = p.prefix.length;
  const raw: Array<{ key: Key; value: string }> = [];
  p.keys.forEach((key, i) => {
    const lastKey = i === p.keys.length - 1;
    let end: number;
    if (key.delimiter === '') end = lastKey ? value.length : at;
    else {
      end = value.indexOf(key.delimiter, at);
      if (end < 0) throw noMatch(pattern, value);
    }
    raw.push({ key, value: value.slice(at, end) });
    at = end + key.delimiter.length;
    if (key.rightPadding && key.delimiter !== '') while (value.startsWith(key.delimiter, at)) at += key.delimiter.length;
    if (lastKey && key.delimiter !== '' && at !== value.length) {
      // the last delimiter must end the text; what follows belongs to no key
      throw noMatch(pattern, value);
    }
  });
  const out = new Map<string, string>();
  const appends = new Map<string, Array<{ order: number; seq: number; value: string }>>();
  const refNames = new Map<string, string>();
  const refValues = new Map<string, string>();
  raw.forEach(({ key, value: v }, seq) => {
    switch (key.modifier) {
      case 'skip':
        return;
      case 'append': {
        const list = appends.get(key.name) ?? [];
        list.push({ order: key.order, seq, value: v });
        appends.set(key.name, list);
        if (!out.has(key.name)) out.set(key.name, '');
        return;
      }
      case 'reference_name':
        refNames.set(key.name, v);
        return;
      case 'reference_value':
        refValues.set(key.name, v);
        return;
      case 'none':
        if (appends.has(key.name)) {
          appends.get(key.name)!.push({ order: 0, seq, value: v });
        } else out.set(key.name, v);
    }
  });
  for (const [name, parts] of appends) {
    parts.sort((a, b) => a.order - b.order || a.seq - b.seq);
    out.set(name, parts.map((x) => x.value).join(separator));
  }
  for (const [ref, name] of refNames) out.set(name, refValues.get(ref) ?? '');
  return out;
}

export const dissectProcessor: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const pattern = config.requiredString('pattern');
  const separator = config.optionalString('append_separator', '')!;
  const ignoreMissing = config.boolean('ignore_missing', false);
  const parsed = parsePattern(pattern, config);
  // a plain key written after appends to it joins them (`%{+a} %{a}` is one append group)
  for (const k of parsed.keys) if (k.modifier === 'none' && parsed.keys.some((o) => o.modifier === 'append' && o.name === k.name)) k.modifier = 'append';
  return (doc) => {
    const value = fieldValue(doc, field, ignoreMissing);
    if (value === undefined) return;
    if (typeof value !== 'string') throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to [java.lang.String]`);
    for (const [k, v] of dissect(parsed, pattern, value, separator)) doc.set(k, v);
  };
};
