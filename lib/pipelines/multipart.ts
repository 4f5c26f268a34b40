import busboy from 'busboy';
import type { Context } from 'koa';
import { EsError } from '../errors/index.js';
import { bodyStream } from '../request/index.js';

/** A `multipart/form-data` body as form key → text (file parts and plain fields alike). */
export async function readForm(ctx: Context, limit: number): Promise<Record<string, string>> {
  const stream = bodyStream(ctx, limit);
  if (!stream) throw new EsError(400, 'parse_exception', 'request body is required');
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: ctx.req.headers, limits: { fieldSize: limit, fileSize: limit, parts: 1000 } });
  } catch (err) {
    throw new EsError(400, 'parse_exception', `multipart body could not be read: ${(err as Error).message}`);
  }
  const form: Record<string, string> = {};
  const pending: Array<Promise<void>> = [];
  await new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => (form[name] = value));
    parser.on('file', (name, file) => {
      const chunks: Buffer[] = [];
      pending.push(
        new Promise<void>((done, fail) => {
          file.on('data', (c: Buffer) => chunks.push(c));
          file.on('limit', () => fail(new EsError(413, 'content_too_long_exception', `form key [${name}] is too large`)));
          file.on('error', fail);
          file.on('end', () => {
            form[name] = Buffer.concat(chunks).toString('utf8');
            done();
          });
        }),
      );
    });
    parser.on('error', (err: Error) => reject(err instanceof EsError ? err : new EsError(400, 'parse_exception', `multipart body could not be read: ${err.message}`)));
    parser.on('close', () => resolve());
    stream.on('error', reject);
    stream.pipe(parser);
  });
  await Promise.all(pending);
  return form;
}
