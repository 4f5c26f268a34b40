import { expect } from 'chai';
import { EsError } from '../../../../lib/errors/index.js';
import { addUnits, parseDateMath, parseTimeZone, roundDown, UTC, type DateMathOptions, type Instant } from '../../../../lib/engine/embedded/mapping/index.js';

/** `now` in these cases (the instant ES's JavaDateMathParserTests use): a Tuesday. */
const NOW = Date.parse('2014-11-18T14:27:32Z');
/** The nanoseconds past the millisecond where a date without time ends when rounded up (`/unit` ends at the millisecond). */
const DAY_END = 999_999;

/** An instant written as an ISO date in UTC, with the nanoseconds past its millisecond. */
const at = (iso: string, nanos = 0): Instant => ({ millis: Date.parse(iso), nanos });
const math = (value: string | number, options: Partial<DateMathOptions> = {}): Instant => parseDateMath(value, { now: NOW, ...options });
const paris = parseTimeZone('Europe/Paris');

function parseError(value: string, options: Partial<DateMathOptions> = {}): EsError {
  try {
    math(value, options);
  } catch (e) {
    expect(e).to.be.instanceOf(EsError);
    return e as EsError;
  }
  throw new Error(`[${value}] parsed`);
}

describe('embedded engine: date math (ranges, decay origins, aggregation bounds)', () => {
  it('rounds down to the start of each unit, and up to its last millisecond (as JavaDateMathParser)', () => {
    const cases: Array<[string, string, string]> = [
      ['2014-11-18||/y', '2014-01-01T00:00:00.000Z', '2014-12-31T23:59:59.999Z'],
      ['2014-11-18||/M', '2014-11-01T00:00:00.000Z', '2014-11-30T23:59:59.999Z'],
      ['2014-11-18T14||/w', '2014-11-17T00:00:00.000Z', '2014-11-23T23:59:59.999Z'],
      ['2014-11-23T14||/w', '2014-11-17T00:00:00.000Z', '2014-11-23T23:59:59.999Z'],
      ['2014-11-18T14||/d', '2014-11-18T00:00:00.000Z', '2014-11-18T23:59:59.999Z'],
      ['2014-11-18T14:27||/h', '2014-11-18T14:00:00.000Z', '2014-11-18T14:59:59.999Z'],
      ['2014-11-18T14:27||/H', '2014-11-18T14:00:00.000Z', '2014-11-18T14:59:59.999Z'],
      ['2014-11-18T14:27:32||/m', '2014-11-18T14:27:00.000Z', '2014-11-18T14:27:59.999Z'],
      ['2014-11-18T14:27:32.123456789||/s', '2014-11-18T14:27:32.000Z', '2014-11-18T14:27:32.999Z'],
    ];
    for (const [value, down, up] of cases) {
      expect(math(value), value).to.deep.equal(at(down));
      expect(math(value, { roundUp: true }), `${value} rounded up`).to.deep.equal(at(up));
    }
  });

  it('adds and subtracts calendar units, left to right', () => {
    const cases: Array<[string, string]> = [
      ['2014-11-18||+y', '2015-11-18'],
      ['2014-11-18||-2y', '2012-11-18'],
      ['2014-11-18||+3M', '2015-02-18'],
      ['2014-11-18||-M', '2014-10-18'],
      ['2014-11-18||+1w', '2014-11-25'],
      ['2014-11-18||-3w', '2014-10-28'],
      ['2014-11-18||+22d', '2014-12-10'],
      ['2014-11-18||-423d', '2013-09-21'],
      ['2014-11-18T14||+13h', '2014-11-19T03:00'],
      ['2014-11-18T14||-1H', '2014-11-18T13:00'],
      ['2014-11-18T14:27||+10240m', '2014-11-25T17:07'],
      ['2014-11-18T14:27:32||-3600s', '2014-11-18T13:27:32'],
      ['2014-11-18||+1M-1m', '2014-12-17T23:59'],
      ['2014-11-18||+1M/M+1h', '2014-12-01T01:00'],
      // The day of month is kept where the month has it, else its last day (java.time's plusMonths).
      ['2014-01-31||+1M', '2014-02-28'],
      ['2014-03-31||-1M', '2014-02-28'],
      ['2016-02-29||+1y', '2017-02-28'],
    ];
    for (const [value, expected] of cases) expect(math(value), value).to.deep.equal(at(`${expected}Z`));
    // An empty expression after `||` leaves the date as it is.
    expect(math('2014-05-30T20:21||')).to.deep.equal(at('2014-05-30T20:21Z'));
  });

  it('counts from now: now-1d/d is the start (or, rounding up, the end) of yesterday', () => {
    expect(math('now')).to.deep.equal(at('2014-11-18T14:27:32Z'));
    expect(math('now+M')).to.deep.equal(at('2014-12-18T14:27:32Z'));
    expect(math('now-2d')).to.deep.equal(at('2014-11-16T14:27:32Z'));
    expect(math('now-1d/d')).to.deep.equal(at('2014-11-17T00:00:00Z'));
    expect(math('now-1d/d', { roundUp: true })).to.deep.equal(at('2014-11-17T23:59:59.999Z'));
    expect(math('now/d+2h', { roundUp: true })).to.deep.equal(at('2014-11-19T01:59:59.999Z'));
    // now is an instant: the zone moves the calendar it is rounded in, not now itself.
    expect(math('now/m', { zone: parseTimeZone('+02:00') })).to.deep.equal(at('2014-11-18T14:27:00Z'));
    expect(math('now-1d/d', { zone: parseTimeZone('+01:00') })).to.deep.equal(at('2014-11-16T23:00:00Z'));
    expect(math('now-1d/d', { zone: parseTimeZone('-05:00') })).to.deep.equal(at('2014-11-17T05:00:00Z'));
  });

  it('reads dates without an offset in the time zone, where days, weeks and years are counted too', () => {
    expect(math('2014-05-30T20:21', { zone: parseTimeZone('+02:00') })).to.deep.equal(at('2014-05-30T18:21Z'));
    expect(math('2014-11-18||/y', { zone: paris })).to.deep.equal(at('2013-12-31T23:00:00Z'));
    expect(math('2014-11-18||/y', { zone: paris, roundUp: true })).to.deep.equal(at('2014-12-31T22:59:59.999Z'));
    expect(math('2014-11-18||/M', { zone: paris })).to.deep.equal(at('2014-10-31T23:00:00Z'));
    expect(math('2014-11-18||/M', { zone: paris, roundUp: true })).to.deep.equal(at('2014-11-30T22:59:59.999Z'));
    expect(math('2014-11-18||/w', { zone: parseTimeZone('+01:00') })).to.deep.equal(at('2014-11-16T23:00:00Z'));
    expect(math('2014-11-18||/w', { zone: parseTimeZone('-01:00') })).to.deep.equal(at('2014-11-17T01:00:00Z'));
    // Summer time: Monday 2014-07-21 starts at 22:00 UTC the day before.
    expect(math('2014-07-22||/w', { zone: paris })).to.deep.equal(at('2014-07-20T22:00:00Z'));
    // A day across the spring change is 23 hours: +1d keeps the wall time, +24h the duration.
    expect(math('2014-03-29T12:00||+1d', { zone: paris })).to.deep.equal(at('2014-03-30T10:00:00Z'));
    expect(math('2014-03-29T12:00||+24h', { zone: paris })).to.deep.equal(at('2014-03-30T11:00:00Z'));
  });

  it('takes the offset a date is written with over the time zone', () => {
    const minus8 = parseTimeZone('-08:00');
    expect(math('2014-05-30T20:21+03:00', { zone: minus8 })).to.deep.equal(at('2014-05-30T17:21Z'));
    expect(math('2014-05-30T20:21+03', { zone: minus8 })).to.deep.equal(at('2014-05-30T17:21Z'));
    expect(math('2014-05-30T20:21Z', { zone: minus8 })).to.deep.equal(at('2014-05-30T20:21Z'));
    expect(math('2011-10-09+01:00', { format: 'yyyy-MM-ddXXX', zone: minus8 })).to.deep.equal(at('2011-10-08T23:00Z'));
    // …but rounds in the time zone's calendar.
    expect(math('2014-05-30T23:30Z||/d', { zone: parseTimeZone('+02:00') })).to.deep.equal(at('2014-05-30T22:00Z'));
  });

  it('rounds a date written without time up to the last nanosecond of its day, in the time zone', () => {
    expect(math('2014-11-18', { roundUp: true })).to.deep.equal(at('2014-11-18T23:59:59.999Z', DAY_END));
    expect(math('2014-11-18', { roundUp: true, zone: paris })).to.deep.equal(at('2014-11-18T22:59:59.999Z', DAY_END));
    expect(math('2014-11-18', { zone: paris })).to.deep.equal(at('2014-11-17T23:00:00Z'));
    // With `||` the date is the expression's start, whatever follows.
    expect(math('2014-11-18||', { roundUp: true })).to.deep.equal(at('2014-11-18T00:00:00Z'));
    // A date with time stays as written.
    expect(math('2014-11-18T09:20:00.000Z', { roundUp: true })).to.deep.equal(at('2014-11-18T09:20:00Z'));
  });

  it('parses the date before || with the format, alternatives in order', () => {
    expect(math('18/11/2014||/M', { format: 'dd/MM/yyyy' })).to.deep.equal(at('2014-11-01T00:00:00Z'));
    expect(math('18/11/2014||/M', { format: 'dd/MM/yyyy', zone: parseTimeZone('+01:00') })).to.deep.equal(at('2014-10-31T23:00:00Z'));
    expect(math('2014-11||/M', { format: 'yyyy-MM', roundUp: true })).to.deep.equal(at('2014-11-30T23:59:59.999Z'));
    expect(math('2014/11/18 10:00:00||+1h', { format: 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd' })).to.deep.equal(at('2014-11-18T11:00:00Z'));
    expect(math('2014/11/18', { format: 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd' })).to.deep.equal(at('2014-11-18T00:00:00Z'));
    // Digits in a date format are a date, in the time zone; only epoch formats make them instants.
    expect(math('20141118', { format: 'basic_date||epoch_millis', zone: parseTimeZone('+01:00') })).to.deep.equal(at('2014-11-17T23:00:00Z'));
    expect(math('2018-10-29T12:12:12.123456789Z', { format: 'strict_date_optional_time_nanos' })).to.deep.equal(at('2018-10-29T12:12:12.123Z', 456789));
    // No other format stands in when the given one does not parse the date.
    expect(parseError('2014-11-18T10:00', { format: 'yyyy-MM-dd' }).reason).to.equal('failed to parse date field [2014-11-18T10:00] with format [yyyy-MM-dd]');
  });

  it('reads epoch_millis and epoch_second as instants, whatever the time zone', () => {
    const plus2 = parseTimeZone('+02:00');
    expect(math('1418248078000')).to.deep.equal(at('2014-12-10T21:47:58Z'));
    expect(math('1418248078000', { zone: plus2 })).to.deep.equal(at('2014-12-10T21:47:58Z'));
    expect(math(1418248078000, { zone: plus2 })).to.deep.equal(at('2014-12-10T21:47:58Z'));
    expect(math('1418248078000||/m')).to.deep.equal(at('2014-12-10T21:47:00Z'));
    expect(math('1418248078||/d', { format: 'epoch_second', zone: plus2 })).to.deep.equal(at('2014-12-09T22:00:00Z'));
    expect(math('1418248078', { format: 'epoch_second||strict_date_optional_time' })).to.deep.equal(at('2014-12-10T21:47:58Z'));
    expect(math('1540815132123.456789', { format: 'epoch_millis' })).to.deep.equal(at('2018-10-29T12:12:12.123Z', 456789));
    // A JSON number is epoch millis, or epoch seconds where the format takes those and not millis.
    expect(math(1418248078, { format: 'epoch_second' })).to.deep.equal(at('2014-12-10T21:47:58Z'));
    expect(math(1418248078000, { format: 'epoch_second||epoch_millis' })).to.deep.equal(at('2014-12-10T21:47:58Z'));
    expect(math(1418248078000, { format: 'yyyy-MM-dd' })).to.deep.equal(at('2014-12-10T21:47:58Z'));
  });

  it('fails with parse_exception and JavaDateMathParser reasons', () => {
    const reasons: Record<string, string> = {
      '2014-11-18||*5': 'operator not supported for date math [*5]',
      '2014-11-18||/2m': 'rounding `/` can only be used on single unit types [/2m]',
      '2014-11-18||+2a': 'unit [a] not supported for date math [+2a]',
      'now/q': 'unit [q] not supported for date math [/q]',
      '2014-11-18||+12': 'truncated date math [+12]',
      '2014-11-18||-': 'truncated date math [-]',
      'now+': 'truncated date math [+]',
      '123bogus': 'failed to parse date field [123bogus] with format [strict_date_optional_time||epoch_millis]',
      '': 'failed to parse date field [] with format [strict_date_optional_time||epoch_millis]',
    };
    for (const [value, reason] of Object.entries(reasons)) {
      const e = parseError(value);
      expect([e.status, e.type, e.reason], value).to.deep.equal([400, 'parse_exception', reason]);
    }
  });
});

describe('embedded engine: calendar arithmetic in a time zone (date math, date histograms)', () => {
  const ms = (iso: string) => Date.parse(iso);

  it('rounds down to quarters, months, weeks and days in local time', () => {
    expect(roundDown(ms('2014-11-18T14:27:32Z'), 'q', UTC)).to.equal(ms('2014-10-01T00:00:00Z'));
    expect(roundDown(ms('2014-02-18T14:27:32Z'), 'q', UTC)).to.equal(ms('2014-01-01T00:00:00Z'));
    expect(roundDown(ms('2014-11-18T14:27:32Z'), 'q', paris)).to.equal(ms('2014-09-30T22:00:00Z'));
    expect(roundDown(ms('2014-10-31T23:30:00Z'), 'M', paris)).to.equal(ms('2014-10-31T23:00:00Z'));
    expect(roundDown(ms('2014-11-18T14:27:32Z'), 'h', parseTimeZone('+05:30'))).to.equal(ms('2014-11-18T13:30:00Z'));
  });

  it('adds calendar units keeping the wall time, and fixed ones as durations', () => {
    expect(addUnits(ms('2014-11-30T00:00:00Z'), 'q', 1, UTC)).to.equal(ms('2015-02-28T00:00:00Z'));
    expect(addUnits(ms('2014-10-25T22:00:00Z'), 'd', 1, paris)).to.equal(ms('2014-10-26T23:00:00Z'));
    expect(addUnits(ms('2014-10-25T22:00:00Z'), 'h', 24, paris)).to.equal(ms('2014-10-26T22:00:00Z'));
    expect(() => addUnits(0, 'x', 1, UTC)).to.throw(EsError, 'unit [x] not supported for date math');
  });
});
