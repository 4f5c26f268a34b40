import type { Principal } from '../auth/index.js';
import { EsError } from '../errors/index.js';
import { UnknownFieldError } from './component-queries.js';
import type { DeclarativeRequest } from './declarative-request.js';
import type { FieldCatalog, MappingsOf } from './field-catalog.js';
import { checkReactDepth, checkReactGraph } from './react-graph.js';
import { checkRequestShape } from './request-schema.js';
import { componentIndex, translate, type SourceRules, type Translation } from './translate.js';

export interface ValidateOptions {
  /** The index of `/{index}/_declarative`, for components without their own `index`. */
  defaultIndex?: string;
  /**
   * Called once the request has its shape and a sound react graph, before sizes, permissions and
   * fields are checked: it may change the components (relevancy defaults, query rules), which are
   * then checked as if the client had sent them. `indexOf(i)`: the index component i reads.
   */
  prepare?: (request: DeclarativeRequest, indexOf: (i: number) => string) => void;
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
 * (unknown keys, wrong types), the react graph (unknown ids, cycles), raw DSL permission (403),
 * sizes within the credential's `max_size`, the indices' existence and every field name against
 * their mappings. Each failure is an EsError naming the JSON path of the member at fault.
 * Index authorization is not repeated here: the authorizer has checked every `query[].index`.
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
    for (const member of ['defaultQuery', 'customQuery'] as const) {
      if (c[member] !== undefined && !mayUseRawDsl(principal)) {
        throw new EsError(403, 'security_exception', `query[${i}].${member}: raw query DSL is not allowed for user [${principal.username}]`);
      }
    }
    if (maxSize !== undefined && c.size !== undefined && c.size > maxSize) {
      throw new EsError(400, 'illegal_argument_exception', `query[${i}].size: [${c.size}] is above this credential's max_size of [${maxSize}]`);
    }
  });

  const indices = new Set(request.query.map((_, i) => componentIndex(request, i, options.defaultIndex)));
  const read = async (fresh: boolean) => new Map(await Promise.all([...indices].map(async (index) => [index, await mappingsOf(index, { fresh })] as const)));
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
  return { request, catalogs, translation };
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
