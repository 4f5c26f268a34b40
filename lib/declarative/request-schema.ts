import AjvModule, { type ErrorObject } from 'ajv';
import { EsError } from '../errors/index.js';
import { BACKENDS, COMPONENT_TYPES, type DeclarativeRequest } from './declarative-request.js';

/**
 * The JSON schema of a declarative request. Everything a client sends is checked here before
 * anything is built: unknown keys and wrong types are refused with the JSON path of the member.
 * Values are checked per component type (a `term` value is scalars, a `range` value `{start,end}`…),
 * so the translator only ever sees data of the shape it expects.
 */
const fieldName = { type: 'string', minLength: 1, maxLength: 512 };
const scalar = { type: ['string', 'number', 'boolean'] };
const point = {
  type: 'object',
  additionalProperties: false,
  required: ['lat', 'lon'],
  properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lon: { type: 'number', minimum: -180, maximum: 180 } },
};
const rawQuery = { type: 'object', minProperties: 1 };

// a component without `type` is a search component
const valueOf = (type: string, schema: object) => ({
  if: type === 'search' ? { properties: { type: { const: type } } } : { properties: { type: { const: type } }, required: ['type'] },
  then: { properties: { value: schema } },
});

/** Props a component takes that tune how it searches: what relevancy settings and rules may set. */
export const TUNING_PROPERTIES = {
  dataField: {
    anyOf: [
      fieldName,
      {
        type: 'array',
        minItems: 1,
        maxItems: 100,
        items: {
          anyOf: [
            fieldName,
            {
              type: 'object',
              additionalProperties: false,
              required: ['field'],
              properties: { field: fieldName, weight: { type: 'number', exclusiveMinimum: 0, maximum: 10_000 } },
            },
          ],
        },
      },
    ],
  },
  queryFormat: { enum: ['or', 'and'] },
  size: { type: 'integer', minimum: 0, maximum: 10_000 },
  sortBy: { enum: ['asc', 'desc', 'count'] },
  includeFields: { type: 'array', maxItems: 100, items: fieldName },
  excludeFields: { type: 'array', maxItems: 100, items: fieldName },
  highlight: { type: 'boolean' },
  highlightField: { anyOf: [fieldName, { type: 'array', maxItems: 100, items: fieldName }] },
  fuzziness: { enum: [0, 1, 2, 'AUTO'] },
  searchOperators: { type: 'boolean' },
  aggregationSize: { type: 'integer', minimum: 1, maximum: 10_000 },
  showMissing: { type: 'boolean' },
} as const;

export const DECLARATIVE_SCHEMA = {
  $id: 'declarative-request',
  type: 'object',
  additionalProperties: false,
  required: ['query'],
  definitions: {
    react: {
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'array', items: { $ref: '#/definitions/react' } },
        {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: { and: { $ref: '#/definitions/react' }, or: { $ref: '#/definitions/react' }, not: { $ref: '#/definitions/react' } },
        },
      ],
    },
  },
  properties: {
    query: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id'],
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 256 },
          type: { enum: [...COMPONENT_TYPES] },
          ...TUNING_PROPERTIES,
          value: {},
          react: { $ref: '#/definitions/react' },
          from: { type: 'integer', minimum: 0, maximum: 10_000 },
          sortField: fieldName,
          aggregationField: fieldName,
          after: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } },
          interval: { type: 'number', exclusiveMinimum: 0 },
          execute: { type: 'boolean' },
          index: { type: 'string', minLength: 1, maxLength: 1024 },
          defaultQuery: rawQuery,
          customQuery: rawQuery,
        },
        allOf: [
          valueOf('search', { type: ['string', 'null'], maxLength: 4096 }),
          valueOf('suggestion', { type: ['string', 'null'], maxLength: 4096 }),
          valueOf('term', { anyOf: [{ type: 'null' }, scalar, { type: 'array', maxItems: 1000, items: scalar }] }),
          valueOf('range', {
            type: ['object', 'null'],
            additionalProperties: false,
            properties: { start: { type: ['number', 'string', 'null'] }, end: { type: ['number', 'string', 'null'] } },
          }),
          valueOf('geo', {
            anyOf: [
              { type: 'null' },
              {
                type: 'object',
                additionalProperties: false,
                required: ['location', 'distance'],
                properties: {
                  location: point,
                  distance: { type: 'number', exclusiveMinimum: 0 },
                  unit: { enum: ['m', 'km', 'mi', 'yd', 'ft'] },
                },
              },
              {
                type: 'object',
                additionalProperties: false,
                required: ['geoBoundingBox'],
                properties: {
                  geoBoundingBox: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['topLeft', 'bottomRight'],
                    properties: { topLeft: point, bottomRight: point },
                  },
                },
              },
            ],
          }),
        ],
      },
    },
    settings: {
      type: 'object',
      additionalProperties: false,
      properties: {
        backend: { enum: [...BACKENDS] },
        recordAnalytics: { type: 'boolean' },
        userId: { type: 'string', maxLength: 512 },
        customEvents: { type: 'object', maxProperties: 100, additionalProperties: { type: 'string', maxLength: 1024 } },
        emptyQuery: { type: 'boolean' },
        useCache: { type: 'boolean' },
        enableQueryRules: { type: 'boolean' },
        enableSearchRelevancy: { type: 'boolean' },
        /** A rule under test, applied as if it were stored and first in order (its shape is checked by lib/rules). */
        queryRule: { type: 'object' },
      },
    },
  },
} as const;

