import { expect } from 'chai';
import { captureBody } from '../../lib/logs/body-capture.js';

/** LOGS_BODIES: a body held whole is kept as its first bytes, and only those are made. */
describe('request logs: a body held whole, captured', () => {
  const max = 1024;

  it('a value answered whole is written only as far as the log keeps it (100,000 members: their toJSON called for the first ones only)', () => {
    let written = 0;
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ toJSON: () => (written++, { row: i }) }));
    const kept = captureBody({ rows }, max);
    expect(kept?.truncated).to.equal(true);
    expect(kept?.text.startsWith('{"rows":[{"row":0},{"row":1},')).to.equal(true);
    expect(Buffer.byteLength(kept!.text)).to.be.at.most(max);
    // JSON.stringify of the whole value called all 100,000
    expect(written).to.be.below(20_000);
  });

  it('reads as the whole text cut at max bytes would, for strings, values and buffers alike', () => {
    const values: unknown[] = [{ a: 'é'.repeat(2000) }, { small: true }, ['x'.repeat(300), 'y'.repeat(300)], '😀'.repeat(600), 'z'.repeat(max), 'ab'.repeat(max)];
    for (const value of values) {
      const whole = typeof value === 'string' ? value : JSON.stringify(value);
      const bytes = Buffer.from(whole);
      let expected = bytes.subarray(0, max).toString('utf8');
      if (bytes.length > max && expected.endsWith('\ufffd')) expected = expected.slice(0, -1);
      for (const body of [value, bytes]) {
        expect(captureBody(body, max), whole.slice(0, 40)).to.deep.equal({ text: expected, truncated: bytes.length > max });
      }
    }
    expect(captureBody(() => 1, max)).to.equal(undefined);
  });
});
