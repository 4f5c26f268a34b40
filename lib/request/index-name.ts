import { EsError } from '../errors/index.js';

const INVALID_CHARS = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ','];

function invalid(name: string, reason: string): EsError {
  return new EsError(400, 'invalid_index_name_exception', `Invalid index name [${name}], ${reason}`, { index_uuid: '_na_', index: name });
}

/** Elasticsearch's rules for a new index name (MetadataCreateIndexService.validateIndexOrAliasName). */
export function validateIndexName(name: string): void {
  const bad = INVALID_CHARS.filter((c) => name.includes(c));
  if (bad.length) {
    throw invalid(name, `must not contain the following characters [${INVALID_CHARS.map((c) => (c === ' ' ? "' '" : c)).join(', ')}]`);
  }
  if (name.includes('#')) throw invalid(name, "must not contain '#'");
  // stored as UTF-8: a name with an unpaired surrogate would come back as another name (U+FFFD)
  if (hasUnpairedSurrogate(name)) throw invalid(name, 'must be well-formed UTF-8 (it contains an unpaired surrogate)');
  if (name.includes('\u0000')) throw invalid(name, 'must not contain a NUL character');
  if (name.includes(':')) throw invalid(name, "must not contain ':'");
  if (name.startsWith('_') || name.startsWith('-') || name.startsWith('+')) throw invalid(name, "must not start with '_', '-', or '+'");
  if (name === '.' || name === '..') throw invalid(name, "must not be '.' or '..'");
  if (name !== name.toLowerCase()) throw invalid(name, 'must be lowercase');
  if (Buffer.byteLength(name, 'utf8') > 255) throw invalid(name, 'index name is too long, (' + Buffer.byteLength(name, 'utf8') + ' > 255)');
  if (name.length === 0) throw invalid(name, 'must not be empty');
}

/**
 * Whether a name holds a UTF-16 surrogate without its pair: stored as UTF-8, it would come back
 * as another name (U+FFFD). Ids and index names with one are refused.
 */
export function hasUnpairedSurrogate(text: string): boolean {
  return /\p{Cs}/u.test(text);
}
