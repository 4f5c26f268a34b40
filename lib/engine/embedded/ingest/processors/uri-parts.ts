/**
 * `uri_parts`: a URI split into its parts under `target_field` (`url`): scheme, domain, port (when
 * written), path and its extension, query, fragment, user_info with username and password, and the
 * original (`keep_original`), as Elasticsearch's UriPartsProcessor reads java.net.URI (escapes
 * decoded). A text that is no URI, nor a URL with a protocol, is refused.
 */
import { illegalArgument, javaType } from '../ingest-document.js';
import type { ProcessorFactory } from '../processor.js';

/** RFC 3986's appendix B reading of a URI reference. */
const URI_PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
/** Characters java.net.URI refuses anywhere (java.net.URL is lenient with them, given a protocol). */
const ILLEGAL = /[\s"<>\\^`{|}\u0000-\u001f\u007f]/;

function decoded(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function uriParts(text: string): Record<string, unknown> {
  const m = URI_PARTS.exec(text);
  const scheme = m?.[1];
  if (!m || (ILLEGAL.test(text) && scheme === undefined)) throw illegalArgument(`unable to parse URI [${text}]`);
  const parts: Record<string, unknown> = {};
  const authority = m[2];
  let userInfo: string | undefined;
  if (authority !== undefined) {
    const at = authority.lastIndexOf('@');
    userInfo = at >= 0 ? decoded(authority.slice(0, at)) : undefined;
    const hostPort = authority.slice(at + 1);
    const hp = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
    if (hp && hp[1] !== '') parts.domain = hp[1];
    if (hp?.[2]) parts.port = Number(hp[2]);
  }
  const fragment = decoded(m[5]);
  if (fragment !== undefined) parts.fragment = fragment;
  // an opaque URI (`mailto:a@b`) has no path
  const opaque = scheme !== undefined && authority === undefined && !m[3].startsWith('/');
  const path = opaque ? undefined : decoded(m[3]);
  if (path !== undefined) {
    parts.path = path;
    if (path.includes('.')) parts.extension = path.slice(path.lastIndexOf('.') + 1);
  }
  const query = decoded(m[4]);
  if (query !== undefined) parts.query = query;
  if (scheme !== undefined) parts.scheme = scheme;
  if (userInfo !== undefined) {
    parts.user_info = userInfo;
    const colon = userInfo.indexOf(':');
    if (colon >= 0) {
      parts.username = userInfo.slice(0, colon);
      parts.password = userInfo.slice(colon + 1);
    }
  }
  return parts;
}

export const uriPartsProcessor: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const target = config.optionalString('target_field', 'url')!;
  const keepOriginal = config.boolean('keep_original', true);
  const removeIfSuccessful = config.boolean('remove_if_successful', false);
  const ignoreMissing = config.boolean('ignore_missing', false);
  return (doc) => {
    const value = doc.get(field, ignoreMissing);
    if ((value === undefined || value === null) && ignoreMissing) return;
    if (value === undefined || value === null) throw illegalArgument(`field [${field}] is null, cannot extract URI parts.`);
    if (typeof value !== 'string') throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to [java.lang.String]`);
    const parts = uriParts(value);
    if (keepOriginal) parts.original = value;
    if (removeIfSuccessful && target !== field) doc.remove(field);
    doc.set(target, parts);
  };
};
