import type { DeclarativePlan } from './translate.js';

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

export type DeclarativeResponse = Record<string, Record<string, unknown>> & { settings: { took: number } };

/**
 * The declarative answer: each executed component's engine response under its id (an engine error
 * for one component stays under that id, the others are unaffected), suggestion components with
 * their `suggestions`, and `settings.took`.
 */
export function shapeDeclarativeResponse(plan: DeclarativePlan, response: MsearchResponse): DeclarativeResponse {
  const out: Record<string, Record<string, unknown>> = {};
  const responses = response.responses ?? [];
  let took = response.took ?? 0;
  plan.executing.forEach((component, i) => {
    const r = responses[i] ?? { error: { type: 'exception', reason: 'the engine gave no response for this component' }, status: 500 };
    if (response.took === undefined && typeof r.took === 'number') took = Math.max(took, r.took);
    if (component.suggestion && !r.error) {
      const hits = ((r.hits as { hits?: Hit[] } | undefined)?.hits ?? []);
      out[component.id] = { ...r, suggestions: suggestionsOf(hits, component.suggestion.text, component.suggestion.fields) };
    } else {
      out[component.id] = r;
    }
  });
  return { ...out, settings: { took } } as DeclarativeResponse;
}

function valuesAt(source: Record<string, unknown> | undefined, path: string): string[] {
  let current: unknown[] = [source];
  for (const key of path.split('.')) {
    const next: unknown[] = [];
    for (const v of current) {
      if (Array.isArray(v)) for (const x of v) next.push((x as Record<string, unknown> | null)?.[key]);
      else if (v && typeof v === 'object') next.push((v as Record<string, unknown>)[key]);
    }
    current = next.flat();
  }
  return current.filter((v): v is string => typeof v === 'string');
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
