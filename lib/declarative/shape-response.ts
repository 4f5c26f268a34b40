import { indexSuggestions, valuesAt } from './suggestion-hits.js';
import type { ComponentPlan, DeclarativePlan } from './translate.js';

/** The engine's `_msearch` answer, as far as the shaper reads it. */
export interface MsearchResponse {
  took?: number;
  responses?: Array<Record<string, unknown>>;
}

export interface Suggestion {
  /** The field value offered as the completion. */
  text: string;
  field: string;
  _id: unknown;
  _score: unknown;
}

interface Hit {
  _id?: unknown;
  _score?: unknown;
  _source?: Record<string, unknown>;
}

/** `settings` of the answer: `took`, the whole request's time (ms), `searchTook`, the engine's. */
export interface ResponseSettings {
  took: number;
  searchTook: number;
}

export type DeclarativeResponse = Record<string, Record<string, unknown>> & { settings: ResponseSettings };

/** The answer of a component the engine was not asked about: no hits (what analytics suggestions add to). */
export function emptyAnswer(component: ComponentPlan): Record<string, unknown> {
  const answer: Record<string, unknown> = {
    took: 0, timed_out: false, hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] }, status: 200,
  };
  if (component.type === 'suggestion') answer.suggestions = [];
  return answer;
}

/**
 * The declarative answer, as ReactiveSearch clients read it: each component's engine response under
 * its id (`took`, `hits`, `aggregations`, `status`; an engine error for one component stays under
 * that id as `{error, status}`, the others are unaffected). A suggestion component's `hits.hits`
 * are suggestions (`label`, `value`, `_suggestion_type`…, see suggestion-hits.ts), and its
 * `suggestions` lists each hit's matching value. `settings`: `took` (the whole request, when the
 * caller measured it; else the engine's) and `searchTook` (the engine's).
 */
export function shapeDeclarativeResponse(plan: DeclarativePlan, response: MsearchResponse, took?: number): DeclarativeResponse {
  const out: Record<string, Record<string, unknown>> = {};
  const responses = response.responses ?? [];
  let searchTook = response.took ?? 0;
  plan.executing.forEach((component, i) => {
    const r = responses[i] ?? { error: { type: 'exception', reason: 'the engine gave no response for this component' }, status: 500 };
    if (response.took === undefined && typeof r.took === 'number') searchTook = Math.max(searchTook, r.took);
    if (component.suggestion && !r.error) {
      const hits = r.hits as { hits?: Hit[] } | undefined;
      const raw = hits?.hits ?? [];
      const shaped: Record<string, unknown> = { ...r, suggestions: suggestionsOf(raw, component.suggestion.text, component.suggestion.fields) };
      if (hits) shaped.hits = { ...hits, hits: indexSuggestions(raw, component.suggestion) };
      out[component.id] = shaped;
    } else {
      out[component.id] = r;
    }
  });
  for (const component of plan.local ?? []) out[component.id] = emptyAnswer(component);
  return { ...out, settings: { took: took ?? searchTook, searchTook } } as DeclarativeResponse;
}

/** For each hit, the first data-field value that has a word starting with the typed text's last word. */
export function suggestionsOf(hits: Hit[], text: string, fields: string[]): Suggestion[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const last = words[words.length - 1] ?? '';
  const out: Suggestion[] = [];
  for (const hit of hits) {
    let best: { text: string; field: string } | undefined;
    for (const field of fields) {
      for (const value of valuesAt(hit._source, field)) {
        const lower = value.toLowerCase();
        const matches = last !== '' && lower.split(/[^\p{L}\p{N}]+/u).some((w) => w.startsWith(last));
        if (matches) {
          best = { text: value, field };
          break;
        }
        best ??= { text: value, field };
      }
      if (best && last !== '' && best.text.toLowerCase().includes(last)) break;
    }
    if (best) out.push({ text: best.text, field: best.field, _id: hit._id, _score: hit._score });
  }
  return out;
}
