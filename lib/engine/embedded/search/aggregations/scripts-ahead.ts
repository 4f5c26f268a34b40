/**
 * The scripts of a request's aggregations, run ahead of them: an aggregation runs without a
 * pause, so the per-document scripts of its values sources (`terms` and metric scripts, value
 * scripts) run first, as work that pauses every slice of the search's budget and stops at its
 * deadline (script-values.ts keeps what they gave).
 */
import type { ScriptSpec } from '../../painless/index.js';
import type { WorkBudget, Work } from '../work-budget.js';
import { registry } from './registry.js';
import { scriptValuesAhead } from './script-values.js';
import { scriptedMetricAhead } from './scripted-metric.js';
import { resolveSource, valuesOf, type SourceScope } from './source.js';
import type { AggNode, DocSet } from './types.js';
import type { SourceParams } from './values-source.js';

/** The values source of an aggregation whose values a script gives, if any. */
function scriptSourceOf(node: AggNode): SourceParams | undefined {
  // Pipelines' scripts run per bucket, and scripted_metric's own way: not values sources.
  if (registry()[node.type]?.kind === 'pipeline' || node.type === 'scripted_metric') return undefined;
  const p = node.params as ({ source?: SourceParams } & Partial<SourceParams>) | undefined;
  if (p?.source?.script) return p.source;
  if (p?.script && typeof p.script === 'object') return p as SourceParams;
  return undefined;
}

export function* aggregationScriptsAhead(nodes: AggNode[], docs: DocSet, scope: SourceScope, budget: WorkBudget, top = true): Work<void> {
  for (const node of nodes) {
    // A top-level scripted_metric maps the documents ahead (one under a bucket maps that bucket's).
    if (top && node.type === 'scripted_metric') yield* scriptedMetricAhead(node.params as Parameters<typeof scriptedMetricAhead>[0], docs, scope.storedScripts, budget);
    const source = scriptSourceOf(node);
    if (source) {
      const field = source.field === undefined ? undefined : resolveSource(docs, { field: source.field }, scope);
      for (const [si, seg] of docs.entries()) {
        yield* scriptValuesAhead(seg, source.script as ScriptSpec, scope.storedScripts, field && ((ord) => valuesOf(field, si, ord, undefined)), budget);
      }
    }
    yield* aggregationScriptsAhead(node.subs, docs, scope, budget, false);
  }
}
