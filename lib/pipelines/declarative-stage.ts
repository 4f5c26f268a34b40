import { checkIndexReferences, IndexMappings, shapeDeclarativeResponse, translateDeclarative, validateDeclarative, type DeclarativePlan, type MsearchResponse } from '../declarative/index.js';
import type { InterceptedBackend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import type { DeclarativeStageApi } from './stages.js';

/** The `declarativeQuery` stage's use of lib/declarative: the same validation and translation as `POST /_declarative`. */
export function declarativeStageApi(backend: InterceptedBackend, mappings = new IndexMappings(backend)): DeclarativeStageApi {
  return {
    async translate(context, caller, owner) {
      let body: unknown;
      try {
        body = JSON.parse(context.request.body);
      } catch {
        throw new EsError(400, 'parse_exception', 'the declarative request body is not valid JSON');
      }
      const validated = await validateDeclarative(body, caller.principal, mappings.get, { defaultIndex: context.request.params.index, engine: backend });
      const msearch = translateDeclarative(validated);
      // what the translation looks up is read for the pipeline's owner too: never more than it may
      if (owner) await checkIndexReferences(msearch.lines.filter((_, i) => i % 2 === 1), owner, backend);
      context.request = {
        ...context.request,
        method: 'POST',
        path: '/_msearch',
        query: {},
        headers: { ...context.request.headers, 'content-type': 'application/x-ndjson' },
        body: msearch.ndjson,
      };
      return msearch.plan;
    },
    shape(plan, engineBody) {
      return JSON.stringify(shapeDeclarativeResponse(plan as DeclarativePlan, JSON.parse(engineBody) as MsearchResponse));
    },
  };
}
