/**
 * The java.time values scripts meet: a date field's doc value is a ZonedDateTime in UTC
 * (`doc['@timestamp'].value.getYear()`, `.dayOfWeekEnum.getDisplayName(TextStyle.FULL, Locale.ROOT)`,
 * `.toInstant().toEpochMilli()`). Only UTC and fixed offsets exist here: no region time zones.
 */
import { formatDate, parseDate } from '../mapping/index.js';
import { ScriptRuntimeError } from './script-error.js';
import { JavaObject } from './values.js';

const DAY_NAMES = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
const MONTH_NAMES = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];

function titleCase(s: string): string {
  return s[0] + s.slice(1).toLowerCase();
}

export class TextStyle extends JavaObject {
  readonly javaClass = 'TextStyle';
  constructor(readonly name: string) {
    super();
  }
  toJavaString(): string {
    return this.name;
  }
}

export const TEXT_STYLES = Object.fromEntries(['FULL', 'FULL_STANDALONE', 'SHORT', 'SHORT_STANDALONE', 'NARROW', 'NARROW_STANDALONE'].map((n) => [n, new TextStyle(n)]));

/** java.util.Locale: names come out in English whatever the locale (the only language here). */
export class JavaLocale extends JavaObject {
  readonly javaClass = 'Locale';
  constructor(readonly tag: string) {
    super();
  }
  toJavaString(): string {
    return this.tag;
  }
}

export const LOCALES = { ROOT: new JavaLocale(''), ENGLISH: new JavaLocale('en'), US: new JavaLocale('en_US'), UK: new JavaLocale('en_GB') };

function displayName(name: string, style: TextStyle): string {
  const full = titleCase(name);
  if (style.name.startsWith('FULL')) return full;
  if (style.name.startsWith('SHORT')) return full.slice(0, 3);
  return full[0];
}

export class DayOfWeek extends JavaObject {
  readonly javaClass = 'DayOfWeek';
  /** 1 (Monday) … 7 (Sunday). */
  constructor(readonly value: number) {
    super();
  }
  get name(): string {
    return DAY_NAMES[this.value - 1];
  }
  displayName(style: TextStyle): string {
    return displayName(this.name, style);
  }
  toJavaString(): string {
    return this.name;
  }
  toJson(): string {
    return this.name;
  }
}

export const DAYS = DAY_NAMES.map((_, i) => new DayOfWeek(i + 1));

export class Month extends JavaObject {
  readonly javaClass = 'Month';
  constructor(readonly value: number) {
    super();
  }
  get name(): string {
    return MONTH_NAMES[this.value - 1];
  }
  displayName(style: TextStyle): string {
    return displayName(this.name, style);
  }
  toJavaString(): string {
    return this.name;
  }
  toJson(): string {
    return this.name;
  }
}

export const MONTHS = MONTH_NAMES.map((_, i) => new Month(i + 1));

/** A fixed offset from UTC, in seconds (`Z` for 0). */
export class ZoneOffset extends JavaObject {
  readonly javaClass = 'ZoneId';
  constructor(readonly seconds: number) {
    super();
  }
  get id(): string {
    if (this.seconds === 0) return 'Z';
    const s = Math.abs(this.seconds);
    const hh = String(Math.floor(s / 3600)).padStart(2, '0');
    const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
    return `${this.seconds < 0 ? '-' : '+'}${hh}:${mm}`;
  }
  toJavaString(): string {
    return this.id;
  }
}

export const UTC = new ZoneOffset(0);

