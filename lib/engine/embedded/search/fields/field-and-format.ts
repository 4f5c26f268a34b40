import { EsError } from '../../../../errors/index.js';

/** One entry of `fields` / `docvalue_fields`: a field name or pattern, with an optional value format. */
export interface FieldAndFormat {
  field: string;
  format?: string;
  includeUnmapped?: boolean;
}

const USE_FIELD_MAPPING = 'use_field_mapping';

/** `["a", {"field": "b*", "format": "epoch_millis"}]` as given in a search body. */
export function parseFieldAndFormats(input: unknown, what: string): FieldAndFormat[] {
  if (input === undefined || input === null) return [];
  const items = Array.isArray(input) ? input : [input];
  return items.map((item): FieldAndFormat => {
    if (typeof item === 'string') return { field: item };
    if (item !== null && typeof item === 'object' && typeof (item as Record<string, unknown>).field === 'string') {
      const o = item as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        if (k !== 'field' && k !== 'format' && k !== 'include_unmapped') {
          throw new EsError(400, 'x_content_parse_exception', `[1:1] [field_and_format] unknown field [${k}]`);
        }
      }
      // Elasticsearch 7's docvalue_fields format for "the field's own format", the default since: read as no format
      const format = typeof o.format === 'string' && !(o.format === USE_FIELD_MAPPING && what === 'docvalue_fields') ? o.format : undefined;
      return { field: o.field as string, format, includeUnmapped: o.include_unmapped === true };
    }
    throw new EsError(400, 'parsing_exception', `Expected [VALUE_STRING] or [START_OBJECT] in [${what}]`, { line: 1, col: 1 });
  });
}
