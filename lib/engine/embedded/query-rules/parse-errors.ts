/**
 * The errors Elasticsearch's object parsers (ObjectParser, ConstructingObjectParser) raise while
 * reading query rules: unknown fields, values of the wrong token type, missing required fields,
 * and a failure of the built object, each wrapping its cause as `caused_by`. Token positions are
 * not tracked here; the reasons carry a fixed `[1:2]` where Elasticsearch puts one.
 */
import { EsError } from '../../../errors/index.js';
import { tokenName } from '../../../ndjson/index.js';

const AT = '[1:2]';

/** An error as a `caused_by` member. */
function causeOf(e: EsError): Record<string, unknown> {
  return { type: e.type, reason: e.reason, ...e.extra };
}

export function unknownField(parser: string, field: string): EsError {
  return new EsError(400, 'x_content_parse_exception', `${AT} [${parser}] unknown field [${field}]`);
}

export function unsupportedValue(parser: string, field: string, value: unknown): EsError {
  return new EsError(400, 'x_content_parse_exception', `${AT} [${parser}] ${field} doesn't support values of type: ${tokenName(value)}`);
}

export function requiredFields(names: string[]): EsError {
  return new EsError(400, 'illegal_argument_exception', `Required [${names.join(', ')}]`);
}

/** The built object refused its arguments (`cause`). */
export function failedToBuild(parser: string, cause: EsError): EsError {
  return new EsError(400, 'x_content_parse_exception', `${AT} Failed to build [${parser}] after last required field arrived`, { caused_by: causeOf(cause) });
}

/** A field's value failed to parse (`cause`). */
export function failedField(parser: string, field: string, cause: EsError): EsError {
  return new EsError(400, 'x_content_parse_exception', `${AT} [${parser}] failed to parse field [${field}]`, { caused_by: causeOf(cause) });
}

/** Runs `read`, wrapping what it throws as a failure of `field`. */
export function inField<T>(parser: string, field: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof EsError && err.status < 500) throw failedField(parser, field, err);
    throw err;
  }
}

/** Runs `build`, wrapping what it throws as a failure to build `parser`'s object. */
export function building<T>(parser: string, build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (err instanceof EsError && err.status < 500) throw failedToBuild(parser, err);
    throw err;
  }
}

export function illegal(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

/** Elasticsearch's ElasticsearchParseException. */
export function parseFailure(reason: string): EsError {
  return new EsError(400, 'parse_exception', reason);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A field declared as an array: an array, or a single value taken as a one-element array. */
export function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [v];
}
