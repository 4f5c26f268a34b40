import { shapeCheck, TUNING_PROPERTIES } from '../declarative-request/index.js';
import type { Component } from '../declarative-request/index.js';
import { EsError } from '../errors/index.js';

/** What a trigger compares the search text with. */
export const QUERY_OPERATORS = ['is', 'contains', 'starts_with', 'ends_with', 'matches'] as const;
export type QueryOperator = (typeof QUERY_OPERATORS)[number];

export const ACTION_TYPES = ['promote', 'hide', 'add_filter', 'replace_search_term', 'remove_words', 'replace_words', 'search_settings', 'custom_data'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export interface DocRef {
  _id: string;
  _index?: string;
}

export interface Trigger {
  type: 'always' | 'query' | 'filter';
  operator?: QueryOperator;
  value?: string;
  /** For `filter` triggers: the facet value that must be selected. */
  filter?: { field: string; value: string | number | boolean };
  /** Index patterns the rule applies to (default: every index its owner may see). */
  indices?: string[];
  /** Epoch seconds; either end may be open. */
  timeframe?: { start_time?: number; end_time?: number };
  /** A boolean expression over `$query`, `$index`, `$filter.<field>`, `$now` (jexl), that must also hold. */
  expression?: string;
}

/** Fields a rule's `search_settings` (and a relevancy setting) may set on a component. */
export type SearchSettings = Pick<Component, keyof typeof TUNING_PROPERTIES>;

export type Action =
  | { type: 'promote'; value: Array<{ doc: DocRef; position: number }> }
  | { type: 'hide'; value: DocRef[] }
  | { type: 'add_filter'; value: Array<{ field: string; values: Array<string | number | boolean> }> }
  | { type: 'replace_search_term'; value: string }
  | { type: 'remove_words'; value: string[] }
  | { type: 'replace_words'; value: Record<string, string> }
  | { type: 'search_settings'; value: SearchSettings }
  | { type: 'custom_data'; value: unknown };

/** Who stored a rule: a scoped credential's rules apply to (and are seen on) its own indices only. */
export interface RuleOwner {
  username: string;
  indices: string[];
}

export interface QueryRule {
  id: string;
  name?: string;
  description?: string;
  enabled: boolean;
  trigger: Trigger;
  actions: Action[];
  owner?: RuleOwner;
}

const MAX_EXPRESSION = 1024;
const docRef = {
  type: 'object',
  additionalProperties: false,
  required: ['_id'],
  properties: { _id: { type: 'string', minLength: 1, maxLength: 512 }, _index: { type: 'string', minLength: 1, maxLength: 255 } },
};
const filterValue = { type: ['string', 'number', 'boolean'] };
const ACTION_VALUE: Record<ActionType, object> = {
  promote: {
    type: 'array',
    minItems: 1,
    maxItems: 100,
    items: { type: 'object', additionalProperties: false, required: ['doc', 'position'], properties: { doc: docRef, position: { type: 'integer', minimum: 1, maximum: 10_000 } } },
  },
  hide: { type: 'array', minItems: 1, maxItems: 1000, items: { anyOf: [{ type: 'string', minLength: 1, maxLength: 512 }, docRef] } },
  add_filter: {
    type: 'object',
    minProperties: 1,
    maxProperties: 100,
    additionalProperties: { anyOf: [filterValue, { type: 'array', minItems: 1, maxItems: 1000, items: filterValue }] },
  },
  replace_search_term: { type: 'string', maxLength: 4096 },
  remove_words: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', minLength: 1, maxLength: 256 } },
  replace_words: { type: 'object', minProperties: 1, maxProperties: 1000, additionalProperties: { type: 'string', maxLength: 256 } },
  search_settings: { type: 'object', additionalProperties: false, minProperties: 1, properties: TUNING_PROPERTIES },
  custom_data: {},
};

/** A stored rule's body as sent: `actions` an object keyed by action (applied in ACTION_TYPES order) or a list applied as listed. */
const RULE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['trigger', 'actions'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 256, pattern: '^[^./\\\\*,?"<>| #][^/\\\\*,?"<>| #]*$' },
    name: { type: 'string', maxLength: 1024 },
    description: { type: 'string', maxLength: 10_000 },
    enabled: { type: 'boolean' },
    trigger: {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: {
        type: { enum: ['always', 'query', 'filter'] },
        operator: { enum: [...QUERY_OPERATORS] },
        value: { type: 'string', minLength: 1, maxLength: 4096 },
        filter: { type: 'object', additionalProperties: false, required: ['field', 'value'], properties: { field: { type: 'string', minLength: 1, maxLength: 512 }, value: filterValue } },
        indices: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 255 } },
        timeframe: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: { start_time: { type: 'integer', minimum: 0 }, end_time: { type: 'integer', minimum: 0 } },
        },
        expression: { type: 'string', minLength: 1, maxLength: MAX_EXPRESSION },
      },
    },
    actions: {
      anyOf: [
        { type: 'object', additionalProperties: false, minProperties: 1, properties: ACTION_VALUE },
        {
          type: 'array',
          minItems: 1,
          maxItems: 100,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'value'],
            properties: { type: { enum: [...ACTION_TYPES] }, value: {} },
          },
        },
      ],
    },
  },
} as const;

