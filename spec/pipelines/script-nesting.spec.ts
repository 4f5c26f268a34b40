import { expect } from 'chai';
import { ScriptPool } from '../../lib/pipelines/index.js';
import { checkSyntax, loadSandbox, MAX_SCRIPT_NESTING, nestingDepth, nestingDepthCooperatively } from '../../lib/pipelines/sandbox.js';
import { turnsDuring } from '../support/loop-turns.js';

describe('pipelines: a script nested too deeply is refused before it reaches the parser', () => {
  before(() => loadSandbox());

  it('counts brackets outside strings, templates and comments', () => {
    expect(nestingDepth('function f() { return [1, (2)]; }')).to.equal(3);
    expect(nestingDepth('const s = "((((" + \'[[[[\' + `{{{{`; // ((((\n/* [[[[ */ f(1)')).to.equal(1);
    expect(nestingDepth('const s = "a\\"((("; g()')).to.equal(1);
  });

  it(`a million nested parentheses: refused naming the limit (${MAX_SCRIPT_NESTING}); a script just under it still compiles`, () => {
    const deep = `function handleRequest() { return ${'('.repeat(1_000_000)}1${')'.repeat(1_000_000)}; }`;
    expect(() => checkSyntax(deep, 'deep.js')).to.throw(/nested too deeply to compile \(more than 1000 levels\)/);
    const shallow = `function handleRequest() { return ${'('.repeat(100)}1${')'.repeat(100)}; }`;
    expect(() => checkSyntax(shallow, 'shallow.js')).not.to.throw();
  });

  it('the script pool refuses it before handing it to a worker: with no room to queue a job (any job handed over is a 429), the answer is still the nesting refusal', async () => {
    const pool = new ScriptPool({ size: 1, queueLimit: 0 });
    try {
      const limits = { timeoutMs: 1000, memoryMb: 32 };
      const deep = `function handleRequest() { return ${'('.repeat(1_000_000)}1${')'.repeat(1_000_000)}; }`;
      const refused = await pool.check(deep, 'deep.js', limits).then(() => undefined, (err: Error) => err);
      expect(refused?.message).to.equal(`the script is nested too deeply to compile (more than ${MAX_SCRIPT_NESTING} levels)`);
      const handedOver = await pool.check('function handleRequest() { return 1; }', 'ok.js', limits).then(() => undefined, (err: Error & { status?: number }) => err);
      expect(handedOver?.status).to.equal(429);
    } finally {
      await pool.close();
    }
  });

  it('the pool\'s scan of a long legal script gives the event loop turns, and measures as the one-piece scan does', async () => {
    // ~16 MB: tens of milliseconds of scanning on any machine
    const long = `function handleRequest() { let x = 0;\n${'x = [(x + 1) * 2 % 7, "(("][0]; // ((\n'.repeat(400_000)} return { a: [x] }; }`;
    const { value, turns } = await turnsDuring(() => nestingDepthCooperatively(long));
    expect(value).to.equal(nestingDepth(long)).and.to.equal(3);
    expect(turns, 'event-loop turns during the scan').to.be.at.least(1);
    // past the limit: stops there, cooperatively too
    const deep = '['.repeat(5000);
    expect(await nestingDepthCooperatively(deep)).to.equal(MAX_SCRIPT_NESTING + 1);
  });
});
