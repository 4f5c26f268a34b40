import { readRawRequest } from '../../lib/auth/classify/index.js';
import type { Classification } from '../../lib/request/index.js';

/**
 * What the edge makes of a request given as a client writes it (a path, possibly with `?query`, a
 * query string, a body): the classification in the request value `readRawRequest` builds — the one
 * way the product classifies a request.
 */
export function classificationOf(req: { method: string; path: string; querystring?: string; body?: Buffer | string }): Classification {
  return readRawRequest(req.method, req.path, req.querystring ?? '', req.body).info;
}
