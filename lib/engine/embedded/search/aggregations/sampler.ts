/**
 * `sampler` and `diversified_sampler`: the sub-aggregations run on the best-scoring documents
 * only — the top `shard_size` by score (ties by index order), at most `max_docs_per_value` of
 * them sharing a value of `field` for the diversified one.
 */
import { EsError } from '../../../../errors/index.js';
import { withSubs } from './aggregations.js';
import { docCount, emptyDocSet, resolveSource, valuesOf, type SourceScope } from './source.js';
import type { AggregationType, DocSet } from './types.js';
import { parseSourceParams, type SourceParams } from './values-source.js';
import { unknownField } from './unknown-field.js';

interface SamplerParams {
  shardSize: number;
  diversify?: { source: SourceParams; maxDocsPerValue: number };
}

function positiveInt(name: string, key: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [${name}] failed to parse field [${key}]`);
  return n;
}

interface Candidate {
  si: number;
  ord: number;
  score: number;
}

/** The documents of `docs` by score, best first, ties in index order. */
function byScore(docs: DocSet): Candidate[] {
  const all: Candidate[] = [];
  docs.forEach((seg, si) => {
    for (const ord of seg.ords) all.push({ si, ord, score: seg.scores?.get(ord) ?? 1 });
  });
  return all.sort((a, b) => b.score - a.score || a.si - b.si || a.ord - b.ord);
}

function sample(node: { params: SamplerParams }, docs: DocSet, scope: SourceScope): DocSet {
  const p = node.params;
  const out = emptyDocSet(docs);
  let taken = 0;
  if (!p.diversify) {
    for (const c of byScore(docs)) {
      if (taken++ >= p.shardSize) break;
      out[c.si].ords.push(c.ord);
    }
  } else {
    const src = resolveSource(docs, p.diversify.source, scope);
    const perValue = new Map<string, number>();
    for (const c of byScore(docs)) {
      if (taken >= p.shardSize) break;
      const vs = valuesOf(src, c.si, c.ord, undefined);
      if (vs.length > 1) throw new EsError(400, 'illegal_argument_exception', 'Sample diversifying key must be a single valued-field');
      const key = vs.length ? `v:${String(vs[0])}` : 'missing';
      const n = perValue.get(key) ?? 0;
      if (n >= p.diversify.maxDocsPerValue) continue;
      perValue.set(key, n + 1);
      out[c.si].ords.push(c.ord);
      taken++;
    }
  }
  for (const seg of out) seg.ords.sort((a, b) => a - b);
  return out;
}

export const sampler: AggregationType<SamplerParams> = {
  kind: 'bucket',
  parse(name, body) {
    for (const k of Object.keys(body)) if (k !== 'shard_size') throw unknownField('sampler', k, ['shard_size']);
    return { shardSize: positiveInt('sampler', 'shard_size', body.shard_size, 100) };
  },
  run(node, docs, ctx) {
    const sampled = sample(node, docs, ctx);
    return { typed: 'sampler', body: withSubs({ doc_count: docCount(sampled) }, node.subs, sampled, ctx, false) };
  },
};

export const diversifiedSampler: AggregationType<SamplerParams> = {
  kind: 'bucket',
  parse(name, body) {
    for (const k of Object.keys(body)) {
      const known = ['field', 'script', 'shard_size', 'max_docs_per_value', 'execution_hint', 'missing', 'value_type', 'format'];
      if (!known.includes(k)) {
        throw unknownField('diversified_sampler', k, known);
      }
    }
    return {
      shardSize: positiveInt('diversified_sampler', 'shard_size', body.shard_size, 100),
      diversify: { source: parseSourceParams('diversified_sampler', name, body), maxDocsPerValue: positiveInt('diversified_sampler', 'max_docs_per_value', body.max_docs_per_value, 1) },
    };
  },
  run(node, docs, ctx) {
    const sampled = sample(node, docs, ctx);
    return { typed: 'sampler', body: withSubs({ doc_count: docCount(sampled) }, node.subs, sampled, ctx, false) };
  },
};
