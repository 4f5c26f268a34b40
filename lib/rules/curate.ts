import type { Component, DeclarativeRequest, ReactExpression } from '../declarative-request/index.js';
import type { FieldVisibility } from '../auth/index.js';
import { callJson, type Backend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import type { DocRef, QueryRule } from './rule.js';
import { parseRule } from './rule.js';
import type { RelevancyStore } from './relevancy.js';
import { checkCompiles, RuleSet, type SearchSituation } from './rule-set.js';
import type { RuleStore } from './rule-store.js';
import { actionFields, readsVisibleFields } from './hidden-fields.js';

type Clause = Record<string, unknown>;

/** What the rules that fired for one search do to it and to its answer. */
export interface RuleEffects {
  /** Ids of the rules that fired, in order. */
  fired: string[];
  filters: Clause[];
  hide: DocRef[];
  promote: Array<{ doc: DocRef; position: number }>;
  customData?: unknown;
}

/** What curates searches: the stored rules and relevancy settings. */
export interface Curation {
  rules: RuleStore;
  relevancy: RelevancyStore;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The rules that fire for a search: a rule under test first, then the stored ones in order. */
function firing(curation: Curation, situation: SearchSituation, preview?: RuleSet): QueryRule[] {
  const stored = curation.rules.rules.matching(situation);
  return preview ? [...preview.matching(situation), ...stored] : stored;
}

/** A rule sent inline (`settings.queryRule`), checked as a stored one would be. */
function previewRule(body: Record<string, unknown>): RuleSet {
  try {
    const rule = parseRule({ ...body, id: undefined }, '_preview');
    checkCompiles(rule);
    return new RuleSet([rule]);
  } catch (err) {
    // the member at fault, named from the request's root
    if (err instanceof EsError && err.status === 400) throw new EsError(400, err.type, `settings.queryRule.${err.reason}`, err.extra);
    throw err;
  }
}

/**
 * Prepares a declarative request before it is validated against the mappings and translated:
 * each component gets its index's relevancy defaults (unless `enableSearchRelevancy: false`),
 * then each `search`/`suggestion` component the rules that fire for its text and the facet values
 * of the components it reacts to (unless `enableQueryRules: false`). Text actions and
 * `search_settings` change the component here; what changes the engine request or the answer is
 * returned per component id, for `constrainSearch` and `curateAnswer`. `visibility`: the caller's
 * field rules; a relevancy default or a rule action that reads a field they hide is left out.
 */
export function curateDeclarative(request: DeclarativeRequest, indexOf: (i: number) => string, curation: Curation, visibility?: FieldVisibility): Map<string, RuleEffects> {
  const settings = request.settings ?? {};
  const effects = new Map<string, RuleEffects>();
  if (settings.enableSearchRelevancy !== false) {
    request.query = request.query.map((c, i) => curation.relevancy.withDefaults(c, indexOf(i), (fields) => readsVisibleFields(visibility, fields)));
  }
  if (settings.enableQueryRules === false) return effects;
  const preview = settings.queryRule ? previewRule(settings.queryRule) : undefined;
  const byId = new Map(request.query.map((c) => [c.id, c]));
  const now = nowSeconds();
  request.query.forEach((component, i) => {
    const type = component.type ?? 'search';
    if (type !== 'search' && type !== 'suggestion') return;
    const situation: SearchSituation = {
      index: indexOf(i),
      query: typeof component.value === 'string' ? component.value : '',
      filters: selectedFacets(component.react, byId),
      now,
    };
    const rules = firing(curation, situation, preview);
    if (!rules.length) return;
    const { component: changed, effects: fx } = applyRules(component, rules, curation, visibility);
    request.query[i] = changed;
    effects.set(component.id, fx);
  });
  return effects;
}

/** The facet values selected by the term components a component reacts to. */
function selectedFacets(react: ReactExpression | undefined, byId: ReadonlyMap<string, Component>): Map<string, Array<string | number | boolean>> {
  const out = new Map<string, Array<string | number | boolean>>();
  const visit = (e: ReactExpression | undefined): void => {
    if (e === undefined) return;
    if (typeof e === 'string') {
      const c = byId.get(e);
      if (!c || c.type !== 'term' || c.value === undefined || c.value === null || typeof c.dataField !== 'string') return;
      const values = (Array.isArray(c.value) ? c.value : [c.value]) as Array<string | number | boolean>;
      out.set(c.dataField, [...(out.get(c.dataField) ?? []), ...values]);
      return;
    }
    if (Array.isArray(e)) return e.forEach(visit);
    visit(e.and);
    visit(e.or);
  };
  visit(react);
  return out;
}

/**
 * Applies the fired rules' actions, rule by rule in evaluation order (the first rule has the
 * highest priority). What has one value — the search term a `replace_search_term` sets, each prop
 * of `search_settings`, `custom_data` — is the first rule's that sets it; word removals and
 * replacements work on the text as the rules before left it; filters, hidden and promoted
 * documents add up. An action that reads a field the caller's rules hide (`visibility`) is not
 * applied for that caller: the rule's other actions are.
 */
function applyRules(component: Component, rules: QueryRule[], curation: Curation, visibility?: FieldVisibility): { component: Component; effects: RuleEffects } {
  const c: Component = { ...component };
  const fx: RuleEffects = { fired: [], filters: [], hide: [], promote: [] };
  let termSet = false;
  const settingsSet = new Set<string>();
  for (const rule of rules) {
    fx.fired.push(rule.id);
    if (rule.id !== '_preview') curation.rules.used(rule.id);
    for (const action of rule.actions) {
      if (!readsVisibleFields(visibility, actionFields(action))) continue;
      const text = typeof c.value === 'string' ? c.value : '';
      switch (action.type) {
        case 'replace_search_term':
          if (!termSet) c.value = action.value;
          termSet = true;
          break;
        case 'remove_words': {
          const gone = new Set(action.value.map((w) => w.toLowerCase()));
          c.value = words(text).filter((w) => !gone.has(w.toLowerCase())).join(' ');
          break;
        }
        case 'replace_words': {
          const by = new Map(Object.entries(action.value).map(([k, v]) => [k.toLowerCase(), v]));
          c.value = words(text).map((w) => by.get(w.toLowerCase()) ?? w).join(' ');
          break;
        }
        case 'search_settings':
          for (const [k, v] of Object.entries(action.value)) {
            if (settingsSet.has(k)) continue;
            settingsSet.add(k);
            (c as unknown as Record<string, unknown>)[k] = v;
          }
          break;
        case 'custom_data':
          fx.customData ??= action.value;
          break;
        case 'add_filter':
          fx.filters.push(...(effectsOf(action) as Clause[]));
          break;
        default:
          fx[action.type].push(...(effectsOf(action) as never[]));
      }
    }
  }
  return { component: c, effects: fx };
}

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** The engine-side effects of one action: filters, hidden and promoted documents. */
function effectsOf(action: QueryRule['actions'][number]): unknown[] {
  switch (action.type) {
    case 'add_filter':
      return action.value.map(({ field, values }) => (values.length === 1 ? { term: { [field]: values[0] } } : { terms: { [field]: values } }));
    case 'hide':
    case 'promote':
      return action.value;
    default:
      return [];
  }
}

/**
 * The rules that fire for a plain `_search` whose search text is in `X-Search-Query` (the appbase
 * convention): only the actions that do not rewrite the query DSL apply (filters, hide, promote,
 * custom data); text actions and search settings are for declarative components.
 */
export function curatePlainSearch(indices: readonly string[], query: string, filters: Map<string, string[]>, curation: Curation, visibility?: FieldVisibility): RuleEffects | undefined {
  const seen = new Set<string>();
  const rules: QueryRule[] = [];
  const now = nowSeconds();
  for (const index of indices) {
    for (const rule of firing(curation, { index, query, filters, now })) {
      if (seen.has(rule.id)) continue;
      seen.add(rule.id);
      rules.push(rule);
    }
  }
  if (!rules.length) return undefined;
  return applyRules({ id: '_search', value: query }, rules, curation, visibility).effects;
}

/**
 * The search body with the rules' filters, and without their hidden documents (a `must_not`, so
 * the engine keeps its fast top hits). What counts the hidden documents the search would have
 * matched is returned, to run beside it: the same query restricted to those ids, size 0.
 */
export function constrainSearch(body: Clause, effects: RuleEffects, index: string | undefined): Clause | undefined {
  const ids = effects.hide.filter((d) => d._index === undefined || index === undefined || d._index === index).map((d) => d._id);
  if (!effects.filters.length && !ids.length) return undefined;
  const original = body.query ?? { match_all: {} };
  const bool: Clause = { must: [original] };
  if (effects.filters.length) bool.filter = effects.filters;
  if (ids.length) bool.must_not = [{ ids: { values: ids } }];
  body.query = { bool };
  if (!ids.length) return undefined;
  return { size: 0, track_total_hits: true, query: { bool: { must: [original], filter: [...effects.filters, { ids: { values: ids } }] } } };
}

/** The count of hidden documents from the answer of `constrainSearch`'s count body. */
export function hiddenCount(answer: Record<string, unknown> | undefined): number {
  const total = (answer?.hits as { total?: number | { value?: number } } | undefined)?.total;
  return typeof total === 'number' ? total : (total?.value ?? 0);
}

interface Hit {
  _index?: string;
  _id?: string;
  [k: string]: unknown;
}

/**
 * The promoted documents of every search, fetched in one `_mget` through the Backend (the caller's
 * `_source` rules applied): a promoted document must live in the index its search reads.
 */
export async function fetchPromoted(backend: Backend, wanted: Array<{ index: string; effects: RuleEffects; source?: unknown }>, querystring = ''): Promise<Map<string, Hit>> {
  const docs: Clause[] = [];
  for (const { index, effects, source } of wanted) {
    for (const { doc } of effects.promote) {
      if (doc._index !== undefined && doc._index !== index) continue;
      const d: Clause = { _index: index, _id: doc._id };
      if (source !== undefined) d._source = source;
      docs.push(d);
    }
  }
  const found = new Map<string, Hit>();
  if (!docs.length) return found;
  const res = await callJson<{ docs?: Array<Hit & { found?: boolean }> }>(backend, 'POST', '/_mget', { docs }, querystring);
  for (const d of res.body?.docs ?? []) {
    if (!d.found) continue;
    const { found: _found, _version, _seq_no, _primary_term, ...hit } = d;
    found.set(`${hit._index}\u0000${hit._id}`, { ...hit, _score: null });
  }
  return found;
}

/**
 * One search's answer as the rules shape it: `hits.hidden` (counted beside it, see
 * `constrainSearch`), promoted documents inserted at their 1-based positions (counted from the
 * first result, `from` included) and listed in `promoted`, organic duplicates of them removed,
 * `customData` added.
 */
export function curateAnswer(answer: Record<string, unknown>, effects: RuleEffects, index: string, promoted: ReadonlyMap<string, Hit>, from = 0, hidden?: number): void {
  const hits = answer.hits as { hits?: Hit[]; hidden?: number } | undefined;
  if (hits && effects.hide.length) hits.hidden = hidden ?? 0;
  if (effects.promote.length) {
    const list: Array<{ doc: Hit; position: number }> = [];
    for (const { doc, position } of [...effects.promote].sort((a, b) => a.position - b.position)) {
      const hit = promoted.get(`${doc._index ?? index}\u0000${doc._id}`);
      if (hit && !list.some((p) => p.doc === hit)) list.push({ doc: hit, position });
    }
    if (hits?.hits) {
      const keys = new Set(list.map((p) => `${p.doc._index}\u0000${p.doc._id}`));
      const organic = hits.hits.filter((h) => !keys.has(`${h._index}\u0000${h._id}`));
      for (const { doc, position } of list) {
        const at = position - 1 - from;
        if (at >= 0 && at <= organic.length) organic.splice(at, 0, doc);
      }
      hits.hits = organic;
    }
    answer.promoted = list;
  }
  if (effects.customData !== undefined) answer.customData = effects.customData;
}
