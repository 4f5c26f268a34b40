/** The json processor (reference: "JSON processor"): a JSON string parsed into a field, or into the document's root. */
import { illegalArgument, isMap, type JsonMap } from '../ingest-document.js';
import type { ProcessorFactory } from '../processor.js';

/** Jackson's default `StreamReadConstraints` nesting limit, which Elasticsearch's parser keeps. */
export const MAX_JSON_NESTING_DEPTH = 1000;

/**
 * Refuses text nested deeper than Jackson allows, with Jackson's message, before anything is
 * parsed: a value nested 100,000 deep would otherwise overflow the stack of whatever walks it next.
 */
function checkNestingDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_NESTING_DEPTH) {
        throw illegalArgument(`com.fasterxml.jackson.core.exc.StreamConstraintsException: Document nesting depth (${depth}) exceeds the maximum allowed (${MAX_JSON_NESTING_DEPTH}, from \`StreamReadConstraints.getMaxNestingDepth()\`)`);
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

function parseJson(text: unknown, allowDuplicateKeys: boolean, strict: boolean): unknown {
  if (typeof text !== 'string') return text;
  checkNestingDepth(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    if (!strict) {
      // lenient parsing reads the first JSON value and ignores what follows it
      const first = /^\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text);
      if (first) return JSON.parse(first[1]);
    }
    throw illegalArgument(`com.fasterxml.jackson.core.JsonParseException: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!allowDuplicateKeys && /"([^"\\]|\\.)*"\s*:/.test(text)) checkDuplicateKeys(text);
  return parsed;
}

/** Refuses a duplicate key in any object, as Jackson's strict duplicate detection. */
function checkDuplicateKeys(text: string): void {
  const stack: Array<Set<string>> = [];
  const token = /"((?:[^"\\]|\\.)*)"(\s*:)?|[{}[\]]/g;
  for (let m = token.exec(text); m; m = token.exec(text)) {
    if (m[0] === '{') stack.push(new Set());
    else if (m[0] === '}') stack.pop();
    else if (m[2] !== undefined) {
      const keys = stack[stack.length - 1];
      const key = JSON.parse(`"${m[1]}"`) as string;
      if (keys?.has(key)) throw illegalArgument(`com.fasterxml.jackson.core.JsonParseException: Duplicate field '${key}'`);
      keys?.add(key);
    }
  }
}

function merge(target: JsonMap, from: JsonMap): void {
  for (const [k, v] of Object.entries(from)) {
    if (isMap(v) && isMap(target[k])) merge(target[k] as JsonMap, v);
    else target[k] = v;
  }
}

export const json: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const targetField = config.optionalString('target_field');
  const addToRoot = config.boolean('add_to_root', false);
  const strategy = config.optionalString('add_to_root_conflict_strategy');
  const allowDuplicateKeys = config.boolean('allow_duplicate_keys', false);
  const strict = config.boolean('strict_json_parsing', true);
  if (addToRoot && targetField !== undefined) throw config.error('target_field', 'Cannot set a target field while also setting `add_to_root` to true');
  if (strategy !== undefined && !addToRoot) throw config.error('add_to_root_conflict_strategy', 'Cannot set `add_to_root_conflict_strategy` if `add_to_root` is false');
  if (strategy !== undefined && strategy !== 'replace' && strategy !== 'merge') {
    throw config.error('add_to_root_conflict_strategy', `conflict strategy [${strategy}] not supported, cannot convert field.`);
  }
  const target = targetField ?? field;
  return (doc) => {
    const text = doc.get(field);
    if (typeof text === 'string') doc.budget.charge('json', text.length); // what it parses to is about as large
    const value = parseJson(text, allowDuplicateKeys, strict);
    if (!addToRoot) {
      doc.set(target, value);
      return;
    }
    if (!isMap(value)) throw illegalArgument('cannot add non-map fields to root of document');
    if (strategy === 'merge') merge(doc.source, value);
    else for (const [k, v] of Object.entries(value)) doc.set(k, v);
  };
};
