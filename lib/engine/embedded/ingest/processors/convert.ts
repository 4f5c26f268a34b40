/** The convert processor (reference: "Convert processor"): each type's conversion as Elasticsearch's ConvertProcessor.Type. */
import { isIP } from 'node:net';
import { illegalArgument, javaText } from '../ingest-document.js';
import type { ProcessorFactory } from '../processor.js';
import { fieldValue } from './string-processors.js';

type Conversion = (value: unknown) => unknown;

const INT_RANGE = 2147483647;

/** Java's Integer/Long.decode for `0x` hex, parseInt/parseLong otherwise. */
function integral(value: unknown, type: 'integer' | 'long'): number {
  const text = javaText(value);
  const m = /^([+-]?)(?:0[xX]([0-9a-fA-F]+)|(\d+))$/.exec(text);
  const n = m ? Number(m[1] === '-' ? -1 : 1) * (m[2] !== undefined ? parseInt(m[2], 16) : Number(m[3])) : NaN;
  const limit = type === 'integer' ? INT_RANGE : Number.MAX_SAFE_INTEGER;
  if (!Number.isFinite(n) || n > limit || n < -limit - (type === 'integer' ? 1 : 0)) {
    throw illegalArgument(`unable to convert [${text}] to ${type}`);
  }
  return n;
}

function floating(value: unknown, type: 'float' | 'double'): number {
  const text = javaText(value).trim();
  if (!/^[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[fFdD]?$/.test(text)) throw illegalArgument(`unable to convert [${text}] to ${type}`);
  // a float keeps the decimal it was written as (Java's Float.toString prints the shortest such text)
  return Number(text.replace(/[fFdD]$/, ''));
}

function bool(value: unknown): boolean {
  const text = javaText(value);
  if (text.toLowerCase() === 'true') return true;
  if (text.toLowerCase() === 'false') return false;
  throw illegalArgument(`[${text}] is not a boolean value, cannot convert to boolean`);
}

const CONVERSIONS: Record<string, Conversion> = {
  integer: (v) => integral(v, 'integer'),
  long: (v) => integral(v, 'long'),
  float: (v) => floating(v, 'float'),
  double: (v) => floating(v, 'double'),
  boolean: bool,
  string: javaText,
  ip: (v) => {
    const text = javaText(v);
    if (!isIP(text)) throw illegalArgument(`'${text}' is not an IP string literal.`);
    return text;
  },
  auto: (v) => {
    if (typeof v !== 'string') return v;
    for (const attempt of [bool, (x: unknown) => integral(x, 'integer'), (x: unknown) => integral(x, 'long'), (x: unknown) => floating(x, 'float'), (x: unknown) => floating(x, 'double')]) {
      try {
        return attempt(v);
      } catch {
        // next type
      }
    }
    return v;
  },
};

export const convert: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const typeName = config.requiredString('type');
  const conversion = CONVERSIONS[typeName.toLowerCase()];
  if (!conversion) throw config.error('type', `type [${typeName}] not supported, cannot convert field.`);
  const target = config.optionalString('target_field', field)!;
  const ignoreMissing = config.boolean('ignore_missing', false);
  return (doc) => {
    const value = fieldValue(doc, field, ignoreMissing);
    if (value === undefined) return;
    doc.set(target, Array.isArray(value) ? value.map(conversion) : conversion(value));
  };
};
