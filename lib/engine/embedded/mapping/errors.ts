import { EsError } from '../../../errors/index.js';

/** ES 8's error for a document that does not fit its mappings (400). */
export function documentParsingError(reason: string, causedBy?: { type: string; reason: string }): EsError {
  return new EsError(400, 'document_parsing_exception', reason, causedBy ? { caused_by: causedBy } : {});
}
