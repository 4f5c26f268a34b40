import { once } from 'node:events';
import busboy from 'busboy';
import type { Context } from 'koa';
import { ChunkedTextDecoder } from '../cooperative/index.js';
import { EsError } from '../errors/index.js';
import { bodyChunks } from '../request/index.js';

/**
 * A `multipart/form-data` body as form key → text (file parts and plain fields alike). The body is
 * written into the parser a chunk at a time, giving the event loop a turn between time slices
 * (bodyChunks): a 2 MB script piped in held the loop for the whole parse.
 */
export async function readForm(ctx: Context, limit: number): Promise<Record<string, string>> {
  const chunks = bodyChunks(ctx, limit);
  if (!chunks) throw new EsError(400, 'parse_exception', 'request body is required');
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: ctx.req.headers, limits: { fieldSize: limit, fileSize: limit, parts: 1000 } });
  } catch (err) {
    throw new EsError(400, 'parse_exception', `multipart body could not be read: ${(err as Error).message}`);
  }
  const form: Record<string, string> = {};
  const pending: Array<Promise<void>> = [];
  const closed = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => (form[name] = value));
    parser.on('file', (name, file) => {
      // decoded a megabyte at a time as it comes (a character split between chunks is kept whole), and
      // kept as those pieces: joined at the end, a 2 MB script was copied again in one piece
      const decoder = new ChunkedTextDecoder();
      const read = new Promise<void>((done, fail) => {
        file.on('data', (c: Buffer) => decoder.write(c));
        file.on('limit', () => fail(new EsError(413, 'content_too_long_exception', `form key [${name}] is too large`)));
        file.on('error', fail);
        file.on('end', () => {
          form[name] = decoder.text();
          done();
        });
      });
      // awaited with the others once the body is read; seen at once, for a body that fails before
      read.catch(() => undefined);
      pending.push(read);
    });
    parser.on('error', (err: Error) => reject(err instanceof EsError ? err : new EsError(400, 'parse_exception', `multipart body could not be read: ${err.message}`)));
    parser.on('close', () => resolve());
  });
  let failed = false;
  closed.catch(() => (failed = true));
  for await (const chunk of chunks) {
    if (failed) break;
    // a parser that has more than it can hold takes the next chunk once it has drained (or failed)
    if (!parser.write(chunk)) await Promise.race([once(parser, 'drain').catch(() => undefined), closed]);
  }
  if (!failed) parser.end();
  await closed;
  await Promise.all(pending);
  return form;
}
