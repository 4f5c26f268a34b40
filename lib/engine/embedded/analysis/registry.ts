/**
 * The analysis registry of one index: resolves analyzer, normalizer, tokenizer, filter and
 * char filter names against the index's `settings.index.analysis` first and ES's built-ins
 * second, the way ES's AnalysisRegistry does, with ES's error reasons.
 *
 * Every definition is built when the registry is created, so an invalid one refuses the index
 * (400 illegal_argument_exception). Built analyzers are cached; components are shared between
 * analyzers except synonym filters, which depend on the chain in front of them.
 *
 * A filter with `updateable: true` may only run at search time (ES's AnalysisMode.SEARCH_TIME): a
 * custom analyzer that has one is a search analyzer, which `reloadSearchAnalyzers` rebuilds so
 * that it reads its synonyms (`synonyms_set`) again.
 */
import { EsError } from '../../../errors/index.js';
import { PipelineAnalyzer } from './analyzer.js';
import { BUILT_IN_ANALYZERS, createBuiltInAnalyzer } from './built-in-analyzers.js';
import { createCharFilter, PREBUILT_CHAR_FILTERS } from './char-filters/index.js';
import { createTokenFilter, lowercaseFilter, PREBUILT_FILTERS, synonymsSetOf, type PhraseAnalyzer, type SynonymsSource } from './filters/index.js';
import type { ConfigFiles } from './config-files.js';
import { boolSetting, illegalArgument, intSetting, listSetting, stringSetting, type Definition } from './settings.js';
import { createTokenizer, TOKENIZER_TYPES, type ComponentLimits } from './tokenizers/index.js';
import { keywordTokenizer } from './tokenizers/keyword.js';
import type { AnalysisRegistry, CharFilter, TokenFilter, Tokenizer } from './types.js';

export interface RegistryOptions {
  /** index.max_ngram_diff (default 1). */
  maxNgramDiff?: number;
  /** index.max_shingle_diff (default 3). */
  maxShingleDiff?: number;
  /** The synonyms sets `synonyms_set` reads (none: every `synonyms_set` is missing). */
  synonyms?: SynonymsSource;
  /** The config directory `*_path` settings read (none: every file fails to read). */
  configFiles?: ConfigFiles;
}

/** A component given by name or as an inline definition (as in `_analyze`). */
export type ComponentSpec = string | Definition;

type Component = 'tokenizer' | 'filter' | 'char_filter';

function section(analysis: Definition, key: string): Record<string, Definition> {
  const raw = analysis[key];
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw illegalArgument(`[index.analysis.${key}] must be an object`);
  const out: Record<string, Definition> = {};
  for (const [name, def] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof def !== 'object' || def === null || Array.isArray(def)) throw illegalArgument(`[index.analysis.${key}.${name}] must be an object`);
    out[name] = def as Definition;
  }
  return out;
}

function missingType(component: string, name: string): Error {
  return illegalArgument(`${component} [${name}] must specify either an analyzer type, or a tokenizer`);
}

export class IndexAnalysisRegistry implements AnalysisRegistry {
  private readonly limits: ComponentLimits;
  private readonly synonyms: SynonymsSource | undefined;
  private readonly configFiles: ConfigFiles | undefined;
  private readonly tokenizerDefs: Record<string, Definition>;
  private readonly filterDefs: Record<string, Definition>;
  private readonly charFilterDefs: Record<string, Definition>;
  private readonly analyzerDefs: Record<string, Definition>;
  private readonly normalizerDefs: Record<string, Definition>;
  private readonly tokenizers = new Map<string, Tokenizer>();
  private readonly filters = new Map<string, TokenFilter>();
  private readonly charFilters = new Map<string, CharFilter>();
  private readonly analyzers = new Map<string, PipelineAnalyzer>();
  private readonly normalizers = new Map<string, PipelineAnalyzer>();

