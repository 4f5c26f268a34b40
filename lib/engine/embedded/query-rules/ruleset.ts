/**
 * Query rules and rulesets as the query rules API reads, validates and shows them (Elasticsearch
 * 8.15's QueryRuleset, QueryRule and QueryRuleCriteria): the same fields, defaults, ordering and
 * refusals, each with Elasticsearch's error type and reason.
 */
import { EsError } from '../../../errors/index.js';
import { CRITERIA_TYPES, type CriteriaType, type RuleCriteria } from './criteria.js';
import {
  asArray, building, failedField, illegal, inField, isObject, parseFailure, requiredFields, unknownField, unsupportedValue,
} from './parse-errors.js';

export type RuleType = 'pinned' | 'exclude';

/** A rule as stored and shown: fields in Elasticsearch's order, `priority` only when given. */
export interface QueryRule {
  rule_id: string;
  type: RuleType;
  criteria: RuleCriteria[];
  /** `ids` or `docs` (exactly one), kept as given. */
  actions: Record<string, unknown>;
  priority?: number;
}

export interface QueryRuleset {
  ruleset_id: string;
  /** Rules with a priority first, ascending, then the others in the order given. */
  rules: QueryRule[];
}

/** `xpack.applications.rules.max_rules_per_ruleset` at its default. */
export const MAX_RULES_PER_RULESET = 100;
/** Documents one rule may pin or exclude. */
export const MAX_DOCS_IN_RULE = 100;
const MIN_PRIORITY = 0;
const MAX_PRIORITY = 1_000_000;
const RULE_TYPES: readonly RuleType[] = ['pinned', 'exclude'];

/** A rule as parsed: its id may still be missing (a rule put by path takes the path's). */
type ParsedRule = Omit<QueryRule, 'rule_id'> & { rule_id: string | null };

function checkFields(parser: string, body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) if (!allowed.includes(k)) throw unknownField(parser, k);
}

function stringField(parser: string, field: string, v: unknown, nullable = false): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null && nullable) return null;
  if (typeof v !== 'string') throw unsupportedValue(parser, field, v);
  return v;
}

/** A string array field: strings, numbers and booleans are read as their text (XContentParser.text()). */
function textArray(parser: string, field: string, v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  return asArray(v).map((item) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number' || typeof item === 'boolean') return String(item);
    throw unsupportedValue(parser, field, item);
  });
}

function criteriaTypeOf(name: string): CriteriaType {
  const type = CRITERIA_TYPES.find((t) => t === name.toLowerCase());
  if (!type) throw illegal(`Unknown QueryRuleCriteriaType: ${name}`);
  return type;
}

function parseCriteria(body: unknown): RuleCriteria {
  if (!isObject(body)) throw unsupportedValue('query_rule', 'criteria', body);
  checkFields('query_rule_criteria', body, ['type', 'metadata', 'values']);
  const type = stringField('query_rule_criteria', 'type', body.type);
  const metadata = stringField('query_rule_criteria', 'metadata', body.metadata, true);
  const values = textArray('query_rule_criteria', 'values', body.values);
  if (type === undefined || type === null) throw requiredFields(['type']);
  return building('query_rule_criteria', () => {
    const criteriaType = criteriaTypeOf(type);
    if (criteriaType !== 'always') {
      if (!metadata) throw illegal('criteriaMetadata cannot be blank');
      if (!values?.length) throw illegal('criteriaValues cannot be null or empty');
    }
    const out: RuleCriteria = { type: criteriaType };
    if (typeof metadata === 'string') out.metadata = metadata;
    if (values !== undefined) out.values = values;
    return out;
  });
}

function priorityOf(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw failedField('query_rule', 'priority', new EsError(400, 'number_format_exception', `For input string: "${String(v)}"`));
  return Math.trunc(n);
}

/** ES's check of a pinned or exclude rule's actions: exactly one of `ids` and `docs`, a list of 1 to 100. */
function checkActions(type: RuleType, actions: Record<string, unknown>): void {
  const hasIds = 'ids' in actions;
  const hasDocs = 'docs' in actions;
  if (hasIds === hasDocs) throw parseFailure(`${type} query rule actions must contain only one of either ids or docs`);
  const action = hasIds ? actions.ids : actions.docs;
  if (action === null || action === undefined) return;
  if (!Array.isArray(action)) throw parseFailure(`${type} query rule actions must be a list`);
  if (action.length === 0) throw parseFailure(`${type} query rule actions cannot be empty`);
  if (action.length > MAX_DOCS_IN_RULE) throw parseFailure(`${type} documents cannot exceed ${MAX_DOCS_IN_RULE}`);
}

