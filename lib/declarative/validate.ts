import type { Principal } from '../auth/index.js';
import type { Backend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { isRawBody, RAW_BODY_KEYS, UnknownFieldError } from './component-queries.js';
import { checkIndexReferences } from './index-references.js';
import type { Component, DeclarativeRequest } from '../declarative-request/index.js';
import type { FieldCatalog, MappingsOf } from './field-catalog.js';
import { QUERY_SUGGESTIONS_CATALOG, QUERY_SUGGESTIONS_INDEX } from './query-suggestions.js';
import { checkReactDepth, checkReactGraph } from './react-graph.js';
import { checkRequestShape } from '../declarative-request/index.js';
import { componentIndex, OPENSEARCH_SPACES, translate, type SourceRules, type Translation } from './translate.js';

export interface ValidateOptions {
  /** The index of `/{index}/_declarative`, for components without their own `index`. */
  defaultIndex?: string;
  /**
   * Called once the request has its shape and a sound react graph, before sizes, permissions and
   * fields are checked: it may change the components (relevancy defaults, query rules), which are
   * then checked as if the client had sent them. `indexOf(i)`: the index component i reads.
   */
  prepare?: (request: DeclarativeRequest, indexOf: (i: number) => string) => void;
  /**
   * The engine, where the indices the translated DSL refers to (raw DSL's lookups) are resolved to
   * be authorized (`checkIndexReferences`); without it a scoped credential's references are refused.
   */
  engine?: Backend;
}

/** A request that passed every check, with its translation (translation is where fields are checked). */
export interface ValidatedDeclarative {
  request: DeclarativeRequest;
  catalogs: ReadonlyMap<string, FieldCatalog>;
  translation: Translation;
}

/** Raw query DSL is for the admin and for credentials allowed it. */
export const mayUseRawDsl = (principal: Principal) => principal.role === 'admin' || principal.credential.allow_raw_dsl === true;

/**
 * Everything checked before a declarative request reaches the engine, in order: the JSON schema
 * (unknown keys, wrong types), the react graph (unknown ids, self-reference), raw DSL permission (403),
 * sizes within the credential's `max_size`, the indices' existence and every field name against
 * their mappings, then the indices the translation refers to inside its queries (403). Each
 * failure is an EsError naming the JSON path of the member at fault. The components' own indices
 * are not checked again here: the authorizer has checked every `query[].index`.
 */
export async function validateDeclarative(
  body: unknown,
  principal: Principal,
  mappingsOf: MappingsOf,
  options: ValidateOptions = {},
): Promise<ValidatedDeclarative> {
  checkReactDepth(body); // before the schema, whose check of `react` recurses
  checkRequestShape(body);
  const request = body;
  checkReactGraph(request.query);
  options.prepare?.(request, (i) => componentIndex(request, i, options.defaultIndex));
  const maxSize = principal.role === 'admin' ? undefined : principal.credential.max_size;
  request.query.forEach((c, i) => {
    // `.suggestions` is answered from search analytics: raw DSL written for it (ReactiveSearch sends some) never runs
    const querySuggestions = componentIndex(request, i, options.defaultIndex) === QUERY_SUGGESTIONS_INDEX;
    for (const member of ['defaultQuery', 'customQuery'] as const) {
      if (c[member] !== undefined && !querySuggestions && !mayUseRawDsl(principal)) {
        throw new EsError(403, 'security_exception', `query[${i}].${member}: raw query DSL is not allowed for user [${principal.username}]`);
      }
    }
    if (maxSize !== undefined && c.size !== undefined && c.size > maxSize) {
      throw new EsError(400, 'illegal_argument_exception', `query[${i}].size: [${c.size}] is above this credential's max_size of [${maxSize}]`);
    }
    if (!querySuggestions) checkRawBody(c, i, maxSize);
    checkVectorSearch(c, i, request, principal);
    checkProvided(c, i);
    if (querySuggestions && (c.type ?? 'search') !== 'search' && c.type !== 'suggestion') {
      throw invalid(`query[${i}].type: the ${QUERY_SUGGESTIONS_INDEX} index answers search and suggestion components only`);
    }
  });

  const indices = new Set(request.query.map((_, i) => componentIndex(request, i, options.defaultIndex)));
  // `.suggestions` is answered from search analytics (query-suggestions.ts): its fields are fixed
  const fieldsOf = (index: string, fresh: boolean) => (index === QUERY_SUGGESTIONS_INDEX ? QUERY_SUGGESTIONS_CATALOG : mappingsOf(index, { fresh }));
  const read = async (fresh: boolean) => new Map(await Promise.all([...indices].map(async (index) => [index, await fieldsOf(index, fresh)] as const)));
  const sourceRules = sourceRulesOf(principal);
  const translateWith = (catalogs: ReadonlyMap<string, FieldCatalog>) => translate(request, catalogs, { defaultIndex: options.defaultIndex, sourceRules, maxSize });

  let catalogs: ReadonlyMap<string, FieldCatalog> = await read(false);
  let translation: Translation;
  try {
    translation = translateWith(catalogs);
  } catch (err) {
    if (!(err instanceof UnknownFieldError)) throw err;
    catalogs = await read(true); // the mapping may have grown since it was cached
    translation = translateWith(catalogs);
  }
  await checkIndexReferences(translation.msearch.filter((_, i) => i % 2 === 1), principal, options.engine);
  return { request, catalogs, translation };
}

const invalid = (reason: string) => new EsError(400, 'illegal_argument_exception', reason);

/** A `defaultQuery` written as a search body carries only the members a component's search may have. */
function checkRawBody(c: Component, i: number, maxSize: number | undefined): void {
  const raw = c.defaultQuery;
  if (!raw || !isRawBody(raw)) return;
  for (const key of Object.keys(raw)) {
    if (key !== 'query' && !(RAW_BODY_KEYS as readonly string[]).includes(key)) {
      throw invalid(`query[${i}].defaultQuery.${key}: not allowed in a defaultQuery (it takes query, ${RAW_BODY_KEYS.join(', ')})`);
    }
  }
  if (maxSize !== undefined && typeof raw.size === 'number' && raw.size > maxSize) {
    throw invalid(`query[${i}].defaultQuery.size: [${raw.size}] is above this credential's max_size of [${maxSize}]`);
  }
}

/**
 * kNN reordering needs `vectorDataField` and `queryVector` together. A `script` of its own is
 * painless run by Elasticsearch: raw DSL, for the credentials allowed it; with OpenSearch it names a
 * space.
 */
function checkVectorSearch(c: Component, i: number, request: DeclarativeRequest, principal: Principal): void {
  if ((c.vectorDataField === undefined) !== (c.queryVector === undefined)) {
    const missing = c.vectorDataField === undefined ? 'vectorDataField' : 'queryVector';
    throw invalid(`query[${i}].${missing}: is required for kNN reordering (vectorDataField and queryVector go together)`);
  }
  if (c.script === undefined) return;
  if (request.settings?.backend === 'opensearch') {
    if (!OPENSEARCH_SPACES.includes(c.script)) throw invalid(`query[${i}].script: must be one of [${OPENSEARCH_SPACES.join(', ')}] with the opensearch backend`);
  } else if (!mayUseRawDsl(principal)) {
    throw new EsError(403, 'security_exception', `query[${i}].script: a script is raw query DSL, not allowed for user [${principal.username}]`);
  }
}

/**
 * Properties ReactiveSearch documents whose feature the gateway does not have: known (the schema
 * admits them), refused when they ask for it rather than silently ignored. `endpoint` would have the
 * gateway call any address a browser names.
 */
function checkProvided(c: Component, i: number): void {
  const refuse = (member: string, why: string) => {
    throw invalid(`query[${i}].${member}: ${why}`);
  };
  if (c.endpoint !== undefined) refuse('endpoint', 'a component cannot be sent to another URL through the gateway (it would let any browser make the gateway call any address)');
  if (c.enableEndpointSuggestions) refuse('enableEndpointSuggestions', 'suggestions from another URL are not fetched by the gateway (it would let any browser make the gateway call any address)');
  if (c.enableFeaturedSuggestions) refuse('enableFeaturedSuggestions', 'featured suggestions are not kept by the gateway');
  if (c.enableFAQSuggestions) refuse('enableFAQSuggestions', 'FAQ suggestions are not kept by the gateway');
  if (c.enableDocumentSuggestions) refuse('enableDocumentSuggestions', 'document suggestions are not provided by the gateway');
  if (c.enableAI) refuse('enableAI', 'AI answers are not provided by the gateway');
  if (c.imageValue !== undefined) refuse('imageValue', 'image search is not provided by the gateway (it needs an embedding model)');
}

/** The credential's `_source` rules (none for the admin). */
export function sourceRulesOf(principal: Principal): SourceRules | undefined {
  const cred = principal.role === 'admin' ? undefined : principal.credential;
  return cred && (cred.include_fields?.length || cred.exclude_fields?.length) ? { include: cred.include_fields, exclude: cred.exclude_fields } : undefined;
}

export interface DeclarativeMsearch {
  /** The `_msearch` body, NDJSON, ending with a newline. */
  ndjson: string;
  /** The same lines as objects (header, body, …). */
  lines: Translation['msearch'];
  plan: Translation['plan'];
}

/** The `_msearch` request a validated declarative request stands for. */
export function translateDeclarative(validated: ValidatedDeclarative): DeclarativeMsearch {
  const { msearch, plan } = validated.translation;
  let ndjson = '';
  for (const line of msearch) ndjson += JSON.stringify(line) + '\n';
  return { ndjson, lines: msearch, plan };
}
