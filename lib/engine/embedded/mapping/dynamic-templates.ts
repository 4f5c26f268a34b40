import { EsError } from '../../../errors/index.js';
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

/** The first dynamic template that matches a new field, its mapping with `{name}`/`{dynamic_type}` filled in. */
export function matchDynamicTemplate(templates: unknown, name: string, path: string, type: DynamicType): TemplateMatch | undefined {
  if (!Array.isArray(templates)) return undefined;
  for (const entry of templates as Array<Record<string, TemplateDef>>) {
    const t = Object.values(entry)[0];
    if (!t || !matches(t, name, path, type)) continue;
    if (t.runtime !== undefined) {
      if (type === 'object') continue;
      const m = substitute(t.runtime, name, DEFAULT_RUNTIME_TYPE[type]) as FieldMapping;
      return { mapping: { ...m, type: m.type ?? DEFAULT_RUNTIME_TYPE[type] }, runtime: true };
    }
    const m = substitute(t.mapping ?? {}, name, DEFAULT_TYPE[type]) as FieldMapping;
    if (m.type === undefined && type !== 'object') return { mapping: { type: DEFAULT_TYPE[type], ...m }, runtime: false };
    return { mapping: m, runtime: false };
  }
  return undefined;
}