/** One rule's body (PUT _query_rules/{ruleset}/_rule/{id}, or an element of a ruleset's `rules`). */
function parseRule(body: Record<string, unknown>): ParsedRule {
  checkFields('query_rule', body, ['rule_id', 'type', 'criteria', 'actions', 'priority']);
  const ruleId = stringField('query_rule', 'rule_id', body.rule_id, true) ?? null;
  const type = stringField('query_rule', 'type', body.type);
  let criteria: RuleCriteria[] | undefined;
  if (body.criteria !== undefined) {
    if (body.criteria === null || (typeof body.criteria !== 'object')) throw unsupportedValue('query_rule', 'criteria', body.criteria);
    criteria = inField('query_rule', 'criteria', () => asArray(body.criteria).map(parseCriteria));
  }
  if (body.actions !== undefined && !isObject(body.actions)) throw unsupportedValue('query_rule', 'actions', body.actions);
  const actions = body.actions as Record<string, unknown> | undefined;
  const priority = priorityOf(body.priority);
  const missing = [type === undefined ? 'type' : '', criteria === undefined ? 'criteria' : '', actions === undefined ? 'actions' : ''].filter(Boolean);
  if (missing.length) throw requiredFields(missing);
  return building('query_rule', () => {
    const ruleType = RULE_TYPES.find((t) => t === type!.toLowerCase());
    if (!ruleType) throw illegal(`Unknown QueryRuleType: ${type}`);
    if (!criteria!.length) throw illegal('Query rule criteria cannot be empty');
    if (!Object.keys(actions!).length) throw illegal('Query rule actions cannot be empty');
    if (priority !== undefined && (priority < MIN_PRIORITY || priority > MAX_PRIORITY)) {
      throw illegal(`Priority was ${priority}, must be between ${MIN_PRIORITY} and ${MAX_PRIORITY}`);
    }
    checkActions(ruleType, actions!);
    const rule: ParsedRule = { rule_id: ruleId, type: ruleType, criteria: criteria!, actions: actions! };
    if (priority !== undefined) rule.priority = priority;
    return rule;
  });
}

/** Rules with a priority first (ascending), then the rest, each group in the order given. */
export function byPriority(rules: QueryRule[]): QueryRule[] {
  const rank = (r: QueryRule) => r.priority ?? Infinity;
  return rules.map((r, i) => ({ r, i })).sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i).map(({ r }) => r);
}

function validationFailed(problems: string[]): EsError {
  return new EsError(400, 'action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`);
}

/** The body of PUT _query_rules/{ruleset_id}. */
export function parseRuleset(rulesetId: string, body: Record<string, unknown>): QueryRuleset {
  checkFields('query_ruleset', body, ['ruleset_id', 'rules']);
  const id = stringField('query_ruleset', 'ruleset_id', body.ruleset_id);
  let rules: ParsedRule[] | undefined;
  if (body.rules !== undefined && body.rules !== null) {
    if (typeof body.rules !== 'object') throw unsupportedValue('query_ruleset', 'rules', body.rules);
    rules = inField('query_ruleset', 'rules', () => asArray(body.rules).map((r) => {
      if (!isObject(r)) throw unsupportedValue('query_ruleset', 'rules', r);
      return parseRule(r);
    }));
  }
  if (id !== undefined && id !== rulesetId) {
    throw building('query_ruleset', () => {
      throw illegal(`Query ruleset identifier [${id}] does not match the resource name: [${rulesetId}]`);
    });
  }
  const problems: string[] = [];
  if (!rules?.length) problems.push('rules cannot be null or empty');
  for (const r of rules ?? []) if (r.rule_id === null) problems.push(`rule_id cannot be null or empty. rule: [${JSON.stringify(r)}]`);
  if (problems.length) throw validationFailed(problems);
  return { ruleset_id: rulesetId, rules: byPriority(rules as QueryRule[]) };
}

/** The body of PUT _query_rules/{ruleset_id}/_rule/{rule_id}: a rule whose id is the path's. */
export function parseRuleForPath(ruleId: string, body: Record<string, unknown>): QueryRule {
  const rule = parseRule(body);
  if (rule.rule_id !== null && rule.rule_id !== ruleId) throw illegal('rule_id does not match the id in the query rule');
  return { ...rule, rule_id: ruleId };
}

/** Refuses a ruleset over the rule limit, as Elasticsearch's index service does before storing it. */
export function checkRuleLimit(ruleset: QueryRuleset): void {
  if (ruleset.rules.length > MAX_RULES_PER_RULESET) {
    throw illegal(`The number of rules in a ruleset cannot exceed [${MAX_RULES_PER_RULESET}].This maximum can be set by changing the [xpack.applications.rules.max_rules_per_ruleset] setting.`);
  }
}
