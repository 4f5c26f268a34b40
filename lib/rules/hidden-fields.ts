import { fieldVisibilityOf, type FieldVisibility, type Principal } from '../auth/index.js';
import { EsError } from '../errors/index.js';
import type { Action, SearchSettings } from './rule.js';

type FieldRef = string | { field: string };

const names = (value: FieldRef | FieldRef[] | undefined): string[] =>
  (value === undefined ? [] : Array.isArray(value) ? value : [value]).map((f) => (typeof f === 'string' ? f : f.field));

/** The fields search settings make a search read: searched, returned, highlighted. (`excludeFields` only takes away.) */
export function settingsFields(settings: SearchSettings): string[] {
  const s = settings as { dataField?: FieldRef | FieldRef[]; includeFields?: string[]; highlightField?: string | string[] };
  return [...names(s.dataField), ...(s.includeFields ?? []), ...names(s.highlightField)];
}

/**
 * A credential with field rules stores no rule or relevancy setting that makes searches read a
 * field the rules hide: applied to its own searches after its request was checked, a `dataField`,
 * an `add_filter` or a highlighted field on the hidden field would tell its values by which
 * documents match (Elasticsearch's field-level security: a hidden field is not searchable).
 */
export function checkNoHiddenFields(principal: Principal, fields: readonly string[], action: string): void {
  if (principal.role === 'admin') return;
  const visibility = fieldVisibilityOf(principal.credential);
  if (!visibility) return;
  for (const field of fields) {
    const refusal = visibility.refusalOfField(field);
    if (refusal) throw new EsError(403, 'security_exception', `action [${action}] is unauthorized for user [${principal.username}]: ${refusal}`);
  }
}

/** The fields an action makes a search read: its filters' and its search settings'. */
export function actionFields(action: Action): string[] {
  return action.type === 'add_filter' ? action.value.map((f) => f.field) : action.type === 'search_settings' ? settingsFields(action.value) : [];
}

/**
 * Does the caller see every field `fields` names? Checked where a rule or a relevancy default is
 * applied to a caller's search, whoever wrote it and whenever: the caller's field rules of now,
 * with the aliases and scripted fields of the indices its request reaches (a rule stored before
 * its author had field rules, or naming an alias of a hidden field, would otherwise tell the
 * hidden field's values by which documents match). No visibility: the caller sees every field.
 */
export function readsVisibleFields(visibility: FieldVisibility | undefined, fields: readonly string[]): boolean {
  return !visibility || fields.every((f) => visibility.refusalOfField(f) === undefined);
}
