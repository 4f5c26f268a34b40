import { EsError } from '../../../errors/index.js';
import { documentParsingError } from './errors.js';
import { simpleMatch } from '../../../wildcard/index.js';
import { compileJavaRegex, InvalidPatternError, type LinearRegex } from '../regex/index.js';
import type { FieldMapping } from './types.js';

/** The JSON kind of a new field as dynamic templates see it (`match_mapping_type`). */
export type DynamicType = 'object' | 'string' | 'long' | 'double' | 'boolean' | 'date' | 'binary';

interface TemplateDef {
  match?: string | string[];
  unmatch?: string | string[];
  path_match?: string | string[];
  path_unmatch?: string | string[];
  match_mapping_type?: string | string[];
  unmatch_mapping_type?: string | string[];
  match_pattern?: 'simple' | 'regex';
  mapping?: FieldMapping;
  runtime?: FieldMapping;
}

/** Java's `String.matches`, on a linear-time engine (compiled patterns are cached there). */
function regexMatch(pattern: string, value: string): boolean {
  let re: LinearRegex;
  try {
    re = compileJavaRegex(pattern);
  } catch (e) {
    if (e instanceof InvalidPatternError) throw new EsError(400, 'illegal_argument_exception', `Invalid regex [${pattern}] in dynamic template: ${e.message}`);
    throw e;
  }
  return re.testExact(value);
}

const list = (v: string | string[] | undefined): string[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

function matches(t: TemplateDef, name: string, path: string, type: DynamicType): boolean {
  const m = t.match_pattern === 'regex' ? regexMatch : simpleMatch;
  const types = list(t.match_mapping_type);
  if (types && !types.some((x) => x === '*' || x === type)) return false;
  const untypes = list(t.unmatch_mapping_type);
  if (untypes && untypes.some((x) => x === type)) return false;
  const match = list(t.match);
  if (match && !match.some((p) => m(p, name))) return false;
  const unmatch = list(t.unmatch);
  if (unmatch && unmatch.some((p) => m(p, name))) return false;
  const pathMatch = list(t.path_match);
  if (pathMatch && !pathMatch.some((p) => m(p, path))) return false;
  const pathUnmatch = list(t.path_unmatch);
  if (pathUnmatch && pathUnmatch.some((p) => m(p, path))) return false;
  return true;
}

/**
 * A template with none of `match_mapping_type`, `match` and `path_match` matches no field by
 * itself: it applies only where a bulk item names it in `dynamic_templates`.
 */
function hasMatchConditions(t: TemplateDef): boolean {
  return t.match_mapping_type !== undefined || t.match !== undefined || t.path_match !== undefined;
}

function substitute(v: unknown, name: string, type: string): unknown {
  if (typeof v === 'string') return v.replaceAll('{name}', name).replaceAll('{dynamic_type}', type);
  if (Array.isArray(v)) return v.map((x) => substitute(x, name, type));
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replaceAll('{name}', name).replaceAll('{dynamic_type}', type), substitute(x, name, type)]));
  }
  return v;
}

/** The field type a template without `type` gives, per dynamic type (ES's defaults). */
const DEFAULT_TYPE: Record<DynamicType, string> = { string: 'text', long: 'long', double: 'float', boolean: 'boolean', date: 'date', binary: 'binary', object: 'object' };
const DEFAULT_RUNTIME_TYPE: Record<DynamicType, string> = { string: 'keyword', long: 'long', double: 'double', boolean: 'boolean', date: 'date', binary: 'keyword', object: 'object' };

export interface TemplateMatch {
  mapping: FieldMapping;
  /** The template defines a runtime field rather than an indexed one. */
  runtime: boolean;
}

/**
 * The dynamic template a new field gets, its mapping with `{name}`/`{dynamic_type}` filled in: the
 * one the bulk item names for the field's path (`templateName`, whatever its match conditions; a
 * name no template has is a document_parsing_exception), else the first whose conditions match.
 */
export function matchDynamicTemplate(templates: unknown, name: string, path: string, type: DynamicType, templateName?: string): TemplateMatch | undefined {
  const entries = Array.isArray(templates) ? (templates as Array<Record<string, TemplateDef>>) : [];
  if (templateName !== undefined) {
    const entry = entries.find((e) => Object.keys(e)[0] === templateName);
    const t = entry?.[templateName];
    if (!t) throw documentParsingError(`Can't find dynamic template for dynamic template name [${templateName}] of field [${path}]`);
    const found = templateMapping(t, name, type);
    if (type === 'object' && found && !found.runtime && found.mapping.type !== undefined && found.mapping.type !== 'object' && found.mapping.type !== 'nested') {
      throw documentParsingError(`Field [${name}] must be an object; but it's configured as [${found.mapping.type}] in dynamic template [${templateName}]`);
    }
    return found;
  }
  for (const entry of entries) {
    const t = Object.values(entry)[0];
    if (!t || !hasMatchConditions(t) || !matches(t, name, path, type)) continue;
    const found = templateMapping(t, name, type);
    if (found) return found;
  }
  return undefined;
}

/** A template's mapping for a new field of this dynamic type (none: a runtime template for an object). */
function templateMapping(t: TemplateDef, name: string, type: DynamicType): TemplateMatch | undefined {
  if (t.runtime !== undefined) {
    if (type === 'object') return undefined;
    const m = substitute(t.runtime, name, DEFAULT_RUNTIME_TYPE[type]) as FieldMapping;
    return { mapping: { ...m, type: m.type ?? DEFAULT_RUNTIME_TYPE[type] }, runtime: true };
  }
  const m = substitute(t.mapping ?? {}, name, DEFAULT_TYPE[type]) as FieldMapping;
  if (m.type === undefined && type !== 'object') return { mapping: { type: DEFAULT_TYPE[type], ...m }, runtime: false };
  return { mapping: m, runtime: false };
}
