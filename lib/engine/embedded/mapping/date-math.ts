import { EsError } from '../../../errors/index.js';
import { addUnits, roundDown } from './calendar.js';
import { DEFAULT_DATE_FORMAT, parseInstant } from './date-format.js';
import { NAMED_PATTERNS, OPTIONAL_TIME_NAMES, tokenize, type Token } from './date-pattern.js';
import type { Instant } from './instant.js';
import { UTC, type TimeZone } from './time-zone.js';

export interface DateMathOptions {
  /** The format of the date before `||`, alternatives joined by `||`; the `date` field default when absent. */
  format?: string;
  /** The zone of dates written without an offset, and of the calendar the operations count in; UTC when absent. */
  zone?: TimeZone;
  /**
   * For the bounds that include their whole unit (`lte`) or exclude it (`gt`): `/unit` rounds to
   * the unit's last millisecond, and a date written without time (`2024-01-31`) to its day's last
   * nanosecond, as Elasticsearch does.
   */
  roundUp?: boolean;
  /** Epoch millis `now` stands for. */
  now: number;
}

const DATE_MATH_UNITS = new Set(['y', 'M', 'w', 'd', 'h', 'H', 'm', 's']);

/**
 * The last nanosecond of a millisecond: where a date written without time ends when rounded up (ES's
 * round-up parser fills in 23:59:59.999999999). `/unit` instead ends at the unit's last millisecond
 * (.999000000), as JavaDateMathParser subtracts one millisecond; only date_nanos fields tell them apart.
 */
const LAST_NANOS = 999_999;

const DATE_WITHOUT_TIME = /^\d{4}-\d{2}-\d{2}$/;
/** An ISO date's offset, which can only follow its time. */
const ISO_OFFSET = /[T ].*(?:Z|[+-]\d{2}(?::?\d{2})?)$/;
const PATTERN_OFFSET = /(?:Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)$/i;
const ZONE_LETTERS = new Set(['X', 'x', 'Z', 'z', 'V', 'O']);

/**
 * A date or date math expression → its instant, to the nanosecond; ES's parse_exception when it is
 * neither. This is Elasticsearch's date math (its JavaDateMathParser), the one reading of dates in
 * requests: range query bounds, decay origins, aggregation bounds and ranges, `missing` values,
 * `after` keys.
 *
 * `now`, or a date in the format followed by `||`, then operations applied left to right in the
 * time zone: `+1d`, `-2h`, `+M` (one unit) add; `/d` rounds down to the start of the unit, or with
 * `roundUp` to its end. Units: y M w d h H m s. For example `now-1d/d`, `2024-01-31||+1M/M`.
 */
export function parseDateMath(value: string | number, options: DateMathOptions): Instant {
  const format = options.format ?? DEFAULT_DATE_FORMAT;
  const zone = options.zone ?? UTC;
  const roundUp = options.roundUp ?? false;
  const unparsable = () => new EsError(400, 'parse_exception', `failed to parse date field [${String(value)}] with format [${format}]`);
  if (typeof value === 'number') {
    const epoch = parseInstant(value, epochFormatOfNumbers(format));
    if (epoch === undefined) throw unparsable();
    return epoch;
  }
  let start: Instant;
  let math: string;
  if (value.startsWith('now')) {
    start = { millis: options.now, nanos: 0 };
    math = value.slice('now'.length);
  } else {
    const separator = value.indexOf('||');
    const date = separator < 0 ? value : value.slice(0, separator);
    const parsed = parseDate(date, format, zone);
    if (parsed === undefined) throw unparsable();
    if (separator < 0) return roundUp && DATE_WITHOUT_TIME.test(date) ? endOfDay(parsed, zone) : parsed;
    start = parsed;
    math = value.slice(separator + 2);
  }
  return applyMath(math, start, roundUp, zone);
}

/** How a JSON number reads as a date: epoch seconds when the format takes those and not millis, else epoch millis. */
function epochFormatOfNumbers(format: string): 'epoch_millis' | 'epoch_second' {
  const alternatives = format.split('||').map((f) => f.trim());
  return alternatives.includes('epoch_second') && !alternatives.includes('epoch_millis') ? 'epoch_second' : 'epoch_millis';
}

/**
 * A date in the first alternative of the format that parses it. Epoch numbers and dates written
 * with an offset are instants; any other date is a wall time in the zone.
 */
function parseDate(text: string, format: string, zone: TimeZone): Instant | undefined {
  for (const alternative of format.split('||')) {
    const parsed = parseInstant(text, alternative);
    if (parsed === undefined) continue;
    if (isEpochFormat(alternative) || carriesOffset(text, alternative)) return parsed;
    return { millis: zone.toUtc(parsed.millis), nanos: parsed.nanos };
  }
  return undefined;
}

function isEpochFormat(alternative: string): boolean {
  const name = alternative.trim();
  return name === 'epoch_millis' || name === 'epoch_second';
}

function carriesOffset(text: string, alternative: string): boolean {
  const name = alternative.trim();
  if (OPTIONAL_TIME_NAMES.has(name)) return ISO_OFFSET.test(text);
  return hasZoneField(tokenize(NAMED_PATTERNS[name] ?? name)) && PATTERN_OFFSET.test(text);
}

function hasZoneField(tokens: readonly Token[]): boolean {
  return tokens.some((t) => (t.kind === 'opt' ? hasZoneField(t.tokens) : t.kind === 'field' && ZONE_LETTERS.has(t.letter)));
}

/** The last nanosecond of the local day that starts at this instant. */
function endOfDay(startOfDay: Instant, zone: TimeZone): Instant {
  const wallMidnight = startOfDay.millis + zone.offsetAt(startOfDay.millis);
  return { millis: zone.toUtc(wallMidnight + 86_400_000 - 1), nanos: LAST_NANOS };
}

function mathError(reason: string): EsError {
  return new EsError(400, 'parse_exception', reason);
}

/** The operations after `now` or `||`, with JavaDateMathParser's checks and messages. */
function applyMath(math: string, start: Instant, roundUp: boolean, zone: TimeZone): Instant {
  let { millis, nanos } = start;
  let i = 0;
  while (i < math.length) {
    const op = math[i++];
    if (op !== '/' && op !== '+' && op !== '-') throw mathError(`operator not supported for date math [${math}]`);
    const digits = /^\d*/.exec(math.slice(i))![0];
    i += digits.length;
    if (i >= math.length) throw mathError(`truncated date math [${math}]`);
    const amount = digits === '' ? 1 : Number(digits);
    if (op === '/' && amount !== 1) throw mathError(`rounding \`/\` can only be used on single unit types [${math}]`);
    const unit = math[i++];
    if (!DATE_MATH_UNITS.has(unit)) throw mathError(`unit [${unit}] not supported for date math [${math}]`);
    if (op !== '/') {
      millis = addUnits(millis, unit, op === '-' ? -amount : amount, zone);
    } else if (roundUp) {
      millis = addUnits(roundDown(millis, unit, zone), unit, 1, zone) - 1;
      nanos = 0;
    } else {
      millis = roundDown(millis, unit, zone);
      nanos = 0;
    }
  }
  return { millis, nanos };
}