const Ajv = AjvModule.default;
const ajv = new Ajv({ allErrors: false, strict: true, strictTypes: false });

/** `/query/2/react/and/0` → `query[2].react.and[0]` */
export function jsonPath(pointer: string, member?: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(seg) ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  }
  if (member !== undefined) out += out === '' ? member : `.${member}`;
  return out === '' ? '(body)' : out;
}

/** The most specific error: the deepest path (alternatives report each branch, then the alternative itself). */
function mostSpecific(errs: ErrorObject[]): ErrorObject {
  const depthOf = (e: ErrorObject) => {
    const p = e.params as Record<string, unknown>;
    const member = e.keyword === 'additionalProperties' ? p.additionalProperty : e.keyword === 'required' ? p.missingProperty : undefined;
    return e.instancePath.split('/').length + (member === undefined ? 0 : 1);
  };
  const depth = Math.max(...errs.map(depthOf));
  const deepest = errs.filter((e) => depthOf(e) === depth);
  return deepest.find((e) => e.keyword === 'anyOf') ?? deepest[0];
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties':
      return `${jsonPath(e.instancePath, String(p.additionalProperty))}: unknown key [${String(p.additionalProperty)}]`;
    case 'required':
      return `${jsonPath(e.instancePath, String(p.missingProperty))}: is required`;
    case 'enum':
      return `${jsonPath(e.instancePath)}: must be one of [${(p.allowedValues as unknown[]).map(String).join(', ')}]`;
    case 'anyOf':
      return `${jsonPath(e.instancePath)}: has an unexpected shape`;
    default:
      return `${jsonPath(e.instancePath)}: ${e.message ?? 'is invalid'}`;
  }
}

/**
 * A check against a JSON schema that throws a 400 naming the offending member's JSON path
 * (`prefix` is put before it, for a document whose members sit under a known path).
 */
export function shapeCheck<T>(schema: object, what = 'request body'): (body: unknown, prefix?: string) => asserts body is T {
  const check = ajv.compile(schema);
  return (body: unknown, prefix = ''): asserts body is T => {
    if (body === undefined) throw new EsError(400, 'illegal_argument_exception', `${what} is required`);
    if (check(body)) return;
    const reason = describe(mostSpecific(check.errors ?? []));
    throw new EsError(400, 'illegal_argument_exception', prefix && !reason.startsWith('(body)') ? `${prefix}${/^[[]/.test(reason) ? '' : '.'}${reason}` : prefix ? `${prefix}${reason.slice('(body)'.length)}` : reason);
  };
}

/** Throws a 400 naming the offending member's JSON path unless `body` has the schema's shape. */
export const checkRequestShape: (body: unknown) => asserts body is DeclarativeRequest = shapeCheck<DeclarativeRequest>(DECLARATIVE_SCHEMA);
