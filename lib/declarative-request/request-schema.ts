import { createRequire } from 'node:module';
import type AjvModule from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { EsError } from '../errors/index.js';
import { BACKENDS, COMPONENT_TYPES, type DeclarativeRequest } from './declarative-request.js';

/**
 * The JSON schema of a declarative request. Everything a client sends is checked here before
 * anything is built: unknown keys and wrong types are refused with the JSON path of the member.
 * Values are checked per component type (a `term` value is scalars, a `range` value `{start,end}`…),
 * so the translator only ever sees data of the shape it expects.
 */
const fieldName = { type: 'string', minLength: 1, maxLength: 512 };
const fieldList = { type: 'array', maxItems: 100, items: fieldName };
const scalar = { type: ['string', 'number', 'boolean'] };
const point = {
  type: 'object',
  additionalProperties: false,
  required: ['lat', 'lon'],
  properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lon: { type: 'number', minimum: -180, maximum: 180 } },
};
/** A point as ReactiveSearch sends it: `"lat, lon"`; or `{lat, lon}`. */
const location = { anyOf: [{ type: 'string', pattern: '^\\s*-?\\d+(\\.\\d+)?\\s*,\\s*-?\\d+(\\.\\d+)?\\s*$' }, point] };
const rawQuery = { type: 'object', minProperties: 1 };
const bound = { type: ['number', 'string', 'null'] };
const rangeValue = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { start: bound, end: bound, boost: { type: 'number', minimum: 0 } },
};
const customEvents = { type: 'object', maxProperties: 100, additionalProperties: { type: ['string', 'number', 'boolean'], maxLength: 1024 } };
const sectionLabel = { type: 'string', maxLength: 256 };
const opaque = { type: 'object' };

// a component without `type` is a search component
const valueOf = (type: string, schema: object) => ({
  if: type === 'search' ? { properties: { type: { const: type } } } : { properties: { type: { const: type } }, required: ['type'] },
  then: { properties: { value: schema } },
});

const weightedField = {
  type: 'object',
  additionalProperties: false,
  required: ['field'],
  properties: { field: fieldName, weight: { type: 'number', minimum: 0, maximum: 10_000 } },
};

/** Props a component takes that tune how it searches: what relevancy settings and rules may set. */
export const TUNING_PROPERTIES = {
  dataField: {
    anyOf: [
      fieldName,
      weightedField,
      { type: 'array', minItems: 1, maxItems: 100, items: { anyOf: [fieldName, weightedField] } },
    ],
  },
  // `or`, `and`, or for range components an Elasticsearch date format (`date`, `epoch_millis`, `yyyy-MM-dd`…)
  queryFormat: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_|:./ \'-]+$' },
  size: { type: 'integer', minimum: 0, maximum: 10_000 },
  sortBy: { enum: ['asc', 'desc', 'count'] },
  includeFields: fieldList,
  excludeFields: fieldList,
  highlight: { type: 'boolean' },
  highlightField: { anyOf: [fieldName, fieldList] },
  fuzziness: { enum: [0, 1, 2, 'AUTO'] },
  searchOperators: { type: 'boolean' },
  aggregationSize: { type: 'integer', minimum: 1, maximum: 10_000 },
  showMissing: { type: 'boolean' },
} as const;

const rankFunction = {
  type: 'object',
  additionalProperties: false,
  maxProperties: 2,
  properties: {
    boost: { type: 'number', minimum: 0 },
    saturation: { type: 'object', additionalProperties: false, properties: { pivot: { type: 'number', exclusiveMinimum: 0 } } },
    log: { type: 'object', additionalProperties: false, required: ['scaling_factor'], properties: { scaling_factor: { type: 'number' } } },
    sigmoid: {
      type: 'object', additionalProperties: false, required: ['pivot', 'exponent'],
      properties: { pivot: { type: 'number', exclusiveMinimum: 0 }, exponent: { type: 'number', exclusiveMinimum: 0 } },
    },
  },
};