  constructor(analysisSettings: unknown, options: RegistryOptions = {}) {
    this.limits = { maxNgramDiff: options.maxNgramDiff ?? 1, maxShingleDiff: options.maxShingleDiff ?? 3 };
    this.synonyms = options.synonyms;
    this.configFiles = options.configFiles;
    const analysis = (analysisSettings ?? {}) as Definition;
    if (typeof analysis !== 'object' || Array.isArray(analysis)) throw illegalArgument('[index.analysis] must be an object');
    this.tokenizerDefs = section(analysis, 'tokenizer');
    this.filterDefs = section(analysis, 'filter');
    this.charFilterDefs = section(analysis, 'char_filter');
    this.analyzerDefs = section(analysis, 'analyzer');
    this.normalizerDefs = section(analysis, 'normalizer');
    // Build everything now so that an invalid definition refuses the index.
    for (const name of Object.keys(this.tokenizerDefs)) this.tokenizer(name);
    for (const name of Object.keys(this.charFilterDefs)) this.charFilter(name);
    for (const name of Object.keys(this.filterDefs)) this.tokenFilter(name, () => (p) => p.split(/\s+/).filter(Boolean));
    for (const name of Object.keys(this.analyzerDefs)) this.analyzer(name);
    for (const name of Object.keys(this.normalizerDefs)) this.normalizer(name);
    const notAnywhere = this.searchTimeFilters('default');
    if (notAnywhere.length) {
      throw new EsError(400, 'mapper_exception', `analyzer [default] contains filters [${notAnywhere.join(', ')}] that are not allowed to run in all mode.`);
    }
  }

  /**
   * The filters of an analyzer that may only run at search time (`updateable: true`), in chain
   * order; empty for an analyzer that may run anywhere.
   */
  searchTimeFilters(analyzer: string): string[] {
    const def = this.analyzerDefs[analyzer];
    if (!def || (stringSetting(def, 'type') ?? 'custom') !== 'custom') return [];
    return (listSetting(def, 'filter') ?? []).filter((f) => {
      const filterDef = this.filterDefs[f];
      return filterDef !== undefined && boolSetting(filterDef, 'updateable', false);
    });
  }

  /** The synonyms sets the index's filter definitions read (whether an analyzer uses them or not). */
  synonymsSets(): Set<string> {
    const sets = new Set<string>();
    for (const def of Object.values(this.filterDefs)) {
      const type = stringSetting(def, 'type');
      const set = type === 'synonym' || type === 'synonym_graph' ? synonymsSetOf(def) : undefined;
      if (set !== undefined) sets.add(set);
    }
    return sets;
  }

  /**
   * Rebuilds the search analyzers (those with a search-time-only filter) so that they read their
   * synonyms again; given `synonymsSet`, only those with a filter on that set. All or nothing: when
   * one fails to build, the error is thrown and the analyzers in use stay as they were. Returns the
   * rebuilt analyzers' names.
   */
  reloadSearchAnalyzers(synonymsSet?: string): string[] {
    const readsSet = (name: string) =>
      (listSetting(this.analyzerDefs[name], 'filter') ?? []).some((f) => this.filterDefs[f] !== undefined && synonymsSetOf(this.filterDefs[f]) === synonymsSet);
    const names = Object.keys(this.analyzerDefs).filter((name) => this.searchTimeFilters(name).length > 0 && (synonymsSet === undefined || readsSet(name)));
    const rebuilt = names.map((name) => this.buildAnalyzer(name, this.analyzerDefs[name]));
    rebuilt.forEach((analyzer, i) => this.analyzers.set(names[i], analyzer));
    // `default_search` without a definition of its own is the cached `default`.
    if (!('default_search' in this.analyzerDefs)) this.analyzers.delete('default_search');
    return names.sort();
  }

  hasAnalyzer(name: string): boolean {
    // 'default' only when the index defines it: callers fall back to 'standard' otherwise.
    return name in this.analyzerDefs || (BUILT_IN_ANALYZERS as readonly string[]).includes(name);
  }

  analyzer(name: string): PipelineAnalyzer {
    const cached = this.analyzers.get(name);
    if (cached) return cached;
    let analyzer: PipelineAnalyzer | undefined;
    const def = this.analyzerDefs[name];
    if (def) analyzer = this.buildAnalyzer(name, def);
    else if (name === 'default') analyzer = createBuiltInAnalyzer('standard', {}, 'default');
    else if (name === 'default_search') analyzer = this.analyzer('default');
    else analyzer = createBuiltInAnalyzer(name, {}, name);
    if (!analyzer) throw illegalArgument(`failed to find analyzer [${name}]`);
    this.analyzers.set(name, analyzer);
    return analyzer;
  }

