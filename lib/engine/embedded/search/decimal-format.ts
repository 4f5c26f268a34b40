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

/**
 * The most integer and fraction digits DecimalFormat writes of a double (its DOUBLE_INTEGER_DIGITS
 * and DOUBLE_FRACTION_DIGITS): a pattern asking for more gets these, so that a pattern of a million
 * `0`s does not make every value a million characters long.
 */
const DOUBLE_INTEGER_DIGITS = 309;
const DOUBLE_FRACTION_DIGITS = 340;
/** The most fraction digits rounding is computed to (Number.prototype.toFixed's limit); more are zeros. */
const COMPUTED_FRACTION_DIGITS = 100;

function compile(pattern: string): Pattern {
  const [pos, neg] = subpatternSplit(pattern);
  const { affixes: positive, number } = splitSubpattern(pos);
  const [intPart, fracPart = ''] = number.split('.');
  const minFrac = Math.min((fracPart.match(/0/g) ?? []).length, DOUBLE_FRACTION_DIGITS);
  return {
    positive,
    negative: neg === undefined ? undefined : splitSubpattern(neg).affixes,
    minInt: Math.min((intPart.match(/0/g) ?? []).length, DOUBLE_INTEGER_DIGITS),
    minFrac,
    maxFrac: Math.min(minFrac + (fracPart.match(/#/g) ?? []).length, DOUBLE_FRACTION_DIGITS),
    grouping: intPart.includes(',') ? intPart.length - intPart.lastIndexOf(',') - 1 : 0,
  };
}

/** `n` formatted by the DecimalFormat `pattern` ("0.00", "#,##0.0", "000", "Value is ##0.0", "0.0%"). */
export function decimalFormat(n: number, pattern: string): string {
  let p = cache.get(pattern);
  if (p === undefined) {
    p = compile(pattern);
    if (cache.size < 256 && pattern.length <= 256) cache.set(pattern, p); // a long pattern is compiled again, not held
  }
  if (Number.isNaN(n)) return 'NaN';
  const scaledValue = Math.abs(n) * p.positive.multiplier;
  let body: string;
  let zero = false;
  if (!Number.isFinite(scaledValue)) body = '∞';
  else {
    const digits = Math.min(p.maxFrac, COMPUTED_FRACTION_DIGITS);
    const factor = 10 ** digits;
    const scaled = scaledValue * factor;
    const floor = Math.floor(scaled);
    const diff = scaled - floor;
    const rounded = diff > 0.5 + 1e-9 ? floor + 1 : diff < 0.5 - 1e-9 ? floor : floor % 2 === 0 ? floor : floor + 1;
    zero = rounded === 0;
    let [i, f = ''] = (rounded / factor).toFixed(digits).split('.');
    while (f.length > p.minFrac && f.endsWith('0')) f = f.slice(0, -1);
    f = f.padEnd(p.minFrac, '0');
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
