import { simpleMatch } from '../../../../wildcard/index.js';
import type { AnalysisRegistry } from '../../analysis/index.js';
import { fieldType, resolveFieldMapping, type FieldMapping, type Mappings } from '../../mapping/index.js';
import type { FieldResolver } from './to-dsl.js';

/** What the resolver needs of one target index. */
export interface FieldSource {
  mappings: Mappings;
  registry: AnalysisRegistry;
  settings: Record<string, string | string[]>;
}

const STRING_TYPES = new Set(['text', 'keyword', 'constant_keyword', 'wildcard', 'match_only_text', 'search_as_you_type']);
/** Types ES leaves out when `*` stands for "all fields" (no text search on them). */
const NOT_SEARCHABLE = new Set(['object', 'nested', 'geo_point', 'geo_shape', 'xy_point', 'xy_shape', 'point', 'shape', 'binary', 'completion', 'dense_vector',
  'sparse_vector', 'rank_feature', 'rank_features', 'histogram', 'percolator', 'join', 'alias', 'flattened', 'token_count']);

function collect(props: Record<string, FieldMapping> | undefined, prefix: string, out: Map<string, FieldMapping>): void {
  if (!props) return;
  for (const [name, m] of Object.entries(props)) {
    const path = prefix ? `${prefix}.${name}` : name;
    const type = fieldType(m);
    if (type !== 'object' && type !== 'nested') out.set(path, m);
    collect(m.properties, path, out);
    if (m.fields) for (const [sub, sm] of Object.entries(m.fields)) out.set(`${path}.${sub}`, sm);
  }
}

/** Field expansion and per-field normalization over the mappings of the indices a query targets. */
export function createFieldResolver(sources: FieldSource[]): FieldResolver {
  const fields = new Map<string, FieldMapping>();
  for (const s of sources) collect(s.mappings.properties, '', fields);
  const locate = (field: string): { mapping: FieldMapping; source: FieldSource } | undefined => {
    for (const source of sources) {
      let mapping = resolveFieldMapping(source.mappings, field);
      // a field alias reads as the field it points to
      if (mapping?.type === 'alias' && typeof mapping.path === 'string') mapping = resolveFieldMapping(source.mappings, mapping.path);
      if (mapping) return { mapping, source };
    }
    return undefined;
  };
  return {
    expand(pattern, allFieldsMode) {
      const out: string[] = [];
      for (const [path, m] of fields) {
        if (!simpleMatch(pattern, path)) continue;
        if (allFieldsMode && (NOT_SEARCHABLE.has(fieldType(m)) || m.index === false)) continue;
        out.push(path);
      }
      return out;
    },
    defaultFields() {
      const v = sources[0]?.settings['index.query.default_field'];
      if (v === undefined) return ['*'];
      return Array.isArray(v) ? v : [v];
    },
    normalize(field, text) {
      const found = locate(field);
      if (!found) return text.toLowerCase();
      const type = fieldType(found.mapping);
      if (type === 'keyword') {
        const normalizer = found.mapping.normalizer;
        if (typeof normalizer !== 'string') return text;
        // normalizers apply per character class; the wildcard characters survive them
        return text.split(/([*?])/).map((part) => (part === '*' || part === '?' || !part ? part : found.source.registry.normalizer(normalizer).analyze(part).map((t) => t.token).join(''))).join('');
      }
      if (STRING_TYPES.has(type)) return text.toLowerCase();
      return text;
    },
    isStringField(field) {
      const found = locate(field);
      return !found || STRING_TYPES.has(fieldType(found.mapping));
    },
    analyze(field, text, analyzer) {
      const found = locate(field);
      const registry = found?.source.registry ?? sources[0]?.registry;
      if (!registry) return [text.toLowerCase()];
      const m = found?.mapping;
      if (m && fieldType(m) === 'keyword') return [this.normalize(field, text)];
      let name = analyzer ?? (typeof m?.search_analyzer === 'string' ? m.search_analyzer : typeof m?.analyzer === 'string' ? m.analyzer : undefined);
      if (!name) name = registry.hasAnalyzer('default_search') ? 'default_search' : registry.hasAnalyzer('default') ? 'default' : 'standard';
      return registry.analyzer(name).analyze(text).map((t) => t.token);
    },
    maxRegexLength() {
      return Math.min(...sources.map((s) => Number(s.settings['index.max_regex_length'] ?? 1000)));
    },
  };
}
