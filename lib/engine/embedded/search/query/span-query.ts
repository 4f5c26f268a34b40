/**
 * The span query types (span_term, span_near, span_or, span_not, span_first, span_containing,
 * span_within, span_multi, field_masking_span: span-queries.ts), one node type lowered to an
 * interval source against the mappings. One object with every pass over the query tree
 * (query-type.ts); code moved from each pass as it was.
 */
import { evaluate } from './document-matcher.js';
import { runQuery } from './execute-query.js';
import { explainByScore } from './explain-query.js';
import { spanDecides, unlessIndex } from './matcher-decides.js';
import { parseQuery } from './parse-query.js';
import type { QueryType } from './query-type.js';
import { rewriteQuery, rewriteSpan } from './rewrite-query.js';
import { SPAN_QUERY_NAMES, parseSpanQuery, spanField } from './span-queries.js';

export const spanQuery: QueryType<'span'> = {
  name: 'span',
  parsedFrom: [...SPAN_QUERY_NAMES],
  parse(body, name) {
    const span = parseSpanQuery(name, body, parseQuery);
    return { type: 'span', field: spanField(span), span, boost: span.boost };
  },
  children: () => [],
  withChildren: (q) => q,
  rewrite: (q, ctx) => rewriteSpan(q, ctx),
  *execute(q, x, scoring) {
    // never reached from a search: rewriteQuery lowered it
    return yield* runQuery(rewriteQuery(q, x), x, scoring);
  },
  matches: (q, e) => evaluate(rewriteQuery(q, e), e),
  explain: explainByScore,
  print: () => 'span',
  // its terms are highlighted from the interval source it is rewritten to
  highlightTerms: () => {},
  scope: (q) => unlessIndex(spanDecides(q.span)),
};
