import { once } from 'node:events';
import busboy from 'busboy';
import type { Context } from 'koa';
import { ChunkedTextDecoder } from '../cooperative/index.js';
import { EsError } from '../errors/index.js';
import { bodyChunks, paceRestOfBody } from '../request/index.js';
import { NestingScan } from './sandbox.js';

/**
 * The refusal of a script file nested past MAX_SCRIPT_NESTING, once the form read so far says what
 * it is for (the definition naming its stage); undefined while it does not, or for a file no stage uses.
 */
export type RefuseTooDeep = (file: string, form: Readonly<Record<string, string>>) => EsError | undefined;

/**
 * How long the rest of a refused body is read and dropped at most: within it, the refusal is
 * answered once the body has ended, on a connection kept for the client's next request; past it,
 * at once, and the connection is closed (the connection guard closes a connection answered before
 * its body ended). A client trickling a refused body just above HTTP_BODY_MIN_RATE held its
 * connection unanswered for as long as it kept sending (a 100 MB body at 5 KB/s: hours).
 */
const REFUSED_DRAIN_MS = 5_000;

/**
 * A `multipart/form-data` body as form key → text (file parts and plain fields alike). The body is
 * written into the parser a chunk at a time, giving the event loop a turn between time slices
 * (bodyChunks): a 2 MB script piped in held the loop for the whole parse.
 *
 * With `scripts`, each part but the `notScripts` is scanned for nesting once (NestingScan; a file
 * part's bytes as they come): a part nested too deeply is not decoded nor kept (its value is ''), and once `refuseTooDeep`
 * names the refusal, the rest of the body is read without parsing and the refusal thrown. A
 * million nested parentheses (2 MB) sent back to back was decoded, copied into one string and
 * scanned three times on the event loop's thread, ~10 ms and 6 MB of garbage a request.
 */
export async function readForm(ctx: Context, limit: number, scripts?: { refuseTooDeep: RefuseTooDeep; notScripts: readonly string[] }): Promise<Record<string, string>> {
  const refuseTooDeep = scripts?.refuseTooDeep;
  const scanned = (name: string) => refuseTooDeep !== undefined && !scripts!.notScripts.includes(name);
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
  /** Files nested too deeply, and the refusal once one of them is known to be a stage's script. */
  const tooDeep: string[] = [];
  let refusal: EsError | undefined;
  const lookForRefusal = () => {
    for (const file of tooDeep) {
      if (refusal) return;
      try {
        refusal = refuseTooDeep!(file, form);
      } catch (err) {
        // the definition itself is refused (it does not parse): that is the answer
        refusal = err instanceof EsError ? err : new EsError(400, 'parse_exception', (err as Error).message);
      }
    }
  };
  const closed = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      // a plain field is scanned too (busboy made it one string already): every part of the form is
      // scanned once, here, and the script pool does not scan it again
      const scan = scanned(name) ? new NestingScan(value) : undefined;
      if (scan?.step(value.length) && scan.over) {
        form[name] = '';
        tooDeep.push(name);
      } else form[name] = value;
      lookForRefusal();
    });
    parser.on('file', (name, file) => {
      // decoded a megabyte at a time as it comes (a character split between chunks is kept whole), and
      // kept as those pieces: joined at the end, a 2 MB script was copied again in one piece
      let decoder: ChunkedTextDecoder | undefined = new ChunkedTextDecoder();
      const scan = scanned(name) ? new NestingScan() : undefined;
      const read = new Promise<void>((done, fail) => {
        file.on('data', (c: Buffer) => {
          if (!decoder) return;
          if (scan?.writeBytes(c)) {
            decoder = undefined;
            tooDeep.push(name);
            return lookForRefusal();
          }
          decoder.write(c);
        });
        file.on('limit', () => fail(new EsError(413, 'content_too_long_exception', `form key [${name}] is too large`)));
        file.on('error', fail);
        file.on('end', () => {
          form[name] = decoder?.text() ?? '';
          lookForRefusal();
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
  let droppingSince: number | undefined;
  closed.catch(() => (failed = true));
  for await (const chunk of chunks) {
    if (failed) break;
    // refused: the rest is read and dropped, all of it at the node's pace, so the answer goes out on a
    // connection that can carry the client's next request; for REFUSED_DRAIN_MS at most
    if (refusal) {
      if (droppingSince === undefined) {
        paceRestOfBody(ctx.req);
        droppingSince = performance.now();
      } else if (performance.now() - droppingSince > REFUSED_DRAIN_MS) break;
      continue;
    }
    // a parser that has more than it can hold takes the next chunk once it has drained (or failed)
    if (!parser.write(chunk)) await Promise.race([once(parser, 'drain').catch(() => undefined), closed]);
  }
  if (refusal) throw refusal;
  if (!failed) parser.end();
  await closed;
  await Promise.all(pending);
  // a definition that came after its script names the refusal at its own end
  if (refusal) throw refusal;
  return form;
}
