import { EsError } from '../errors/index.js';

/** The REST API major versions a request may ask for: the current one, and the one before it (compatibility mode). */
export type RestApiVersion = 7 | 8;

export const CURRENT_VERSION: RestApiVersion = 8;
const MINIMUM_VERSION: RestApiVersion = 7;

/** What answers carry as Content-Type when the request asked for a compatible version, by version. */
export const COMPATIBLE_JSON: Record<RestApiVersion, string> = {
  7: 'application/vnd.elasticsearch+json;compatible-with=7',
  8: 'application/vnd.elasticsearch+json;compatible-with=8',
};

type HeaderValue = string | string[] | undefined;

/**
 * The `compatible-with` parameter of a media type (`application/vnd.elasticsearch+json;compatible-with=7`),
 * read as Elasticsearch reads it: a media range (a list, `*\/*`) counts as no header at all.
 * Undefined when the header names no version.
 */
function versionOf(value: string | undefined): number | undefined {
  if (value === undefined || value.includes(',') || value.trim() === '*/*') return undefined;
  const params = value.toLowerCase().split(/[ \t]*;/).slice(1);
  for (const p of params) {
    const [name, v] = p.trim().split('=');
    if (name?.trim() === 'compatible-with' && v !== undefined) {
      const n = Number(v.trim());
      // ES parses the value as a byte: anything else is a malformed header, refused like a wrong version
      return Number.isInteger(n) ? n : NaN;
    }
  }
  return undefined;
}

function first(v: HeaderValue): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function invalid(reason: string): EsError {
  // Elasticsearch wraps the version check's `status_exception` in the header exception that names both headers.
  return new EsError(400, 'media_type_header_exception', 'Invalid media-type value on headers [Accept, Content-Type]', {
    caused_by: { type: 'status_exception', reason },
  });
}

/**
 * The REST API version a request asks for through its `Accept` and `Content-Type` headers, with
 * Elasticsearch's checks (RestCompatibleVersionHelper): each version must be 7 or 8; a request with a
 * body must name the same version in both headers, and name one in both or in neither. Without any
 * `compatible-with` the version is the current one. Throws ES's 400 `media_type_header_exception`.
 */
export function restApiVersion(accept: HeaderValue, contentType: HeaderValue, hasContent: boolean): RestApiVersion {
  const acceptHeader = first(accept);
  const contentHeader = first(contentType);
  const a = versionOf(acceptHeader);
  const c = versionOf(contentHeader);
  const acceptVersion = a ?? CURRENT_VERSION;
  const contentVersion = c ?? CURRENT_VERSION;
  const shown = (h: string | undefined) => h ?? 'null';
  if (!(acceptVersion >= MINIMUM_VERSION && acceptVersion <= CURRENT_VERSION)) {
    throw invalid(`Accept version must be either version ${CURRENT_VERSION} or ${MINIMUM_VERSION}, but found ${a}. Accept=${shown(acceptHeader)}`);
  }
  if (hasContent) {
    if (!(contentVersion >= MINIMUM_VERSION && contentVersion <= CURRENT_VERSION)) {
      throw invalid(`Content-Type version must be either version ${CURRENT_VERSION} or ${MINIMUM_VERSION}, but found ${c}. Content-Type=${shown(contentHeader)}`);
    }
    if (contentVersion !== acceptVersion) {
      throw invalid(
        'A compatible version is required on both Content-Type and Accept headers if either one has requested a compatible version ' +
          `and the compatible versions must match. Accept=${shown(acceptHeader)}, Content-Type=${shown(contentHeader)}`,
      );
    }
    if ((c === undefined) !== (a === undefined)) {
      throw invalid(
        'A compatible version is required on both Content-Type and Accept headers if either one has requested a compatible version. ' +
          `Accept=${shown(acceptHeader)}, Content-Type=${shown(contentHeader)}`,
      );
    }
    if (contentVersion < CURRENT_VERSION) return MINIMUM_VERSION;
  }
  return acceptVersion < CURRENT_VERSION ? MINIMUM_VERSION : CURRENT_VERSION;
}

/** A cheap look before the full check: only a request whose headers say `compatible-with=7` can be in compatibility mode. */
export function mayBeCompatible(accept: HeaderValue, contentType: HeaderValue): boolean {
  return /compatible-with/i.test(first(accept) ?? '') || /compatible-with/i.test(first(contentType) ?? '');
}
