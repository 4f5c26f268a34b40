/**
 * java.text.DecimalFormat, as Elasticsearch's `format` of numeric aggregations and
 * docvalue_fields applies it (DocValueFormat.Decimal): a positive subpattern with an optional
 * prefix and suffix (literal text, quoted with `'`, `''` for a quote), `%` and `‰` scaling the
 * number, `0`/`#` digits with `,` grouping and `.` fraction, and an optional `;` negative
 * subpattern whose prefix and suffix replace the positive ones (its digits are ignored, as
 * Java does). HALF_EVEN rounding, DecimalFormat's default. Exponents (`E`) and currency signs
 * are not read.
 */

interface Affixes {
  prefix: string;
  suffix: string;
  /** 100 for `%`, 1000 for `‰`, 1 otherwise. */
  multiplier: number;
}

interface Pattern {
  positive: Affixes;
  negative: Affixes | undefined;
  minInt: number;
  minFrac: number;
  maxFrac: number;
  grouping: number;
}

const DIGIT_CHARS = new Set(['0', '#', ',', '.']);
const cache = new Map<string, Pattern>();

/** One subpattern split into prefix, number part and suffix, quotes resolved in the affixes. */
function splitSubpattern(sub: string): { affixes: Affixes; number: string } {
  let prefix = '';
  let number = '';
  let suffix = '';
  let multiplier = 1;
  let phase: 'prefix' | 'number' | 'suffix' = 'prefix';
  for (let i = 0; i < sub.length; i++) {
    const c = sub[i];
    if (c === "'") {
      const end = sub.indexOf("'", i + 1);
      const text = end === i + 1 ? "'" : sub.slice(i + 1, end < 0 ? sub.length : end);
      i = end < 0 ? sub.length : end;
      if (phase === 'number') phase = 'suffix';
      if (phase === 'prefix') prefix += text;
      else suffix += text;
      continue;
    }
    if (phase !== 'suffix' && DIGIT_CHARS.has(c)) {
      phase = 'number';
      number += c;
      continue;
    }
    if (phase === 'number') phase = 'suffix';
    if (c === '%') multiplier = 100;
    else if (c === '\u2030') multiplier = 1000;
    if (phase === 'prefix') prefix += c;
    else suffix += c;
  }
  return { affixes: { prefix, suffix, multiplier }, number };
}

/** The `;` separating subpatterns, outside quotes. */
function subpatternSplit(pattern: string): [string, string | undefined] {
  let quoted = false;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === "'") quoted = !quoted;
    else if (pattern[i] === ';' && !quoted) return [pattern.slice(0, i), pattern.slice(i + 1)];
  }
  return [pattern, undefined];
}

function compile(pattern: string): Pattern {
  const [pos, neg] = subpatternSplit(pattern);
  const { affixes: positive, number } = splitSubpattern(pos);
  const [intPart, fracPart = ''] = number.split('.');
  const minFrac = (fracPart.match(/0/g) ?? []).length;
  return {
    positive,
    negative: neg === undefined ? undefined : splitSubpattern(neg).affixes,
    minInt: (intPart.match(/0/g) ?? []).length,
    minFrac,
    maxFrac: minFrac + (fracPart.match(/#/g) ?? []).length,
    grouping: intPart.includes(',') ? intPart.length - intPart.lastIndexOf(',') - 1 : 0,
  };
}

/** `n` formatted by the DecimalFormat `pattern` ("0.00", "#,##0.0", "000", "Value is ##0.0", "0.0%"). */
export function decimalFormat(n: number, pattern: string): string {
  let p = cache.get(pattern);
  if (p === undefined) {
    p = compile(pattern);
    if (cache.size < 256) cache.set(pattern, p);
  }
  if (Number.isNaN(n)) return 'NaN';
  const scaledValue = Math.abs(n) * p.positive.multiplier;
  let body: string;
  let zero = false;
  if (!Number.isFinite(scaledValue)) body = '∞';
  else {
    const factor = 10 ** p.maxFrac;
    const scaled = scaledValue * factor;
    const floor = Math.floor(scaled);
    const diff = scaled - floor;
    const rounded = diff > 0.5 + 1e-9 ? floor + 1 : diff < 0.5 - 1e-9 ? floor : floor % 2 === 0 ? floor : floor + 1;
    zero = rounded === 0;
    let [i, f = ''] = (rounded / factor).toFixed(p.maxFrac).split('.');
    while (f.length > p.minFrac && f.endsWith('0')) f = f.slice(0, -1);
    i = i.replace(/^0+/, '').padStart(p.minInt, '0');
    if (p.grouping > 0) i = i.replace(new RegExp(`\\B(?=(\\d{${p.grouping}})+(?!\\d))`, 'g'), ',');
    body = f ? `${i}.${f}` : i;
    if (body === '') body = '0';
  }
  // a value that rounds to zero prints unsigned; without a negative subpattern '-' goes before the prefix
  if (n >= 0 || zero) return `${p.positive.prefix}${body}${p.positive.suffix}`;
  if (p.negative) return `${p.negative.prefix}${body}${p.negative.suffix}`;
  return `-${p.positive.prefix}${body}${p.positive.suffix}`;
}
