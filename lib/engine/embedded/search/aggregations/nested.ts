import { EsError } from '../../../../errors/index.js';
import { withSubs } from './aggregations.js';
import { moveTo, nestedChain, pathMapping } from './nested-scope.js';
import { docCount } from './source.js';
import type { AggNode, AggregationType, DocSet } from './types.js';

interface NestedParams {
  path: string;
}

interface ReverseNestedParams {
  path: string | undefined;
  /** Set by an enclosing `nested` at parse time: ES refuses a `reverse_nested` outside one. */
  insideNested: boolean;
}

function parsePath(name: string, body: Record<string, unknown>): string | undefined {
  for (const [k, v] of Object.entries(body)) {
    if (typeof v !== 'string') {
      const token = Array.isArray(v) ? 'START_ARRAY' : v === null ? 'VALUE_NULL' : typeof v === 'object' ? 'START_OBJECT' : typeof v === 'number' ? 'VALUE_NUMBER' : 'VALUE_BOOLEAN';
      throw new EsError(400, 'parsing_exception', `Unexpected token ${token} in [${name}].`, { line: 1, col: 1 });
    }
    if (k !== 'path') throw new EsError(400, 'parsing_exception', `Unknown key for a VALUE_STRING in [${name}]: [${k}].`, { line: 1, col: 1 });
  }
  return body.path as string | undefined;
}

function notNested(type: string, path: string): EsError {
  return new EsError(400, 'aggregation_execution_exception', `[${type}] nested path [${path}] is not nested`);
}

/** Marks every `reverse_nested` below a `nested` (through any other aggregations) as allowed. */
function allowReverseNested(subs: AggNode[]): void {
  for (const sub of subs) {
    if (sub.type === 'reverse_nested') (sub.params as ReverseNestedParams).insideNested = true;
    allowReverseNested(sub.subs);
  }
}

/**
 * The documents' nested objects at `path` as one bucket: `doc_count` counts objects, and
 * sub-aggregations read the objects' fields. An index that does not map the path gives none;
 * one that maps it as a plain object is an error.
 */
export const nested: AggregationType<NestedParams> = {
  kind: 'bucket',
  parse(name, body, subs) {
    const path = parsePath(name, body);
    if (path === undefined) throw new EsError(400, 'parsing_exception', `Missing [path] field for nested aggregation [${name}]`, { line: 1, col: 1 });
    allowReverseNested(subs);
    return { path };
  },
  run(node, docs, ctx) {
    const { path } = node.params;
    const inBucket: DocSet = docs.map((seg) => {
      const mapped = pathMapping(seg.handle, path);
      if (mapped === 'object') throw notNested('nested', path);
      if (mapped === 'unmapped') return { handle: seg.handle, ords: [], scores: seg.scores };
      return moveTo(seg, nestedChain(seg.handle, path));
    });
    return { typed: 'nested', body: withSubs({ doc_count: docCount(inBucket) }, node.subs, inBucket, ctx, false) };
  },
};

/**
 * Inside a `nested`, the documents (or, with `path`, the outer nested objects) the bucket's objects
 * belong to, each counted once.
 */
export const reverseNested: AggregationType<ReverseNestedParams> = {
  kind: 'bucket',
  parse(name, body) {
    return { path: parsePath(name, body), insideNested: false };
  },
  run(node, docs, ctx) {
    const { path, insideNested } = node.params;
    if (!insideNested) {
      throw new EsError(400, 'illegal_argument_exception', `Reverse nested aggregation [${node.name}] can only be used inside a [nested] aggregation`);
    }
    const inBucket: DocSet = docs.map((seg) => {
      if (path === undefined) return moveTo(seg, []);
      const mapped = pathMapping(seg.handle, path);
      if (mapped === 'object') throw notNested('reverse_nested', path);
      if (mapped === 'unmapped') return { handle: seg.handle, ords: [], scores: seg.scores };
      return moveTo(seg, nestedChain(seg.handle, path));
    });
    return { typed: 'reverse_nested', body: withSubs({ doc_count: docCount(inBucket) }, node.subs, inBucket, ctx, false) };
  },
};
