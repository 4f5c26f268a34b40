import { expect } from 'chai';
import { DatePrinter, formatDate, parseInstant, parseTimeZone } from '../../../../lib/engine/embedded/mapping/index.js';

/** 2018-10-29T12:12:12.123456789Z in epoch nanoseconds (a date_nanos value). */
const NANOS = 1540815132123456789n;
const MILLIS = 1540815132123;

describe('embedded engine: the date printer (fields, sort values, aggregation keys)', () => {
  it('prints epoch millis and epoch nanoseconds with the fraction digits each format asks for', () => {
    expect(formatDate(NANOS, 'strict_date_optional_time_nanos')).to.equal('2018-10-29T12:12:12.123456789Z');
    expect(formatDate(NANOS, 'strict_date_optional_time||epoch_millis')).to.equal('2018-10-29T12:12:12.123Z');
    expect(formatDate(MILLIS, 'strict_date_optional_time_nanos')).to.equal('2018-10-29T12:12:12.123Z');
    expect(formatDate(NANOS + 1n, "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSS")).to.equal('2018-10-29T12:12:12.123456790');
    expect(formatDate(NANOS, 'HH:mm:ss.SSSSSS')).to.equal('12:12:12.123456');
    expect(formatDate(NANOS, 'epoch_millis')).to.equal('1540815132123.456789');
    expect(formatDate(NANOS, 'epoch_second')).to.equal('1540815132.123456789');
    expect(formatDate(MILLIS, 'epoch_millis')).to.equal('1540815132123');
    expect(formatDate(MILLIS, 'epoch_second')).to.equal('1540815132.123');
  });

  it('prints in a time zone, with java.time offsets, optional sections and named formats', () => {
    const paris = parseTimeZone('Europe/Paris');
    expect(new DatePrinter('strict_date_optional_time_nanos', paris).print(NANOS)).to.equal('2018-10-29T13:12:12.123456789+01:00');
    expect(new DatePrinter('strict_date_optional_time', paris).print(MILLIS)).to.equal('2018-10-29T13:12:12.123+01:00');
    expect(new DatePrinter('basic_date_time', parseTimeZone('-05:30')).print(MILLIS)).to.equal('20181029T064212.123-0530');
    expect(new DatePrinter('HH:mmX', parseTimeZone('+01:00')).print(0)).to.equal('01:00+01');
    expect(formatDate(0, 'yyyy-MM-dd[ HH:mm] X')).to.equal('1970-01-01 00:00 Z');
    expect(formatDate(0, 'kk:mm a, EEEE d MMMM yy')).to.equal('24:00 AM, Thursday 1 January 70');
  });

  it('parses dates to the nanosecond, and epoch numbers digit for digit', () => {
    expect(parseInstant('2018-10-29T12:12:12.123456789Z')).to.deep.equal({ millis: MILLIS, nanos: 456789 });
    expect(parseInstant('2018-10-29T13:12:12.123456789+01:00')).to.deep.equal({ millis: MILLIS, nanos: 456789 });
    expect(parseInstant('1540815132123.456789', 'epoch_millis')).to.deep.equal({ millis: MILLIS, nanos: 456789 });
    expect(parseInstant('1540815132.123456789', 'epoch_second')).to.deep.equal({ millis: MILLIS, nanos: 456789 });
    expect(parseInstant('1.005', 'epoch_second')).to.deep.equal({ millis: 1005, nanos: 0 });
    expect(parseInstant('2019-10-21 00:30:04.828740001', 'yyyy-MM-dd HH:mm:ss.SSSSSSSSS')).to.deep.equal({ millis: 1571617804828, nanos: 740001 });
  });
});
