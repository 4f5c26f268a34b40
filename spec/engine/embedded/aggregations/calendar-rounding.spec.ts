import { expect } from 'chai';
import fc from 'fast-check';
import { dateRounding } from '../../../../lib/engine/embedded/search/aggregations/histogram.js';
import { parseTimeZone, roundDown } from '../../../../lib/engine/embedded/mapping/index.js';

const UNITS = ['y', 'q', 'M', 'w', 'd', 'h', 'm'];
// DST at midnight (Sao Paulo until 2019), half-hour DST (Lord Howe), a 5:45 offset, a fixed one
const ZONES = ['UTC', 'Europe/Paris', 'America/Sao_Paulo', 'Australia/Lord_Howe', 'Asia/Kathmandu', '-03:30'];
const YEAR = 365.25 * 86_400_000;

describe('date histogram calendar rounding', () => {
  it('rounds every instant as roundDown does, whatever the instants met before it (the units it remembers)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...UNITS),
        fc.constantFrom(...ZONES),
        fc.constantFrom(0, 3 * 3_600_000, -90 * 60_000),
        fc.integer({ min: 0, max: 2 }),
        fc.array(fc.integer({ min: -30 * YEAR, max: 60 * YEAR }), { minLength: 1, maxLength: 200 }),
        (unit, zoneName, offset, spread, raw) => {
          const zone = parseTimeZone(zoneName);
          // instants close together (many in one unit, and on the edges of units) or far apart
          const scale = [1e-6, 1e-3, 1][spread];
          const instants = raw.flatMap((v) => {
            const t = Math.round(v * scale);
            const start = roundDown(t - offset, unit, zone) + offset;
            return [t, start, start - 1, start + 1];
          });
          const rounding = dateRounding({ calendar: unit }, zone, offset);
          for (const t of instants) expect(rounding.round(t), `${new Date(t).toISOString()} ${unit} ${zoneName} ${offset}`).to.equal(roundDown(t - offset, unit, zone) + offset);
        },
      ),
      { numRuns: 300 },
    );
  });
});