/** Elasticsearch highlight options a component may set (`fields` names fields, checked against the mapping). */
const highlightOptions = {
  pre_tags: { anyOf: [{ type: 'string', maxLength: 256 }, { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 256 } }] },
  post_tags: { anyOf: [{ type: 'string', maxLength: 256 }, { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 256 } }] },
  fragment_size: { type: 'integer', minimum: 0, maximum: 100_000 },
  number_of_fragments: { type: 'integer', minimum: 0, maximum: 1000 },
  no_match_size: { type: 'integer', minimum: 0, maximum: 100_000 },
  type: { enum: ['unified', 'plain', 'fvh'] },
  order: { enum: ['none', 'score'] },
  fragmenter: { enum: ['simple', 'span'] },
  encoder: { enum: ['default', 'html'] },
  tags_schema: { enum: ['styled'] },
  require_field_match: { type: 'boolean' },
  boundary_scanner: { enum: ['chars', 'sentence', 'word'] },
  boundary_chars: { type: 'string', maxLength: 64 },
  boundary_max_scan: { type: 'integer', minimum: 0, maximum: 1000 },
  phrase_limit: { type: 'integer', minimum: 0, maximum: 10_000 },
};
const highlightConfig = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...highlightOptions,
    fields: {
      anyOf: [
        { type: 'object', maxProperties: 100, additionalProperties: { type: 'object', additionalProperties: false, properties: highlightOptions } },
        { type: 'array', maxItems: 100, items: { type: 'object', maxProperties: 1, additionalProperties: { type: 'object', additionalProperties: false, properties: highlightOptions } } },
      ],
    },
  },
};

const sortOrder = { enum: ['asc', 'desc'] };
const innerHits = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 256 },
    size: { type: 'integer', minimum: 0, maximum: 100 },
    from: { type: 'integer', minimum: 0, maximum: 100 },
    sort: { type: 'array', maxItems: 10, items: { anyOf: [fieldName, { type: 'object', maxProperties: 1, additionalProperties: { anyOf: [sortOrder, { type: 'object', additionalProperties: false, required: ['order'], properties: { order: sortOrder } }] } }] } },
  },
};

const popularSuggestionsConfig = {
  type: 'object',
  additionalProperties: false,
  properties: {
    size: { type: 'integer', minimum: 0, maximum: 100 },
    minCount: { type: 'integer', minimum: 0 },
    minChars: { type: 'integer', minimum: 0 },
    showGlobal: { type: 'boolean' },
    index: { type: 'string', minLength: 1, maxLength: 1024 },
    customEvents,
    sectionLabel,
  },
};
const recentSuggestionsConfig = {
  type: 'object',
  additionalProperties: false,
  properties: {
    size: { type: 'integer', minimum: 0, maximum: 100 },
    minHits: { type: 'integer', minimum: 0 },
    minChars: { type: 'integer', minimum: 0 },
    index: { type: 'string', minLength: 1, maxLength: 1024 },
    customEvents,
    sectionLabel,
  },
};

