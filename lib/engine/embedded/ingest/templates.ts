/**
 * `{{mustache}}` in processor options, as Elasticsearch's ingest templates: a string holding `{{`
 * is a template rendered against the document (source, metadata and `_ingest`), any other string
 * is itself. Values (`set`'s and `append`'s `value`) may be maps and lists whose strings are
 * templates. Templates render with the `media_type` encoding (application/json by default, as ES).
 */
import { compileTemplate, renderTemplate } from '../scripts/index.js';
import type { IngestDocument } from './ingest-document.js';
import { isMap } from './ingest-document.js';
import type { ConfigReader } from './processor-config.js';

export type Template = (doc: IngestDocument) => string;

export const MEDIA_TYPES = new Set(['application/json', 'text/plain', 'application/x-www-form-urlencoded']);

/** A string option that may be a template (field names, messages, time zones). */
export function compileStringTemplate(text: string, config: ConfigReader, property: string, mediaType = 'application/json'): Template {
  if (!text.includes('{{')) return () => text;
  let compiled;
  try {
    compiled = compileTemplate(text, mediaType === 'application/json' ? undefined : mediaType);
  } catch (e) {
    throw config.error(property, `Failed to compile inline script [${text}] using lang [mustache]`);
  }
  return (doc) => renderTemplate(compiled, doc.templateModel());
}

/** A `value` option: literals as they are, strings (also inside maps and lists) as templates. */
export function compileValueSource(value: unknown, config: ConfigReader, property: string, mediaType = 'application/json'): (doc: IngestDocument) => unknown {
  if (typeof value === 'string') return compileStringTemplate(value, config, property, mediaType);
  if (Array.isArray(value)) {
    const items = value.map((v) => compileValueSource(v, config, property, mediaType));
    return (doc) => items.map((f) => f(doc));
  }
  if (isMap(value)) {
    const entries = Object.entries(value).map(([k, v]) => [compileStringTemplate(k, config, property, mediaType), compileValueSource(v, config, property, mediaType)] as const);
    return (doc) => Object.fromEntries(entries.map(([k, v]) => [k(doc), v(doc)]));
  }
  return () => value;
}

/** `media_type`: one ES knows. */
export function readMediaType(config: ConfigReader): string {
  const mediaType = config.optionalString('media_type', 'application/json')!;
  if (!MEDIA_TYPES.has(mediaType)) throw config.error('media_type', `property does not contain a supported media type [${mediaType}]`);
  return mediaType;
}
