import type { Json } from './to-dsl.js';
import type { ParamReader } from '../../rest/params.js';

/** The `query_string` query of a URI search (`q` with `df`, `default_operator`, `analyzer`, …), or undefined without `q`. */
export function uriSearchQuery(params: ParamReader): Json | undefined {
  const q = params.get('q');
  if (q === null) return undefined;
  const body: Json = { query: q };
  const df = params.get('df');
  if (df !== null) body.default_field = df;
  const op = params.get('default_operator');
  if (op !== null) body.default_operator = op;
  const analyzer = params.get('analyzer');
  if (analyzer !== null) body.analyzer = analyzer;
  for (const flag of ['lenient', 'analyze_wildcard']) {
    const v = params.get(flag);
    if (v !== null) body[flag] = v === '' || v === 'true';
  }
  return { query_string: body };
}
