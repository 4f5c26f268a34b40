import { holdsRoundedInteger, losslessText, nestsTooDeep, readBulkCooperatively } from '../../ndjson/index.js';
import { eventLoopTurn, jsonTextPieces, parseJsonCooperatively, PieceText, type ReadableText } from '../../cooperative/index.js';
import type { Classification, PreparedBody } from '../../request/index.js';

/** Bodies up to this many characters are read by the classifier itself, in one piece. */
export const PREPARED_BODY_CHARS = 1024 * 1024;

/**
 * A large body read ahead for the classifier (see `PreparedBody`), by its own readers, giving the
 * event loop turns: a `_bulk` body line by line, a JSON body parsed with its long strings decoded
 * apart (parseJsonCooperatively) and re-serialized in pieces, which are kept (`forwardPieces`): the
 * text is their concatenation, never joined here. `info` is the
 * request's classification without its body. Anything else, and a body these readers refuse, is
 * left to the classifier (which refuses it the same way).
 *
 * `pieces`: the text as the pieces it was decoded in: a `_bulk` body is read line by line from
 * them, and the text (a rope of them) is never made one string here.
 *
 * `sameParser`: the engine reads JSON with JSON.parse too and takes the parsed value
 * (`EngineRequest.json`, the embedded engine): the text goes on as sent, since it says to that
 * engine exactly what it said to the classifier, and is not serialized again.
 */
export async function prepareBody(info: Classification, text: string, sameParser = false, pieces?: ReadableText): Promise<PreparedBody | undefined> {
  if (text.length <= PREPARED_BODY_CHARS) return undefined;
  // read through the pieces where there are any: the first read of the text itself (a slice, a
  // charCodeAt) copies the whole rope into one flat string, ~0.1 s for 20 MB in one piece
  const readable = pieces ?? text;
  if (info.action === 'indices:data/write/bulk') return { bulk: await readBulkCooperatively(readable) };
  if (!/^[ \t\r\n]*\{/.test(readable.slice(0, 64))) return undefined;
  await eventLoopTurn(); // the body was just read and decoded: a turn before the parse
  let value: unknown;
  try {
    value = await parseJsonCooperatively(readable);
  } catch {
    return undefined;
  }
  if (nestsTooDeep(value)) return undefined;
  await eventLoopTurn();
  // integers a JS number rounded go on as written (what canonicalJson does, in pieces otherwise)
  const rounded = holdsRoundedInteger(value);
  if (sameParser || rounded) return { json: { value, forward: sameParser ? text : losslessText(text), exact: !rounded } };
  // the rewritten text as the pieces it was written in, and their concatenation (a rope: joined, it
  // was copied whole in one piece, then encoded whole to be sent)
  const written = await jsonTextPieces(value);
  const forward = String(new PieceText(written));
  return { json: { value, forward, forwardPieces: { text: forward, pieces: written }, exact: true } };
}