export function zoneOf(id: string): ZoneOffset {
  if (id === 'Z' || id === 'UTC' || id === 'GMT' || id === 'Etc/UTC') return UTC;
  const m = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(id);
  if (m) return new ZoneOffset((m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60));
  throw new ScriptRuntimeError('zone_rules_exception', `Unknown time-zone ID: ${id}`);
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** ISO fraction as java.time prints it: none, or 3, 6 or 9 digits. */
function fraction(nanos: number): string {
  if (nanos === 0) return '';
  if (nanos % 1_000_000 === 0) return '.' + pad(nanos / 1_000_000, 3);
  if (nanos % 1000 === 0) return '.' + pad(nanos / 1000, 6);
  return '.' + pad(nanos, 9);
}

/** An instant as epoch milliseconds plus the nanoseconds within that millisecond. */
export class Instant extends JavaObject {
  readonly javaClass = 'Instant';
  constructor(
    readonly millis: number,
    readonly nanoOfMilli = 0,
  ) {
    super();
  }
  compareTo(o: unknown): number {
    const b = o as Instant;
    return this.millis - b.millis || this.nanoOfMilli - b.nanoOfMilli;
  }
  javaEquals(o: unknown): boolean {
    return o instanceof Instant && o.millis === this.millis && o.nanoOfMilli === this.nanoOfMilli;
  }
  toJavaString(): string {
    const d = new Date(this.millis);
    const year = d.getUTCFullYear();
    const nanos = (((this.millis % 1000) + 1000) % 1000) * 1_000_000 + this.nanoOfMilli;
    return `${year < 0 ? '-' + pad(-year, 6) : year > 9999 ? '+' + year : pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
      `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${fraction(nanos)}Z`;
  }
  toJson(): string {
    return this.toJavaString();
  }
}

/** A date-time at a fixed offset (UTC for doc values). */
export class ZonedDateTime extends JavaObject {
  readonly javaClass = 'ZonedDateTime';
  private readonly local: Date;

  constructor(
    readonly instant: Instant,
    readonly zone: ZoneOffset = UTC,
  ) {
    super();
    this.local = new Date(instant.millis + zone.seconds * 1000);
  }

  static ofMillis(millis: number): ZonedDateTime {
    return new ZonedDateTime(new Instant(millis));
  }

  get year(): number {
    return this.local.getUTCFullYear();
  }
  get monthValue(): number {
    return this.local.getUTCMonth() + 1;
  }
  get dayOfMonth(): number {
    return this.local.getUTCDate();
  }
  get dayOfYear(): number {
    return Math.floor((Date.UTC(this.year, this.monthValue - 1, this.dayOfMonth) - Date.UTC(this.year, 0, 1)) / 86_400_000) + 1;
  }
  get dayOfWeek(): DayOfWeek {
    return DAYS[(this.local.getUTCDay() + 6) % 7];
  }
  get hour(): number {
    return this.local.getUTCHours();
  }
  get minute(): number {
    return this.local.getUTCMinutes();
  }
  get second(): number {
    return this.local.getUTCSeconds();
  }
  get nano(): number {
    return (((this.instant.millis % 1000) + 1000) % 1000) * 1_000_000 + this.instant.nanoOfMilli;
  }

  plusMillis(ms: number): ZonedDateTime {
    return new ZonedDateTime(new Instant(this.instant.millis + ms, this.instant.nanoOfMilli), this.zone);
  }

  /** Calendar arithmetic (months, years) on the local date, clamping the day as java.time does. */
  plusMonths(n: number): ZonedDateTime {
    const total = this.year * 12 + (this.monthValue - 1) + n;
    const y = Math.floor(total / 12);
    const m = total - y * 12;
    const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    const day = Math.min(this.dayOfMonth, lastDay);
    const localMillis = Date.UTC(y, m, day, this.hour, this.minute, this.second, this.local.getUTCMilliseconds());
    const d = new Date(localMillis);
    if (y >= 0 && y < 100) d.setUTCFullYear(y);
    return new ZonedDateTime(new Instant(d.getTime() - this.zone.seconds * 1000, this.instant.nanoOfMilli), this.zone);
  }

  withZone(zone: ZoneOffset): ZonedDateTime {
    return new ZonedDateTime(this.instant, zone);
  }

  compareTo(o: unknown): number {
    return this.instant.compareTo((o as ZonedDateTime).instant);
  }
  javaEquals(o: unknown): boolean {
    return o instanceof ZonedDateTime && this.instant.javaEquals(o.instant) && o.zone.seconds === this.zone.seconds;
  }

  /** ZonedDateTime.toString: seconds left out when zero (`2015-01-01T12:10Z`), as java.time prints. */
  toJavaString(): string {
    const y = this.year;
    const date = `${y < 0 ? '-' + pad(-y, 4) : y > 9999 ? '+' + y : pad(y, 4)}-${pad(this.monthValue)}-${pad(this.dayOfMonth)}`;
    const nanos = this.nano;
    const time = `${pad(this.hour)}:${pad(this.minute)}${this.second || nanos ? ':' + pad(this.second) + fraction(nanos) : ''}`;
    return `${date}T${time}${this.zone.id}`;
  }

  /** As a JSON value (script_fields, _source): ISO 8601 with seconds and milliseconds as ES writes dates. */
  toJson(): string {
    return this.instant.toJavaString().replace('Z', this.zone.seconds === 0 ? 'Z' : this.zone.id);
  }
}

export class ChronoUnit extends JavaObject {
  readonly javaClass = 'ChronoUnit';
  constructor(
    readonly name: string,
    /** Length in ms; months and years count calendar fields instead. */
    readonly millis: number,
  ) {
    super();
  }
  toJavaString(): string {
    return titleCase(this.name);
  }

  between(a: ZonedDateTime | Instant, b: ZonedDateTime | Instant): number {
    if (this.name === 'MONTHS' || this.name === 'YEARS') {
      const za = a instanceof Instant ? new ZonedDateTime(a) : a;
      const zb = b instanceof Instant ? new ZonedDateTime(b) : b;
      let months = (zb.year - za.year) * 12 + (zb.monthValue - za.monthValue);
      if (months > 0 && za.plusMonths(months).compareTo(zb) > 0) months--;
      else if (months < 0 && za.plusMonths(months).compareTo(zb) < 0) months++;
      return this.name === 'YEARS' ? Math.trunc(months / 12) : months;
    }
    const ia = a instanceof Instant ? a : a.instant;
    const ib = b instanceof Instant ? b : b.instant;
    return Math.trunc((ib.millis - ia.millis) / this.millis);
  }
}

export const CHRONO_UNITS: Record<string, ChronoUnit> = Object.fromEntries(
  ([['MILLIS', 1], ['SECONDS', 1000], ['MINUTES', 60_000], ['HOURS', 3_600_000], ['HALF_DAYS', 43_200_000], ['DAYS', 86_400_000], ['WEEKS', 604_800_000], ['MONTHS', 0], ['YEARS', 0]] as const)
    .map(([n, ms]) => [n, new ChronoUnit(n, ms)]),
);

/** ISO 8601 text → an Instant (what ZonedDateTime.parse and Instant.parse accept). */
export function parseIsoInstant(text: string): { instant: Instant; zone: ZoneOffset } {
  const m = /^([+-]?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})(?:\[[^\]]+\])?$/.exec(text);
  if (!m) throw new ScriptRuntimeError('date_time_parse_exception', `Text '${text}' could not be parsed at index 0`);
  const zone = m[8] === 'Z' ? UTC : zoneOf(m[8]);
  const frac = (m[7] ?? '').padEnd(9, '0');
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), Number(frac.slice(0, 3)));
  return { instant: new Instant(ms - zone.seconds * 1000, Number(frac.slice(3))), zone };
}

/**
 * java.time.format.DateTimeFormatter: a pattern (`ofPattern`), or one of the ISO constants. Printing
 * and parsing use the engine's date formats (Java's pattern letters); printing in the value's offset.
 */
export class DateTimeFormatter extends JavaObject {
  readonly javaClass = 'DateTimeFormatter';
  constructor(
    /** A Java pattern, or `iso` for the ISO constants that print as java.time's toString does. */
    readonly pattern: string,
  ) {
    super();
  }

  format(v: ZonedDateTime | Instant): string {
    const z = v instanceof Instant ? new ZonedDateTime(v) : v;
    if (this.pattern === 'iso') return z.toJson().replace(/\.000(?=Z|[+-])/, '');
    return formatDate(z.instant.millis + z.zone.seconds * 1000, this.pattern);
  }

  parse(text: string): ZonedDateTime {
    if (this.pattern === 'iso') {
      const p = parseIsoInstant(text);
      return new ZonedDateTime(p.instant, p.zone);
    }
    const millis = parseDate(text, this.pattern);
    if (millis === undefined) throw new ScriptRuntimeError('date_time_parse_exception', `Text '${text}' could not be parsed at index 0`);
    return ZonedDateTime.ofMillis(millis);
  }

  toJavaString(): string {
    return this.pattern;
  }
}

export const DATE_TIME_FORMATTERS: Record<string, DateTimeFormatter> = {
  ISO_INSTANT: new DateTimeFormatter('iso'),
  ISO_DATE_TIME: new DateTimeFormatter('iso'),
  ISO_OFFSET_DATE_TIME: new DateTimeFormatter('iso'),
  ISO_ZONED_DATE_TIME: new DateTimeFormatter('iso'),
  ISO_LOCAL_DATE_TIME: new DateTimeFormatter("yyyy-MM-dd'T'HH:mm:ss"),
  ISO_LOCAL_DATE: new DateTimeFormatter('yyyy-MM-dd'),
  ISO_DATE: new DateTimeFormatter('yyyy-MM-dd'),
  ISO_LOCAL_TIME: new DateTimeFormatter('HH:mm:ss'),
  BASIC_ISO_DATE: new DateTimeFormatter('yyyyMMdd'),
};
