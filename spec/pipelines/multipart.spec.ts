/**
 * A pipeline's multipart form is read a time slice at a time: a body that had arrived whole (a
 * 2 MB script of a million nested parentheses, over loopback) went through the parser in one
 * synchronous stretch, while every other request waited. What it reads is the same form.
 */
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import type { Context } from 'koa';
import { EsError } from '../../lib/errors/index.js';
import { readForm, type RefuseTooDeep } from '../../lib/pipelines/multipart.js';
import { turnsDuring } from '../support/loop-turns.js';

const BOUNDARY = '----spec-boundary-7f3a';

function multipart(parts: Array<{ name: string; filename?: string; text: string }>): Buffer {
  const pieces = parts.map(({ name, filename, text }) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: application/javascript` : ''}\r\n\r\n${text}\r\n`,
  );
  return Buffer.from(pieces.join('') + `--${BOUNDARY}--\r\n`);
}

/** A request whose whole body has arrived (buffered in its stream, 64 KB a chunk), as koa's context shows it. */
function arrivedWhole(body: Buffer): Context {
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(body.length) };
  const req = Object.assign(new PassThrough({ highWaterMark: body.length }), { headers });
  for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
  req.end();
  return { req, state: {}, get: (name: string) => headers[name.toLowerCase()] ?? '' } as unknown as Context;
}

describe('pipelines: a multipart form is read a time slice at a time', function () {
  this.timeout(60_000);

  it('a 32 MB script that had arrived whole: the event loop gets turns while it is parsed, and the form is read whole', async () => {
    const script = `function handleRequest() { return ${'('.repeat(16_000_000)}1${')'.repeat(16_000_000)}; }`;
    const body = multipart([
      { name: 'pipeline', filename: 'pipeline.yaml', text: 'id: deep\n' },
      { name: 'deep.js', filename: 'deep.js', text: script },
    ]);
    const { value: form, turns } = await turnsDuring(() => readForm(arrivedWhole(body), body.length));
    // the request stream hands out all it has buffered as one 32 MB chunk: written into the parser
    // whole, it was parsed in one stretch (2 turns: before and after it); 64 KB at a time, many
    expect(turns, 'event-loop turns while 32 MB were parsed').to.be.at.least(5);
    expect(form.pipeline).to.equal('id: deep\n');
    expect(form['deep.js']).to.have.length(script.length);
    expect(form['deep.js'] === script).to.equal(true);
  });

  it('keeps a character split between two chunks whole, and reads plain fields', async () => {
    // 'é' (2 bytes) and '😀' (4 bytes) repeated so that some fall across the 64 KB chunk boundaries
    // (2.8 MB: decoded a megabyte at a time, so some also fall across those batches)
    const text = 'é😀x'.repeat(400_000);
    const body = multipart([
      { name: 'request', text: '{"method":"GET"}' },
      { name: 'u.js', filename: 'u.js', text },
    ]);
    const form = await readForm(arrivedWhole(body), body.length);
    expect(form.request).to.equal('{"method":"GET"}');
    expect(form['u.js'] === text).to.equal(true);
  });

  it('a body over the limit is refused with 413', async () => {
    const body = multipart([{ name: 'big.js', filename: 'big.js', text: 'x'.repeat(200_000) }]);
    const ctx = arrivedWhole(body);
    // no declared length (chunked): the limit is found while reading
    const headers = ctx.req.headers as Record<string, string>;
    delete headers['content-length'];
    headers['transfer-encoding'] = 'chunked';
    const err = await readForm(ctx, 100_000).then(() => undefined, (e: { status?: number }) => e);
    expect(err?.status).to.equal(413);
  });

  describe('a script file nested too deeply (refuseTooDeep)', () => {
    const deep = `function handleRequest() { return ${'('.repeat(1_000_000)}1${')'.repeat(1_000_000)}; }`;
    /** Refuses `deep.js` once the form holds the definition; records what it was asked with. */
    const refuser = (asked: Array<{ file: string; pipeline?: string }>): RefuseTooDeep => (file, form) => {
      asked.push({ file, pipeline: form.pipeline });
      return form.pipeline === undefined ? undefined : new EsError(400, 'illegal_argument_exception', `refused [${file}]`);
    };

    for (const definitionFirst of [true, false]) {
      it(`is refused once the definition has come (${definitionFirst ? 'before' : 'after'} the script), the rest of the body read and dropped`, async () => {
        const parts = [{ name: 'pipeline', filename: 'pipeline.yaml', text: 'id: deep\n' }, { name: 'deep.js', filename: 'deep.js', text: deep }];
        const body = multipart(definitionFirst ? parts : parts.reverse());
        const ctx = arrivedWhole(body);
        const asked: Array<{ file: string; pipeline?: string }> = [];
        const err = await readForm(ctx, body.length, { refuseTooDeep: refuser(asked), notScripts: ['pipeline'] }).then(() => undefined, (e: Error) => e);
        expect(err?.message).to.equal('refused [deep.js]');
        // asked as soon as the scan went past the limit, and again once the definition had come
        expect(asked.every((a) => a.file === 'deep.js')).to.equal(true);
        expect(asked.at(-1)?.pipeline).to.equal('id: deep\n');
        // read to its end: the connection can carry the client's next request
        expect(ctx.req.readableEnded).to.equal(true);
      });
    }

    it('a deep file no stage uses is kept as empty text; a legal one is read whole; without refuseTooDeep nothing is scanned', async () => {
      const legal = `function handleRequest() { return ${'('.repeat(900)}1${')'.repeat(900)}; }`;
      const body = multipart([{ name: 'deep.js', filename: 'deep.js', text: deep }, { name: 'ok.js', filename: 'ok.js', text: legal }]);
      const asked: Array<{ file: string; pipeline?: string }> = [];
      const form = await readForm(arrivedWhole(body), body.length, { refuseTooDeep: refuser(asked), notScripts: ['pipeline'] });
      expect(form['deep.js']).to.equal('');
      expect(form['ok.js'] === legal).to.equal(true);
      expect(asked.length).to.be.at.least(1);
      expect((await readForm(arrivedWhole(body), body.length))['deep.js'] === deep).to.equal(true);
    });
  });
});
