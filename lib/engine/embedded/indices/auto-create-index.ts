import { EsError, errors } from '../../../errors/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import { isSystemIndex } from '../../index-patterns.js';
import type { ComposableTemplate } from './templates.js';

const SETTING = 'action.auto_create_index';

/**
 * Whether a write may create the missing index `index`, as Elasticsearch's AutoCreateIndex
 * decides: a system index always; else the composable template the index would take, when it
 * says `allow_auto_create`; else the `action.auto_create_index` cluster setting — `true`,
 * `false`, or comma-separated patterns, each `+` (allowed, the default) or `-` (forbidden), the
 * first that matches deciding and none matching forbidding. Throws the index_not_found_exception
 * Elasticsearch answers when the index may not be created.
 */
export function checkAutoCreate(index: string, setting: string, template: ComposableTemplate | undefined): void {
  if (isSystemIndex(index)) return;
  if (template?.allow_auto_create === true) return;
  if (template?.allow_auto_create === false) throw forbidden(index, `composable template [${template.index_patterns.join(', ')}] forbids index auto creation`);
  const value = setting.trim();
  if (value === 'true') return;
  if (value === 'false') throw forbidden(index, `[${SETTING}] is [false]`);
  for (const [pattern, include] of autoCreatePatterns(value)) {
    if (!simpleMatch(pattern, index)) continue;
    if (include) return;
    throw forbidden(index, `[${SETTING}] contains [-${pattern}] which forbids automatic creation of the index`);
  }
  throw forbidden(index, `[${SETTING}] ([${setting}]) doesn't match`);
}

/** The setting's patterns, each with whether it allows (`+` or no sign) or forbids (`-`) creation. */
export function autoCreatePatterns(value: string): Array<[string, boolean]> {
  return value.split(',').map((raw) => {
    const pattern = raw.trim();
    if (!pattern || pattern === '+' || pattern === '-') {
      throw new EsError(400, 'illegal_argument_exception',
        `Can't parse [${value}] for setting [${SETTING}] must be either [true, false, or a comma separated list of index patterns]`);
    }
    if (pattern.startsWith('-')) return [pattern.slice(1), false];
    return [pattern.startsWith('+') ? pattern.slice(1) : pattern, true];
  });
}

function forbidden(index: string, why: string): EsError {
  const e = errors.indexNotFound(index);
  return new EsError(404, e.type, `${e.reason} and ${why}`, e.extra);
}
