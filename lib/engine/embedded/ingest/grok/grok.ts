/**
 * Grok expressions compiled for the linear-time engine: `%{NAME}`, `%{NAME:field}` and
 * `%{NAME:field:type}` expanded from the pattern bank (and `pattern_definitions`), Oniguruma's
 * named groups `(?<field>…)` kept as captures, atomic groups `(?>…)` read as plain groups.
 * What RE2 cannot run (lookahead, backreferences, possessive quantifiers) is refused when the
 * pipeline is created, so no tenant's pattern can stall the node.
 */
import { compileJavaRegex, InvalidPatternError, type LinearRegex } from '../../regex/index.js';

export type CaptureType = 'string' | 'int' | 'long' | 'float' | 'double' | 'boolean';

interface Capture {
  group: string;
  field: string;
  type: CaptureType;
}

export interface Grok {
  regex: LinearRegex;
  captures: Capture[];
  /** What matching costs per character of input (program size × captures): see grokMatch. */
  costPerChar: number;
}

/**
 * The longest a grok expression may be once its patterns are expanded. The expansion is measured
 * before it is built, so definitions that double at each level (30 levels: 2^30 characters) are
 * refused when the pipeline is created instead of hanging it; what stays under this is then
 * bounded again by the regex engine's program size (MAX_REGEX_EFFORT).
 */
export const MAX_GROK_EXPANDED_LENGTH = 1_000_000;

/**
 * The work one grok match may take, in characters × program size × (captures + 1) — what the
 * linear-time engine's cost grows with (about 1–10 ns a unit). Elasticsearch stops a grok match
 * after `ingest.grok.watchdog.max_execution_time` (1s); RE2 cannot be interrupted, so a match
 * whose cost would exceed about that is refused before it starts.
 */
export const MAX_GROK_MATCH_COST = 500_000_000;

export class GrokError extends Error {}

const REFERENCE = /%\{(\w+)(?::([\w@.[\]-]+))?(?::(\w+))?\}/g;
const NAMED_GROUP = /\(\?<([A-Za-z_][\w@.[\]-]*)>/g;
const TYPES = new Set<CaptureType>(['int', 'long', 'float', 'double', 'boolean']);

/** Compiles one grok expression against `bank`; GrokError for an unknown or circular pattern, or one RE2 cannot run. */
export function compileGrok(expression: string, bank: Readonly<Record<string, string>>): Grok {
  checkExpandedLength(expression, bank);
  const captures: Capture[] = [];
  const expand = (text: string, stack: string[]): string => {
    const withNamed = text.replace(NAMED_GROUP, (_m, field: string) => {
      const group = `g${captures.length}`;
      captures.push({ group, field, type: 'string' });
      return `(?P<${group}>`;
    });
    return withNamed.replace(REFERENCE, (_m, name: string, field: string | undefined, type: string | undefined) => {
      const definition = bank[name];
      if (definition === undefined) throw new GrokError(`Unable to find pattern [${name}] in Grok's pattern dictionary`);
      if (stack.includes(name)) throw new GrokError(`circular reference in pattern [${name}] back to pattern [${stack[stack.length - 1] ?? name}]`);
      if (field === undefined) return `(?:${expand(definition, [...stack, name])})`;
      const group = `g${captures.length}`;
      captures.push({ group, field, type: TYPES.has(type as CaptureType) ? (type as CaptureType) : 'string' });
      return `(?P<${group}>${expand(definition, [...stack, name])})`;
    });
  };
  const source = expand(expression, []).replace(/\(\?>/g, '(?:');
  try {
    const regex = compileJavaRegex(source);
    return { regex, captures, costPerChar: Math.max(1, regex.programSize()) * (captures.length + 1) };
  } catch (e) {
    if (e instanceof InvalidPatternError) throw new GrokError(`Invalid grok expression [${expression}]: ${e.message}`);
    throw e;
  }
}

/**
 * Refuses an expression whose expansion would exceed MAX_GROK_EXPANDED_LENGTH, measured with
 * each pattern's expanded length computed once (so the measure is linear in the definitions).
 * Unknown and circular references are left for the expansion to report.
 */
function checkExpandedLength(expression: string, bank: Readonly<Record<string, string>>): void {
  const lengths = new Map<string, number>();
  const visiting = new Set<string>();
  const lengthOf = (text: string): number => {
    let n = text.length;
    for (const m of text.matchAll(REFERENCE)) {
      const name = m[1];
      const definition = bank[name];
      if (definition === undefined || visiting.has(name)) continue;
      let inner = lengths.get(name);
      if (inner === undefined) {
        visiting.add(name);
        inner = lengthOf(definition);
        visiting.delete(name);
        lengths.set(name, inner);
      }
      n += inner + 16; // the group around it
      if (n > MAX_GROK_EXPANDED_LENGTH) break;
    }
    return n;
  };
  const length = lengthOf(expression);
  if (length > MAX_GROK_EXPANDED_LENGTH) {
    throw new GrokError(`grok expression [${expression.length > 200 ? `${expression.slice(0, 200)}...` : expression}] expands to more than [${MAX_GROK_EXPANDED_LENGTH}] characters`);
  }
}

function typed(value: string, type: CaptureType): unknown {
  switch (type) {
    case 'int':
    case 'long': {
      const n = Number(value);
      if (!/^[+-]?\d+$/.test(value)) throw new GrokError(`For input string: "${value}"`);
      return n;
    }
    case 'float':
    case 'double': {
      const n = Number(value);
      if (value.trim() === '' || Number.isNaN(n)) throw new GrokError(`For input string: "${value}"`);
      return n;
    }
    case 'boolean':
      return value.toLowerCase() === 'true';
    default:
      return value;
  }
}

/** The captured fields of the first match of `grok` in `text`, or undefined when it does not match. */
export function grokMatch(grok: Grok, text: string): Map<string, unknown> | undefined {
  const cost = text.length * grok.costPerChar;
  if (cost > MAX_GROK_MATCH_COST) {
    throw new GrokError(`grok pattern matching was refused: a field of [${text.length}] characters would cost [${cost}], more than [${MAX_GROK_MATCH_COST}] (about ingest.grok.watchdog.max_execution_time, [1s]); use a shorter field or a simpler pattern`);
  }
  const m = grok.regex.matcher(text);
  if (!m.find()) return undefined;
  const out = new Map<string, unknown>();
  for (const c of grok.captures) {
    const v = m.group(c.group);
    if (v === null || v === undefined) continue;
    if (!out.has(c.field)) out.set(c.field, typed(v, c.type));
  }
  return out;
}
