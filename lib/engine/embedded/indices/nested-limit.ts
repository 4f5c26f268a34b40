import { documentParsingError, type ParsedDocument } from '../mapping/index.js';
import type { FlatSettings } from '../store/index.js';

const DEFAULT_NESTED_OBJECTS_LIMIT = 10_000;

function countNested(doc: ParsedDocument): number {
  if (!doc.nested) return 0;
  let n = doc.nested.length;
  for (const child of doc.nested) n += countNested(child.doc);
  return n;
}

/** ES's `index.mapping.nested_objects.limit`: a document may hold at most that many nested objects. */
export function checkNestedObjectsLimit(parsed: ParsedDocument, settings: FlatSettings): void {
  if (!parsed.nested) return;
  const limit = Number(settings['index.mapping.nested_objects.limit'] ?? DEFAULT_NESTED_OBJECTS_LIMIT);
  if (countNested(parsed) <= limit) return;
  throw documentParsingError(
    `The number of nested documents has exceeded the allowed limit of [${limit}]. This limit can be set by changing the [index.mapping.nested_objects.limit] index level setting.`,
  );
}
