import { EsError } from '../../errors/index.js';

/**
 * Path segments, percent-decoded, empty ones dropped (ES's router ignores them too). A `.` or `..`
 * segment names no index, type or API, and some readers of a path resolve it: refused.
 */
export function pathSegments(path: string): string[] {
  const q = path.indexOf('?');
  const raw = (q >= 0 ? path.slice(0, q) : path).split('/').filter((s) => s.length > 0);
  return raw.map((s) => {
    let segment = s;
    if (s.includes('%')) {
      try {
        segment = decodeURIComponent(s);
      } catch {
        segment = s;
      }
    }
    if (segment === '.' || segment === '..') throw new EsError(400, 'illegal_argument_exception', `invalid path segment [${segment}] in [${path}]`);
    return segment;
  });
}

/** Segments → a path, each segment encoded but for the characters index lists are written with. */
export function pathOf(segments: readonly string[]): string {
  return '/' + segments.map((s) => encodeURIComponent(s).replace(/%2C/g, ',').replace(/%2A/g, '*')).join('/');
}
