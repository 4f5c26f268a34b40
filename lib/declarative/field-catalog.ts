import { callJson, type Backend } from '../engine/index.js';
import { EsError, errors } from '../errors/index.js';

export interface FieldInfo {
  /** Mapping type (`text`, `keyword`, `long`, `geo_point`…). */
  type: string;
  /** Sub-fields analysed for search-as-you-type (edge n-grams), full dotted names. */
  autosuggest: string[];
  /** The keyword sub-field for terms aggregations and exact filters, when the field has one. */
  keyword?: string;
}

interface MappingNode {
  type?: string;
  analyzer?: string;
  properties?: Record<string, MappingNode>;
  fields?: Record<string, MappingNode>;
}

interface AnalysisSettings {
  analyzer?: Record<string, { tokenizer?: string; filter?: string[] | string }>;
  tokenizer?: Record<string, { type?: string }>;
  filter?: Record<string, { type?: string }>;
}

export interface IndexMeta {
  mappings?: { properties?: Record<string, MappingNode> };
  settings?: { index?: { analysis?: AnalysisSettings } & Record<string, unknown> } & Record<string, unknown>;
}

const KEYWORDISH = new Set(['keyword', 'constant_keyword', 'wildcard', 'long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'unsigned_long', 'boolean', 'date', 'ip']);

/**
 * The fields of one or more indices (a component's `index` may name several), as the declarative
 * translator needs them: which names exist, their types, and which sub-fields serve autosuggest.
 * A field name the catalog does not know is never put into a query.
 */
export class FieldCatalog {
  private readonly fields = new Map<string, FieldInfo>();

  /** From `GET /{index}`'s answer: `{name: {mappings, settings}}` for every index the expression reaches. */
  static fromIndexMeta(metas: Record<string, IndexMeta>): FieldCatalog {
    const catalog = new FieldCatalog();
    for (const meta of Object.values(metas)) {
      const analysis = meta.settings?.index?.analysis ?? (meta.settings?.['analysis'] as AnalysisSettings | undefined);
      catalog.addProperties(meta.mappings?.properties ?? {}, '', analysis);
    }
    return catalog;
  }

  field(name: string): FieldInfo | undefined {
    return this.fields.get(name);
  }

  get size(): number {
    return this.fields.size;
  }

  private addProperties(props: Record<string, MappingNode>, prefix: string, analysis: AnalysisSettings | undefined): void {
    for (const [key, node] of Object.entries(props)) {
      const name = prefix + key;
      if (node.properties) this.addProperties(node.properties, `${name}.`, analysis);
      if (!node.type && node.properties) continue;
      const type = node.type ?? 'object';
      const info: FieldInfo = this.fields.get(name) ?? { type, autosuggest: [] };
      if (KEYWORDISH.has(type)) info.keyword ??= name;
      for (const [sub, subNode] of Object.entries(node.fields ?? {})) {
        const subName = `${name}.${sub}`;
        const subType = subNode.type ?? 'object';
        if (!this.fields.has(subName)) this.fields.set(subName, { type: subType, autosuggest: [], keyword: KEYWORDISH.has(subType) ? subName : undefined });
        if (subType === 'keyword' && !info.keyword) info.keyword = subName;
        if (subType === 'text' && isAutosuggestAnalyzer(subNode.analyzer, analysis) && !info.autosuggest.includes(subName)) info.autosuggest.push(subName);
      }
      this.fields.set(name, info);
    }
  }
}

/** An analyzer named `autosuggest…`, or one whose tokenizer or filters produce edge n-grams. */
function isAutosuggestAnalyzer(name: string | undefined, analysis: AnalysisSettings | undefined): boolean {
  if (!name) return false;
  if (name.startsWith('autosuggest')) return true;
  const def = analysis?.analyzer?.[name];
  if (!def) return false;
  const edge = (type: string | undefined) => type === 'edge_ngram' || type === 'edgeNGram';
  if (def.tokenizer && (edge(def.tokenizer) || edge(analysis?.tokenizer?.[def.tokenizer]?.type))) return true;
  const filters = Array.isArray(def.filter) ? def.filter : def.filter ? [def.filter] : [];
  return filters.some((f) => edge(f) || edge(analysis?.filter?.[f]?.type));
}

/**
 * Reads the fields of an index expression (`shop`, `a,b`); rejects with an EsError when it does not
 * exist. `fresh` asks for a re-read (a field may have been mapped since the catalog was cached).
 */
export type MappingsOf = (index: string, options?: { fresh?: boolean }) => Promise<FieldCatalog>;

interface Entry {
  catalog: Promise<FieldCatalog>;
  fetchedAt: number;
}

/**
 * Field catalogs read through the Backend (`GET /{index}`), so both engines work the same, cached
 * briefly per index expression. `refresh` drops an entry, for a field a fresh mapping may know.
 */
export class IndexMappings {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly backend: Backend, private readonly ttlMs = 10_000) {}

  readonly get: MappingsOf = (index, options) => {
    if (options?.fresh) return this.refresh(index);
    const hit = this.entries.get(index);
    if (hit && Date.now() - hit.fetchedAt < this.ttlMs) return hit.catalog;
    if (this.entries.size > 1000) this.entries.clear();
    const entry: Entry = { catalog: this.fetch(index), fetchedAt: Date.now() };
    this.entries.set(index, entry);
    entry.catalog.catch(() => this.entries.delete(index));
    return entry.catalog;
  };

  /** The catalog re-read from the engine (an unknown field may have been mapped since). */
  refresh(index: string): Promise<FieldCatalog> {
    const hit = this.entries.get(index);
    if (hit && Date.now() - hit.fetchedAt < 250) return hit.catalog; // just read: nothing new to learn
    this.entries.delete(index);
    return this.get(index, {});
  }

  private async fetch(index: string): Promise<FieldCatalog> {
    const res = await callJson<Record<string, IndexMeta> & { error?: { type?: string; reason?: string } }>(
      this.backend, 'GET', `/${index.split(',').map(encodeURIComponent).join(',')}`,
    );
    if (res.status === 404) throw errors.indexNotFound(index);
    if (res.status !== 200 || !res.body || res.body.error) {
      throw new EsError(res.status >= 400 ? res.status : 500, res.body?.error?.type ?? 'exception', res.body?.error?.reason ?? `cannot read the mappings of [${index}]`);
    }
    return FieldCatalog.fromIndexMeta(res.body);
  }
}