  normalizer(name: string): PipelineAnalyzer {
    const cached = this.normalizers.get(name);
    if (cached) return cached;
    const def = this.normalizerDefs[name];
    let normalizer: PipelineAnalyzer;
    if (def) normalizer = this.buildNormalizer(name, def);
    else if (name === 'lowercase') normalizer = new PipelineAnalyzer(name, [], keywordTokenizer, [lowercaseFilter], 0);
    else throw illegalArgument(`failed to find normalizer under [${name}]`);
    this.normalizers.set(name, normalizer);
    return normalizer;
  }

  /**
   * An analyzer assembled from components given by name or inline definition (the `_analyze`
   * API's tokenizer/filter/char_filter form). Without a tokenizer it is a normalizer: keyword
   * tokenizer, normalizing components only.
   */
  buildAnonymous(tokenizer: ComponentSpec | undefined, filters: readonly ComponentSpec[], charFilters: readonly ComponentSpec[]): PipelineAnalyzer {
    const cfs = charFilters.map((spec) => this.resolveSpec('char_filter', spec, () => this.charFilter(spec as string), (t, d) => createCharFilter(t, d, '_anonymous_char_filter')));
    const tok = tokenizer === undefined ? keywordTokenizer : this.resolveSpec('tokenizer', tokenizer, () => this.tokenizer(tokenizer as string), (t, d) => createTokenizer(t, d, this.limits, '_anonymous_tokenizer'));
    const tfs: TokenFilter[] = [];
    for (const spec of filters) {
      const chain = () => this.phraseAnalyzer(cfs, tok, [...tfs]);
      const resolve = (n: string) => this.tokenFilter(n, chain);
      tfs.push(this.resolveSpec('filter', spec, () => this.tokenFilter(spec as string, chain), (t, d) => createTokenFilter(t, d, this.limits, '_anonymous_filter', chain, this.synonyms, resolve, this.configFiles)));
    }
    if (tokenizer === undefined) {
      filters.forEach((spec, i) => {
        if (!tfs[i].normalizing) throw illegalArgument(`Custom normalizer may not use filter [${typeof spec === 'string' ? spec : String(spec.type)}]`);
      });
      charFilters.forEach((spec, i) => {
        if (!cfs[i].normalizing) throw illegalArgument(`Custom normalizer may not use char filter [${typeof spec === 'string' ? spec : String(spec.type)}]`);
      });
    }
    return new PipelineAnalyzer('_anonymous_', cfs, tok, tfs, 0);
  }

  private resolveSpec<T>(component: Component, spec: ComponentSpec, byName: () => T | undefined, inline: (type: string, def: Definition) => T): T {
    if (typeof spec === 'string') {
      const found = byName();
      if (!found) throw illegalArgument(`failed to find ${component} under [${spec}]`);
      return found;
    }
    const type = stringSetting(spec, 'type');
    if (type === undefined) throw illegalArgument(`Missing [type] setting for anonymous ${component}: ${JSON.stringify(spec)}`);
    return inline(type, spec);
  }

  private buildAnalyzer(name: string, def: Definition): PipelineAnalyzer {
    const type = stringSetting(def, 'type');
    if (type === undefined && def.tokenizer === undefined) throw missingType('analyzer', name);
    if (type !== undefined && type !== 'custom') {
      const analyzer = createBuiltInAnalyzer(type, def, name);
      if (!analyzer) throw illegalArgument(`Unknown analyzer type [${type}] for [${name}]`);
      return analyzer;
    }
    const tokenizerName = stringSetting(def, 'tokenizer');
    if (tokenizerName === undefined) throw illegalArgument(`Custom Analyzer [${name}] must be configured with a tokenizer`);
    const tokenizer = this.tokenizer(tokenizerName);
    if (!tokenizer) throw illegalArgument(`Custom Analyzer [${name}] failed to find tokenizer under name [${tokenizerName}]`);
    const charFilters = (listSetting(def, 'char_filter') ?? []).map((cf) => {
      const found = this.charFilter(cf);
      if (!found) throw illegalArgument(`Custom Analyzer [${name}] failed to find char_filter under name [${cf}]`);
      return found;
    });
    const filters: TokenFilter[] = [];
    for (const f of listSetting(def, 'filter') ?? []) {
      const preceding = [...filters];
      const found = this.tokenFilter(f, () => this.phraseAnalyzer(charFilters, tokenizer, preceding));
      if (!found) throw illegalArgument(`Custom Analyzer [${name}] failed to find filter under name [${f}]`);
      filters.push(found);
    }
    return new PipelineAnalyzer(name, charFilters, tokenizer, filters, intSetting(def, 'position_increment_gap', 100), Math.max(intSetting(def, 'offset_gap', 1), 0));
  }

