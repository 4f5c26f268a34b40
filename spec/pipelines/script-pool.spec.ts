import { expect } from 'chai';
import { ScriptPool } from '../../lib/pipelines/index.js';
import { turnsDuring } from '../support/loop-turns.js';

/** Holds this thread's event loop for `ms`, as a long synchronous task or a descheduled process would. */
function holdLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('pipelines: the script pool', function () {
  this.timeout(30_000);
  let pool: ScriptPool;
  beforeEach(() => (pool = new ScriptPool({ size: 1 })));
  afterEach(() => pool.close());

  // the watchdog of a 20 ms budget is due 20 × WALL_FACTOR + 500 = 700 ms after a run starts
  const limits = { timeoutMs: 20, memoryMb: 32 };
  const answer = 'function handleRequest() { return { response: { body: "done", code: 200 } }; }';

  it('a run that finished in time is not reported as overrunning when the loop was held past its watchdog', async () => {
    await pool.run(answer, 'warm.js', {}, {}, { timeoutMs: 5_000, memoryMb: 32 }); // the worker is up (a budget a starved first run keeps)
    // out of the port's message handler (which reads every message that arrives while it runs), into the check phase
    await new Promise((resolve) => setImmediate(resolve));
    const run = pool.run(answer, 'held.js', {}, {}, limits);
    // the worker answers within milliseconds; this thread reads the answer only after its watchdog is due
    holdLoop(1_000);
    expect(await run).to.deep.equal({ response: { body: 'done', code: 200 } });
    expect(pool.stats()).to.include({ running: 0, queued: 0, workers: 1 });
  });

  it('a run that does overrun still fails with the time limit, and the pool goes on', async () => {
    const spin = 'function handleRequest() { for (;;) {} }';
    const failure = await pool.run(spin, 'spin.js', {}, {}, limits).then(() => undefined, (err: Error) => err);
    expect(failure?.message).to.equal('script exceeded its time limit of 20 ms');
    expect(await pool.run(answer, 'after.js', {}, {}, limits)).to.deep.equal({ response: { body: 'done', code: 200 } });
  });

  it('compiles a pipeline\'s script on its thread: a 2 MB legal script leaves the event loop turning; one that does not parse fails with the parser\'s words', async () => {
    await pool.check(answer, 'warm.js', limits); // the worker is up
    // a legal script of 100,000 statements (~2 MB): its compile took 200-600 ms of one thread
    const big = `function handleRequest() { let x = 0;\n${'x = (x + 1) * 2 % 7;\n'.repeat(100_000)} return x; }`;
    const { turns } = await turnsDuring(() => pool.check(big, 'big.js', { timeoutMs: 10_000, memoryMb: 32 }));
    expect(turns, 'event-loop turns while the script compiled').to.be.at.least(2);
    const failure = await pool.check('function handleRequest() { return (; }', 'bad.js', limits).then(() => undefined, (err: Error) => err);
    expect(failure?.constructor.name).to.equal('ScriptError');
    expect(failure?.message).to.match(/unexpected|expecting|SyntaxError/i);
  });
});
