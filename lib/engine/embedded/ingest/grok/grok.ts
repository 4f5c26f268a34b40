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
}

export class GrokError extends Error {}

const REFERENCE = /%\{(\w+)(?::([\w@.[\]-]+))?(?::(\w+))?\}/g;
const NAMED_GROUP = /\(\?<([A-Za-z_][\w@.[\]-]*)>/g;
const TYPES = new Set<CaptureType>(['int', 'long', 'float', 'double', 'boolean']);

/** Compiles one grok expression against `bank`; GrokError for an unknown or circular pattern, or one RE2 cannot run. */
export function compileGrok(expression: string, bank: Readonly<Record<string, string>>): Grok {
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
    return { regex: compileJavaRegex(source), captures };
  } catch (e) {
    if (e instanceof InvalidPatternError) throw new GrokError(`Invalid grok expression [${expression}]: ${e.message}`);
    throw e;
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
