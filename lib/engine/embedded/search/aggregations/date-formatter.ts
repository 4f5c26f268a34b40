import { DatePrinter, parseDateMath, UTC, type TimeZone } from '../../mapping/index.js';

/**
 * An aggregation's date format in a time zone (ES's DocValueFormat.DateTime): keys and bounds
 * printed by the engine's one date printer, and dates in requests (bounds, ranges, `missing`,
 * `after`) read by its one date math parser.
 */
export class DateFormatter {
  private readonly printer: DatePrinter;

  constructor(readonly format: string, readonly zone: TimeZone = UTC) {
    this.printer = new DatePrinter(format, zone);
  }

  print(ms: number): string {
    return this.printer.print(ms);
  }

  /** A date or date math expression in this format and zone → epoch millis; throws ES's parse error. */
  parse(value: unknown, now: number, roundUp = false): number {
    const text = typeof value === 'number' ? value : String(value);
    return parseDateMath(text, { format: this.format, zone: this.zone, roundUp, now }).millis;
  }
}