  private buildNormalizer(name: string, def: Definition): PipelineAnalyzer {
    const type = stringSetting(def, 'type') ?? 'custom';
    if (type !== 'custom') throw illegalArgument(`Unknown normalizer type [${type}] for [${name}]`);
    if (def.tokenizer !== undefined) throw illegalArgument(`Custom normalizer [${name}] cannot configure a tokenizer`);
    const charFilters = (listSetting(def, 'char_filter') ?? []).map((cf) => {
      const found = this.charFilter(cf);
      if (!found) throw illegalArgument(`Custom normalizer [${name}] failed to find char_filter under name [${cf}]`);
      if (!found.normalizing) throw illegalArgument(`Custom normalizer [${name}] may not use char filter [${cf}]`);
      return found;
    });
    const filters = (listSetting(def, 'filter') ?? []).map((f) => {
      const found = this.tokenFilter(f, () => (p) => [p]);
      if (!found) throw illegalArgument(`Custom normalizer [${name}] failed to find filter under name [${f}]`);
      if (!found.normalizing) throw illegalArgument(`Custom normalizer [${name}] may not use filter [${f}]`);
      return found;
    });
    return new PipelineAnalyzer(name, charFilters, keywordTokenizer, filters, 0);
  }

  private tokenizer(name: string): Tokenizer | undefined {
    let t = this.tokenizers.get(name);
    if (t) return t;
    const def = this.tokenizerDefs[name];
    if (def) {
      const type = stringSetting(def, 'type');
      if (type === undefined) throw missingType('tokenizer', name);
      t = createTokenizer(type, def, this.limits, name);
    } else if ((TOKENIZER_TYPES as readonly string[]).includes(name)) {
      t = createTokenizer(name, {}, this.limits, name);
    } else return undefined;
    this.tokenizers.set(name, t);
    return t;
  }

  private tokenFilter(name: string, chain: () => PhraseAnalyzer): TokenFilter | undefined {
    const cached = this.filters.get(name);
    if (cached) return cached;
    const def = this.filterDefs[name];
    let f: TokenFilter;
    if (def) {
      const type = stringSetting(def, 'type');
      if (type === undefined) throw missingType('filter', name);
      f = createTokenFilter(type, def, this.limits, name, chain, this.synonyms, (n) => (n === name ? undefined : this.tokenFilter(n, chain)), this.configFiles);
      // A synonym filter is specific to the chain in front of it (and to its rules of the moment).
      if (type === 'synonym' || type === 'synonym_graph') return f;
    } else if (PREBUILT_FILTERS.has(name)) {
      f = createTokenFilter(name, {}, this.limits, name, chain);
    } else return undefined;
    this.filters.set(name, f);
    return f;
  }

  private charFilter(name: string): CharFilter | undefined {
    let cf = this.charFilters.get(name);
    if (cf) return cf;
    const def = this.charFilterDefs[name];
    if (def) {
      const type = stringSetting(def, 'type');
      if (type === undefined) throw missingType('char_filter', name);
      cf = createCharFilter(type, def, name);
    } else if (PREBUILT_CHAR_FILTERS.has(name)) {
      cf = createCharFilter(name, {}, name);
    } else return undefined;
    this.charFilters.set(name, cf);
    return cf;
  }

  private phraseAnalyzer(charFilters: readonly CharFilter[], tokenizer: Tokenizer, filters: readonly TokenFilter[]): PhraseAnalyzer {
    const chain = new PipelineAnalyzer('_synonyms_', charFilters, tokenizer, filters, 0);
    return (phrase) => chain.stream(phrase).tokens.map((t) => t.term);
  }
}