interface RuleBody {
  id?: string;
  name?: string;
  description?: string;
  enabled?: boolean;
  trigger: Trigger;
  actions: Partial<Record<ActionType, unknown>> | Array<{ type: ActionType; value: unknown }>;
}

const checkRule: (body: unknown, prefix?: string) => asserts body is RuleBody = shapeCheck<RuleBody>(RULE_SCHEMA, 'a rule');
const checkActionValue = Object.fromEntries(ACTION_TYPES.map((t) => [t, shapeCheck<unknown>(ACTION_VALUE[t], `action [${t}]`)])) as Record<ActionType, (v: unknown, prefix: string) => void>;

const invalid = (reason: string) => new EsError(400, 'illegal_argument_exception', reason);

/**
 * A rule as sent, checked (400 naming the member at fault) and normalized: `enabled` defaults to
 * true, actions become a list in the order they apply, hidden ids become `{_id}` references,
 * filters become lists of values. `id` is the path's or a generated one. The trigger's `matches`
 * pattern and `expression` are compiled by the caller (rule-set), which reports their errors.
 */
export function parseRule(body: unknown, id: string): QueryRule {
  checkRule(body);
  if (body.id !== undefined && body.id !== id) throw invalid(`the rule's [id] [${body.id}] is not the path's [${id}]`);
  const t = body.trigger;
  if (t.type === 'query') {
    if (t.value === undefined) throw invalid('trigger.value: is required for a query trigger');
    if (t.filter !== undefined) throw invalid('trigger.filter: is only for a filter trigger');
  } else if (t.type === 'filter') {
    if (t.filter === undefined) throw invalid('trigger.filter: is required for a filter trigger');
    if (t.operator !== undefined || t.value !== undefined) throw invalid('trigger.operator, trigger.value: are only for a query trigger');
  } else if (t.operator !== undefined || t.value !== undefined || t.filter !== undefined) {
    throw invalid('trigger: an always trigger takes no operator, value or filter');
  }
  const tf = t.timeframe;
  if (tf?.start_time !== undefined && tf.end_time !== undefined && tf.end_time < tf.start_time) {
    throw invalid(`trigger.timeframe: end_time [${tf.end_time}] is before start_time [${tf.start_time}]`);
  }
  const trigger: Trigger = { ...t, operator: t.type === 'query' ? (t.operator ?? 'is') : undefined };
  if (trigger.operator === undefined) delete trigger.operator;
  const listed = Array.isArray(body.actions)
    ? body.actions.map((a, i) => ({ ...a, path: `actions[${i}].value` }))
    : ACTION_TYPES.filter((type) => (body.actions as Record<string, unknown>)[type] !== undefined).map((type) => ({ type, value: (body.actions as Record<string, unknown>)[type], path: `actions.${type}` }));
  const actions = listed.map(({ type, value, path }) => {
    checkActionValue[type](value, path);
    return normalizeAction(type, value);
  });
  const rule: QueryRule = { id, enabled: body.enabled ?? true, trigger, actions };
  if (body.name !== undefined) rule.name = body.name;
  if (body.description !== undefined) rule.description = body.description;
  return rule;
}

function normalizeAction(type: ActionType, value: unknown): Action {
  switch (type) {
    case 'hide':
      return { type, value: (value as Array<string | DocRef>).map((v) => (typeof v === 'string' ? { _id: v } : v)) };
    case 'add_filter':
      return {
        type,
        value: Object.entries(value as Record<string, unknown>).map(([field, v]) => ({ field, values: (Array.isArray(v) ? v : [v]) as Array<string | number | boolean> })),
      };
    default:
      return { type, value } as Action;
  }
}

/** The rule as the API shows it: actions as the list they apply in. */
export function ruleView(rule: QueryRule): Record<string, unknown> {
  const out: Record<string, unknown> = { id: rule.id };
  if (rule.name !== undefined) out.name = rule.name;
  if (rule.description !== undefined) out.description = rule.description;
  out.enabled = rule.enabled;
  out.trigger = rule.trigger;
  out.actions = rule.actions;
  if (rule.owner) out.owner = rule.owner.username;
  return out;
}
