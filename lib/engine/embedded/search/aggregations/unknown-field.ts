import { EsError } from '../../../../errors/index.js';
import { didYouMean } from '../../rest/unknown-field.js';

/**
 * An aggregation parser's refusal of a field it does not know, as Elasticsearch's object parsers
 * word it: `[terms] unknown field [siz] did you mean [size]?` (the suggestion when one is close).
 */
export function unknownField(parser: string, key: string, known: Iterable<string>): EsError {
  return new EsError(400, 'parsing_exception', `[${parser}] unknown field [${key}]${didYouMean(key, known)}`, { line: 1, col: 1 });
}

/** The same refusal as an XContentParseException, for the parsers Elasticsearch reports that way. */
export function unknownFieldAtContent(parser: string, key: string, known: Iterable<string>): EsError {
  return new EsError(400, 'x_content_parse_exception', `[1:1] [${parser}] unknown field [${key}]${didYouMean(key, known)}`);
}
