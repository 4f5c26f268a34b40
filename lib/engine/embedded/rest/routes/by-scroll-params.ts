import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { booleanParam, intParam, type ParamReader } from '../params.js';

/**
 * The parameters `_reindex`, `_update_by_query` and `_delete_by_query` share (Elasticsearch's
 * AbstractBulkByScrollRequest and its REST parsing), with Elasticsearch's messages.
 */

export function conflictsMode(v: unknown): 'abort' | 'proceed' {
  if (v === undefined || v === null || v === 'abort') return 'abort';
  if (v === 'proceed') return 'proceed';
  throw new EsError(400, 'illegal_argument_exception', `conflicts may only be "proceed" or "abort" but was [${String(v)}]`);
}

/** `requests_per_second`: a positive number, or -1 for no throttling (Infinity). */
export function requestsPerSecond(params: ParamReader): number {
  const v = params.get('requests_per_second');
  if (v === null || v === '-1') return Infinity;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new EsError(400, 'illegal_argument_exception', '[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.');
  }
  return n;
}

/** `slices`: a positive number, or `auto` (one slice per shard of the source, the fewest if several). */
export function slicesParam(params: ParamReader, sources: IndexHandle[]): number {
  const v = params.get('slices');
  if (v === null) return 1;
  if (v === 'auto') {
    const shards = sources.map((h) => Number(h.meta.settings['index.number_of_shards'] ?? '1'));
    return shards.length ? Math.max(1, Math.min(...shards)) : 1;
  }
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!(n > 0)) throw new EsError(400, 'illegal_argument_exception', `[slices] must be a positive integer or the string "auto", but was [${v}]`);
  // Each slice is a sliced scroll of the sources: Elasticsearch's search refuses more than index.max_slices_per_scroll.
  for (const h of sources) {
    const limit = Number(h.meta.settings['index.max_slices_per_scroll'] ?? '1024');
    if (n > limit) {
      throw new EsError(400, 'illegal_argument_exception',
        `The number of slices [${n}] is too large. It must be less than [${limit}]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.`);
    }
  }
  return n;
}

/** `slices` as a number for validation before the sources are known (`auto` → undefined). */
export function requestedSlices(params: ParamReader): number | undefined {
  const v = params.get('slices');
  return v === null || v === 'auto' ? undefined : slicesParam(params, []);
}

function maxDocsValue(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw new EsError(400, 'number_format_exception', `For input string: "${String(v)}"`);
  if (n < 0) throw new EsError(400, 'illegal_argument_exception', `[max_docs] parameter cannot be negative, found [${n}]`);
  return n;
}

/**
 * `max_docs` from the URL and the body (`size` there is its old name): one value, or
 * Elasticsearch's "set to two different values"; checked against `slices`.
 */
export function maxDocsParam(params: ParamReader, body: Record<string, unknown>, slices: number | undefined): number | undefined {
  // Elasticsearch sets max_docs as it parses: the body's `size`/`max_docs` in their order, then the URL
  const given: number[] = [];
  for (const [k, v] of Object.entries(body)) if (k === 'size' || k === 'max_docs') given.push(maxDocsValue(v));
  const fromUrl = params.get('max_docs') ?? (given.length ? null : params.get('size'));
  if (fromUrl !== null) given.push(maxDocsValue(fromUrl));
  if (given.length > 1 && given.some((g) => g !== given[0])) {
    throw new EsError(400, 'illegal_argument_exception', `[max_docs] set to two different values [${given[0]}] and [${given.find((g) => g !== given[0])}]`);
  }
  const maxDocs = given[0];
  if (maxDocs === undefined) return undefined;
  if (maxDocs === 0) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: maxDocs should be greater than 0 if the request is limited to some number of documents or -1 if it isn't but it was [0];`);
  }
  if (slices !== undefined && maxDocs < slices) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: [max_docs] should be >= [slices];');
  return maxDocs;
}

/** `wait_for_completion` (default true). */
export function waitsForCompletion(params: ParamReader): boolean {
  return booleanParam(params, 'wait_for_completion', true);
}

/** The scroll batch size: `scroll_size` in the URL (by-query), `source.size` in a reindex body; default 1000. */
export function batchSize(params: ParamReader): number {
  const n = intParam(params, 'scroll_size') ?? 1000;
  if (n <= 0) throw new EsError(400, 'illegal_argument_exception', `[size] must be greater than 0 but was [${n}]`);
  return n;
}

/**
 * The search fields a reindex's source or a by-query body parses but refuses, as Elasticsearch's
 * AbstractBulkByScrollRequest.validate does (a scroll reads every match from the start, and the
 * writes need each document's _source): the validation errors, none when it has neither.
 */
export function unsupportedSearchFields(search: Record<string, unknown>): string[] {
  const errors: string[] = [];
  if (search.from !== undefined) errors.push('from is not supported in this context');
  if (search.stored_fields !== undefined) errors.push('stored_fields is not supported in this context');
  return errors;
}

/** Elasticsearch's ActionRequestValidationException of these errors, numbered. */
export function validationFailed(errors: string[]): EsError {
  return new EsError(400, 'action_request_validation_exception', `Validation Failed: ${errors.map((e, i) => `${i + 1}: ${e};`).join('')}`);
}
