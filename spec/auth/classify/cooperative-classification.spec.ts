/**
 * A large body read ahead (a credential naming 100,000 index patterns) is classified a time slice
 * at a time (`readRequestCooperatively`), and its credential members validated so (`validateCreate`):
 * the event loop gets turns while they run, and what they read is what the one-piece reading reads.
 */
import { expect } from 'chai';
import { prepareBody, readRequest, readRequestCooperatively } from '../../../lib/auth/classify/index.js';
import { validateCreate } from '../../../lib/auth/credentials/index.js';
import { requestTarget } from '../../../lib/request/index.js';
import { turnsDuring } from '../../support/loop-turns.js';

const PATTERNS = Array.from({ length: 100_000 }, (_, i) => `tenant-${i}-*`);

describe('large bodies classified a time slice at a time', function () {
  this.timeout(60_000);

  it('a credential of 100,000 index patterns: the same classification, with event-loop turns while it is read', async () => {
    const text = JSON.stringify({ indices: [...PATTERNS, 'tenant-0-*', '.gateway-x'], ops: ['read'] });
    const target = requestTarget('/_credentials', '', true);
    const asked = readRequest({ method: 'POST', target, sentBody: true });
    const prepared = await prepareBody(asked.info, text);
    expect(prepared, 'a body over 1 MB is read ahead').to.not.equal(undefined);
    const { value: cooperative, turns } = await turnsDuring(() => readRequestCooperatively({ method: 'POST', target, body: text, prepared }));
    const whole = readRequest({ method: 'POST', target, body: text, prepared });
    expect(turns, 'event-loop turns while 100,000 patterns were classified').to.be.at.least(1);
    expect(cooperative.info).to.deep.equal(whole.info);
    expect(cooperative.info.indices).to.have.length(100_001);
    expect(cooperative.info.indices.at(-1)).to.equal('.gateway-x');
  });

  it('a large search written anew for the HTTP engine is kept as the pieces it was written in, never joined', async () => {
    const value = { query: { match: { summary: 'wörd 😀 "quoted"\n'.repeat(400_000) } }, size: 3 };
    const text = JSON.stringify(value, null, 1);
    const target = requestTarget('/books/_search', '', true);
    const asked = readRequest({ method: 'POST', target, sentBody: true });
    const prepared = await prepareBody(asked.info, text);
    const written = prepared?.json?.forwardPieces;
    expect(written, 'the pieces of the text written anew').to.not.equal(undefined);
    expect(written!.text).to.equal(prepared!.json!.forward);
    expect(written!.pieces.join('')).to.equal(JSON.stringify(value));
    expect(written!.pieces.length, 'pieces, not one joined text').to.be.greaterThan(1);
    // the classification carries them, for the sender; an engine that takes the text as sent needs none
    const read = await readRequestCooperatively({ method: 'POST', target, body: text, prepared });
    expect(read.info.forwardPieces).to.equal(written);
    expect((await prepareBody(asked.info, text, true))?.json?.forwardPieces).to.equal(undefined);
  });

  it('a credential\'s 100,000 index patterns are validated with event-loop turns, and a bad one is still named', async () => {
    const { value: spec, turns } = await turnsDuring(() => validateCreate({ indices: [...PATTERNS, 'tenant-0-*'], ops: ['read'] }));
    expect(turns, 'event-loop turns while 100,000 patterns were validated').to.be.at.least(1);
    expect(spec.indices).to.deep.equal(PATTERNS);
    let refused: { status?: number; reason?: string } | undefined;
    await validateCreate({ indices: [...PATTERNS.slice(0, 50_000), 'Bad'] }).catch((err: { status?: number; reason?: string }) => (refused = err));
    expect(refused?.status).to.equal(400);
    expect(refused?.reason).to.include('[indices][50000]');
  });
});