/** The languages ReactiveSearch documents for `searchLanguage` (stopwords of predictive suggestions). */
export const SEARCH_LANGUAGES = [
  'arabic', 'bulgarian', 'czech', 'danish', 'english', 'finnish', 'french', 'german', 'hungarian', 'italian', 'japanese', 'latvian',
  'norwegian', 'persian', 'polish', 'portuguese', 'romanian', 'russian', 'slovak', 'spanish', 'swedish', 'thai', 'turkish',
] as const;

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
          fieldWeights: { type: 'array', maxItems: 100, items: { type: 'number', minimum: 0, maximum: 10_000 } },
          value: {},
          react: { $ref: '#/definitions/react' },
          from: { type: 'integer', minimum: 0, maximum: 10_000 },
          sortField: {
            anyOf: [
              fieldName,
              { type: 'array', maxItems: 20, items: { anyOf: [fieldName, { type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: sortOrder }] } },
            ],
          },
          highlightConfig,
          customHighlight: highlightConfig,
          queryString: { type: 'boolean' },
          enableSynonyms: { type: 'boolean' },
          categoryField: fieldName,
          categoryValue: { type: ['string', 'null'], maxLength: 4096 },
          nestedField: fieldName,
          aggregationField: fieldName,
          after: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } },
          pagination: { type: 'boolean' },
          missingLabel: { type: 'string', maxLength: 256 },
          selectAllLabel: { type: 'string', maxLength: 256 },
          includeValues: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 1024 } },
          excludeValues: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 1024 } },
          includeNullValues: { type: 'boolean' },
          interval: { type: 'number', exclusiveMinimum: 0 },
          calendarInterval: { enum: ['minute', '1m', 'hour', '1h', 'day', '1d', 'week', '1w', 'month', '1M', 'quarter', '1q', 'year', '1y'] },
          aggregations: { type: 'array', maxItems: 3, uniqueItems: true, items: { enum: ['min', 'max', 'histogram'] } },
          range: { type: 'object', additionalProperties: false, properties: { start: bound, end: bound } },
          distinctField: fieldName,
          distinctFieldConfig: {
            type: 'object',
            additionalProperties: false,
            properties: {
              inner_hits: { anyOf: [innerHits, { type: 'array', maxItems: 5, items: innerHits }] },
              max_concurrent_group_searches: { type: 'integer', minimum: 1, maximum: 100 },
            },
          },
          rankFeature: { type: 'object', maxProperties: 20, additionalProperties: rankFunction },
          compoundClause: { enum: ['must', 'filter'] },
          deepPagination: { type: 'boolean' },
          deepPaginationConfig: {
            type: 'object',
            additionalProperties: false,
            properties: { cursor: { anyOf: [scalar, { type: 'array', maxItems: 10, items: { type: ['string', 'number', 'boolean', 'null'] } }] } },
          },
          execute: { type: 'boolean' },
          index: { type: 'string', minLength: 1, maxLength: 1024 },
          defaultQuery: rawQuery,
          customQuery: rawQuery,
          vectorDataField: fieldName,
          queryVector: { type: 'array', minItems: 1, maxItems: 4096, items: { type: 'number' } },
          candidates: { type: 'integer', minimum: 1, maximum: 10_000 },
          script: { type: 'string', minLength: 1, maxLength: 16_384 },
          enablePopularSuggestions: { type: 'boolean' },
          popularSuggestionsConfig,
          enableRecentSuggestions: { type: 'boolean' },
          recentSuggestionsConfig,
          enableIndexSuggestions: { type: 'boolean' },
          indexSuggestionsConfig: { type: 'object', additionalProperties: false, properties: { sectionLabel, size: { type: 'integer', minimum: 0, maximum: 10_000 } } },
          showDistinctSuggestions: { type: 'boolean' },
          enablePredictiveSuggestions: { type: 'boolean' },
          maxPredictedWords: { type: 'integer', minimum: 1, maximum: 5 },
          urlField: fieldName,
          applyStopwords: { type: 'boolean' },
          customStopwords: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 128 } },
          searchLanguage: { enum: [...SEARCH_LANGUAGES] },
          // known, refused by validate.ts when they ask for what the gateway does not do
          enableFeaturedSuggestions: { type: 'boolean' },
          featuredSuggestionsConfig: opaque,
          enableFAQSuggestions: { type: 'boolean' },
          FAQSuggestionsConfig: opaque,
          enableDocumentSuggestions: { type: 'boolean' },
          documentSuggestionsConfig: opaque,
          enableEndpointSuggestions: { type: 'boolean' },
          searchboxId: { type: 'string', maxLength: 256 },
          endpoint: opaque,
          enableAI: { type: 'boolean' },
          AIConfig: opaque,
          imageValue: { type: 'string' },
        },
        allOf: [
          valueOf('search', { type: ['string', 'number', 'null'], maxLength: 4096 }),
          valueOf('suggestion', { type: ['string', 'number', 'null'], maxLength: 4096 }),
          valueOf('term', { anyOf: [{ type: 'null' }, scalar, { type: 'array', maxItems: 1000, items: scalar }] }),
          valueOf('range', { anyOf: [rangeValue, { type: 'array', maxItems: 100, items: rangeValue }] }),
          valueOf('geo', {
            anyOf: [
              { type: 'null' },
              {
                type: 'object',
                additionalProperties: false,
                required: ['location', 'distance'],
                properties: {
                  location,
                  distance: { type: 'number', exclusiveMinimum: 0 },
                  unit: { enum: ['m', 'km', 'mi', 'yd', 'ft', 'cm', 'mm', 'nmi', 'in'] },
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
                    properties: { topLeft: location, bottomRight: location },
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
        customEvents,
        emptyQuery: { type: 'boolean' },
        useCache: { type: 'boolean' },
        enableQueryRules: { type: 'boolean' },
        enableSearchRelevancy: { type: 'boolean' },
        /** A rule under test, applied as if it were stored and first in order (its shape is checked by lib/rules). */
        queryRule: { type: 'object' },
        /** ReactiveSearch clients' own settings, sent along: whether they record suggestion clicks, the URL parameters they add. */
        suggestionAnalytics: { type: 'boolean' },
        queryParams: { type: 'object' },
      },
    },
    /** The client's own data about the request (ReactiveSearch's `metadata`); never part of the search. */
    metadata: { type: 'object', maxProperties: 100 },
  },
} as const;

// Ajv is loaded and made, and each schema compiled, when a check first runs: compiling this
// module's schemas and those of the rules, relevancy and cache preferences, and loading Ajv, took
// about 0.7 s of CPU at every start of a process that loads the gateway (a fifth of a spawned
// gateway's start), most of which never check such a body.
type Ajv = InstanceType<typeof AjvModule.default>;
let ajv: Ajv | undefined;
const newAjv = (): Ajv => {
  const { default: Ajv } = createRequire(import.meta.url)('ajv') as typeof AjvModule;
  return new Ajv({ allErrors: false, strict: true, strictTypes: false });
};

/** A JSON pointer's reference tokens, still escaped (RFC 6901: each one follows a `/`; `''` has none). */
function pointerTokens(pointer: string): string[] {
  return [...pointer.matchAll(/\/([^/]*)/g)].map((m) => m[1]);
}

/** `/query/2/react/and/0` → `query[2].react.and[0]` */
export function jsonPath(pointer: string, member?: string): string {
  let out = '';
  for (const raw of pointerTokens(pointer)) {
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
    return pointerTokens(e.instancePath).length + 1 + (member === undefined ? 0 : 1);
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
  let check: ValidateFunction | undefined;
  return (body: unknown, prefix = ''): asserts body is T => {
    if (body === undefined) throw new EsError(400, 'illegal_argument_exception', `${what} is required`);
    const valid = (check ??= (ajv ??= newAjv()).compile(schema));
    if (valid(body)) return;
    const reason = describe(mostSpecific(valid.errors ?? []));
    throw new EsError(400, 'illegal_argument_exception', prefix && !reason.startsWith('(body)') ? `${prefix}${/^[[]/.test(reason) ? '' : '.'}${reason}` : prefix ? `${prefix}${reason.slice('(body)'.length)}` : reason);
  };
}

/** Throws a 400 naming the offending member's JSON path unless `body` has the schema's shape. */
export const checkRequestShape: (body: unknown) => asserts body is DeclarativeRequest = shapeCheck<DeclarativeRequest>(DECLARATIVE_SCHEMA);
