import { EsError } from '../../../errors/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import { isSystemIndex } from '../../index-patterns.js';
import { refuseTypedIndexMappings, validateMappings, type FieldMapping, type MappingDialect, type Mappings } from '../mapping/index.js';
import type { Store, StoreWrite } from '../store/index.js';
import { aliasDefinition } from './aliases.js';
import { isPlainObject, type JsonObject } from './deep.js';
import { unknownSettingReasons } from './known-settings.js';
import { flattenSettings, nestSettings, validateSettingValues } from './settings.js';

/** What a template contributes to a new index: flat `index.*` settings, mappings, aliases. */
export interface TemplateContent {
  settings?: Record<string, string | string[]>;
  mappings?: Mappings;
  aliases?: Record<string, JsonObject>;
}

export interface ComposableTemplate {
  index_patterns: string[];
  template?: TemplateContent;
  composed_of: string[];
  priority?: number;
  version?: number;
  _meta?: JsonObject;
  data_stream?: JsonObject;
  allow_auto_create?: boolean;
}

export interface ComponentTemplate {
  template: TemplateContent;
  version?: number;
  _meta?: JsonObject;
}

export interface LegacyTemplate extends TemplateContent {
  index_patterns: string[];
  order: number;
  version?: number;
}

type Kind = 'index_template' | 'component_template' | 'template';
const KEY_PREFIX: Record<Kind, string> = { index_template: 'index_template:', component_template: 'component_template:', template: 'template:' };

function badTemplate(reason: string): EsError {
  return new EsError(400, 'x_content_parse_exception', reason);
}

function patternsOf(v: unknown, context: string): string[] {
  if (typeof v === 'string') return v.split(',').filter(Boolean);
  if (Array.isArray(v) && v.every((p) => typeof p === 'string')) return v as string[];
  throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: index patterns are missing;`, { context });
}

/**
 * A template's unknown settings, refused as MetadataIndexTemplateService.validate refuses them:
 * every one listed in the template's validation failure.
 */
function refuseUnknownTemplateSettings(name: string, keys: string[]): void {
  const reasons = unknownSettingReasons(keys);
  if (!reasons.length) return;
  throw new EsError(400, 'invalid_index_template_exception',
    `index_template [${name}] invalid, cause [Validation Failed: ${reasons.map((r, i) => `${i + 1}: ${r};`).join('')}]`);
}

/**
 * A template's name and index patterns, refused as MetadataIndexTemplateService.validate refuses
 * them for index, component and legacy templates alike (every problem listed in one failure): a
 * name holding a space, `,`, `#` or `*`, starting with `_` or not lower-cased — a name that would
 * read as a list or a pattern where templates are named (`GET /_index_template/a,b`, `DELETE …/a*`).
 */
function refuseInvalidTemplateName(name: string, patterns: readonly string[]): void {
  const problems: string[] = [];
  if (name.includes(' ')) problems.push('name must not contain a space');
  if (name.includes(',')) problems.push("name must not contain a ','");
  if (name.includes('#')) problems.push("name must not contain a '#'");
  if (name.includes('*')) problems.push("name must not contain a '*'");
  if (name.startsWith('_')) problems.push("name must not start with '_'");
  if (name.toLowerCase() !== name) problems.push('name must be lower cased');
  for (const pattern of patterns) {
    if (pattern.includes(' ')) problems.push(`index_patterns [${pattern}] must not contain a space`);
    if (pattern.includes(',')) problems.push(`index_pattern [${pattern}] must not contain a ','`);
    if (pattern.includes('#')) problems.push(`index_pattern [${pattern}] must not contain a '#'`);
    if (pattern.includes(':')) problems.push(`index_pattern [${pattern}] must not contain a ':'`);
    if (pattern.startsWith('_')) problems.push(`index_pattern [${pattern}] must not start with '_'`);
  }
  if (!problems.length) return;
  throw new EsError(400, 'invalid_index_template_exception',
    `index_template [${name}] invalid, cause [Validation Failed: ${problems.map((r, i) => `${i + 1}: ${r};`).join('')}]`);
}

/** `settings` / `mappings` / `aliases` of the template `name`'s body, validated as index creation would. */
function templateContent(name: string, body: unknown, context: string, dialect?: MappingDialect): TemplateContent {
  if (body === undefined || body === null) return {};
  if (!isPlainObject(body)) throw badTemplate(`[${context}] template must be an object`);
  const out: TemplateContent = {};
  for (const k of Object.keys(body)) {
    if (k !== 'settings' && k !== 'mappings' && k !== 'aliases' && k !== 'lifecycle') throw badTemplate(`[1:2] [template] unknown field [${k}]`);
  }
  if (body.settings !== undefined) {
    const flat = flattenSettings(body.settings);
    refuseUnknownTemplateSettings(name, Object.keys(flat));
    validateSettingValues(flat);
    out.settings = Object.fromEntries(Object.entries(flat).filter((e): e is [string, string | string[]] => e[1] !== null));
  }
  if (body.mappings !== undefined) out.mappings = validateMappings(body.mappings, undefined, dialect);
  if (body.aliases !== undefined) {
    if (!isPlainObject(body.aliases)) throw badTemplate('[aliases] must be an object');
    // kept as Elasticsearch keeps an alias (AliasMetadata): `routing` becomes index_routing and search_routing
    out.aliases = Object.fromEntries(Object.entries(body.aliases).map(([a, d]) => [a, isPlainObject(d) ? aliasDefinition(d, 'alias') as JsonObject : {}]));
  }
  return out;
}

/** A template's content as GET shows it: settings nested under `index`. */
function contentView(c: TemplateContent | undefined): JsonObject {
  const out: JsonObject = {};
  if (!c) return out;
  if (c.settings) out.settings = nestSettings(c.settings);
  if (c.mappings) out.mappings = c.mappings as JsonObject;
  if (c.aliases) out.aliases = c.aliases;
  return out;
}

/** A composed template as the simulate APIs show it: settings nested under `index`, each part present. */
function simulatedContent(c: TemplateContent): JsonObject {
  return { settings: c.settings ? nestSettings(c.settings) : {}, mappings: (c.mappings ?? {}) as JsonObject, aliases: c.aliases ?? {} };
}

/** The name a simulate-index request's own template goes by (Elasticsearch gives it a random suffix). */
const SIMULATED_TEMPLATE = 'simulate_index_template';

function matchesAny(patterns: string[], name: string): boolean {
  return patterns.some((p) => simpleMatch(p, name));
}

/** Whether two pattern sets can both match one index name (ES's overlap check, approximated by cross-matching). */
function overlaps(a: string[], b: string[]): boolean {
  return a.some((p) => b.some((q) => simpleMatch(p, q.replace(/\*/g, 'x')) || simpleMatch(q, p.replace(/\*/g, 'x')) || p === q));
}

function byNamePattern<T>(map: Map<string, T>, name: string | undefined): Array<[string, T]> {
  const names = name === undefined || name === '_all' ? ['*'] : name.split(',');
  return [...map.entries()].filter(([n]) => names.some((p) => simpleMatch(p, n))).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Index templates of the engine — composable (`_index_template`), component
 * (`_component_template`) and legacy (`_template`) — durable as cluster metadata in the store, and
 * applied when an index is created (explicitly or by a first write): the highest-priority
 * composable template whose patterns match, composed of its component templates in order; or,
 * when none matches, every matching legacy template by ascending `order`. The request's own
 * settings, mappings and aliases win over the templates'.
 */
export class Templates {
  private readonly composable = new Map<string, ComposableTemplate>();
  private readonly components = new Map<string, ComponentTemplate>();
  private readonly legacy = new Map<string, LegacyTemplate>();

  constructor(
    private readonly store: Store,
    /** Whose mapping parameters templates take (OpenSearch 2's for an engine answering as it). */
    private readonly dialect?: MappingDialect,
  ) {
    for (const { key, value } of store.loadCluster()) {
      if (key.startsWith(KEY_PREFIX.index_template)) this.composable.set(key.slice(KEY_PREFIX.index_template.length), value as ComposableTemplate);
      else if (key.startsWith(KEY_PREFIX.component_template)) this.components.set(key.slice(KEY_PREFIX.component_template.length), value as ComponentTemplate);
      else if (key.startsWith(KEY_PREFIX.template)) this.legacy.set(key.slice(KEY_PREFIX.template.length), value as LegacyTemplate);
    }
  }

  private persist(kind: Kind, name: string, value: unknown): Promise<void> {
    const write: StoreWrite = { kind: 'cluster', key: KEY_PREFIX[kind] + name, value };
    return this.store.write([write]);
  }

  // --- composable index templates -------------------------------------------------------------

  async putIndexTemplate(name: string, body: JsonObject, create: boolean): Promise<void> {
    if (create && this.composable.has(name)) throw new EsError(400, 'illegal_argument_exception', `index template [${name}] already exists`);
    const template = this.parseIndexTemplate(name, body);
    refuseInvalidTemplateName(name, template.index_patterns);
    const priority = template.priority ?? 0;
    const clashes = [...this.composable.entries()].filter(([n, t]) => n !== name && (t.priority ?? 0) === priority && overlaps(t.index_patterns, template.index_patterns));
    if (clashes.length) {
      const others = clashes.map(([n, t]) => `${n} => [${t.index_patterns.join(', ')}]`).join(', ');
      throw new EsError(400, 'illegal_argument_exception',
        `index template [${name}] has index patterns [${template.index_patterns.join(', ')}] matching patterns from existing templates [${clashes.map(([n]) => n).join(', ')}] with patterns (${others}) that have the same priority [${priority}], multiple index templates may not match during index creation, please use a different priority`);
    }
    this.composable.set(name, template);
    await this.persist('index_template', name, template);
  }

  /** A composable template from its definition, checked as storing it checks it (its composition included). */
  private parseIndexTemplate(name: string, body: JsonObject): ComposableTemplate {
    const allowed = new Set(['index_patterns', 'template', 'composed_of', 'priority', 'version', '_meta', 'data_stream', 'allow_auto_create', 'deprecated', 'ignore_missing_component_templates']);
    for (const k of Object.keys(body)) if (!allowed.has(k)) throw badTemplate(`[1:2] [index_template] unknown field [${k}]`);
    if (body.index_patterns === undefined) throw new EsError(400, 'x_content_parse_exception', '[1:2] Failed to build [index_template] after last required field arrived');
    const template: ComposableTemplate = {
      index_patterns: patternsOf(body.index_patterns, name),
      composed_of: Array.isArray(body.composed_of) ? body.composed_of.map(String) : [],
    };
    if (body.template !== undefined) template.template = templateContent(name, body.template, 'template', this.dialect);
    if (body.priority !== undefined) template.priority = Number(body.priority);
    if (body.version !== undefined) template.version = Number(body.version);
    if (isPlainObject(body._meta)) template._meta = body._meta;
    if (isPlainObject(body.data_stream)) template.data_stream = body.data_stream;
    if (typeof body.allow_auto_create === 'boolean') template.allow_auto_create = body.allow_auto_create;
    const missing = template.composed_of.filter((c) => !this.components.has(c));
    if (missing.length) {
      throw new EsError(400, 'invalid_index_template_exception',
        `index_template [${name}] invalid, cause [index template [${name}] specifies component templates [${missing.join(', ')}] that do not exist]`);
    }
    // Validate the composition as index creation would see it.
    this.compose(template);
    return template;
  }

  /**
   * Simulate index template API (`POST _index_template/_simulate[/{name}]`): the settings, mappings
   * and aliases a template composes to — a stored one by name, or the one `body` defines (under
   * `name` when given, replacing a stored one so named) — and the other templates whose patterns
   * overlap its own, which it takes over from or yields to.
   */
  simulateTemplate(name: string | undefined, body: JsonObject | undefined): JsonObject {
    let template: ComposableTemplate | undefined;
    if (body && Object.keys(body).length) template = this.parseIndexTemplate(name ?? 'simulated_template', body);
    else if (name !== undefined) template = this.composable.get(name);
    if (!template) {
      if (name === undefined) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: template is required;');
      throw new EsError(404, 'resource_not_found_exception', `unable to simulate template [${name}] that does not exist`);
    }
    const overlapping = this.overlapping(template.index_patterns, name);
    return { template: simulatedContent(this.compose(template)), overlapping };
  }

  /**
   * Simulate index API (`POST _index_template/_simulate_index/{index}`): what a new index so named
   * would take from the composable template that matches it (`{}` when none does), and the other
   * templates whose patterns overlap that template's. `body`, when given, is an index template
   * taken as if it were stored alongside the others (it is not stored).
   */
  simulateIndex(index: string, body?: JsonObject): JsonObject {
    const simulated = body && Object.keys(body).length ? this.parseIndexTemplate(SIMULATED_TEMPLATE, body) : undefined;
    const match = isSystemIndex(index) ? undefined : this.matchingIndexTemplate(index, simulated);
    if (!match) return {};
    return { template: simulatedContent(match.content), overlapping: this.overlapping(match.template.index_patterns, match.name) };
  }

  /**
   * The templates other than `except` whose index patterns overlap `patterns`, as the simulate
   * APIs list them: legacy templates, then composable ones.
   */
  private overlapping(patterns: string[], except: string | undefined): Array<{ name: string; index_patterns: string[] }> {
    const legacy = [...this.legacy.entries()].filter(([, t]) => overlaps(t.index_patterns, patterns));
    const composable = [...this.composable.entries()].filter(([n, t]) => n !== except && overlaps(t.index_patterns, patterns));
    return [...legacy, ...composable].map(([n, t]) => ({ name: n, index_patterns: t.index_patterns }));
  }

  /**
   * The index patterns the templates `name` stands for (a list, wildcards) apply to as they stand:
   * an index or legacy template's own, a component template's the index templates composed of it
   * have. What a change to them or their removal would change the indices of.
   */
  patternsOf(kind: 'index' | 'component' | 'legacy', name: string): string[] {
    if (kind === 'legacy') return byNamePattern(this.legacy, name).flatMap(([, t]) => t.index_patterns);
    if (kind === 'index') return byNamePattern(this.composable, name).flatMap(([, t]) => t.index_patterns);
    const names = new Set(byNamePattern(this.components, name).map(([n]) => n));
    // a name not stored yet is one an index template may already be composed of
    if (!name.includes('*')) for (const n of name.split(',')) names.add(n);
    return [...this.composable.values()].filter((t) => t.composed_of.some((c) => names.has(c))).flatMap((t) => t.index_patterns);
  }

  indexTemplates(name: string | undefined): Array<{ name: string; index_template: JsonObject }> {
    const found = byNamePattern(this.composable, name);
    if (!found.length && name !== undefined && !name.includes('*')) {
      throw new EsError(404, 'resource_not_found_exception', `index template matching [${name}] not found`);
    }
    return found.map(([n, t]) => {
      const view: JsonObject = { index_patterns: t.index_patterns };
      if (t.template) view.template = contentView(t.template);
      view.composed_of = t.composed_of;
      if (t.priority !== undefined) view.priority = t.priority;
      if (t.version !== undefined) view.version = t.version;
      if (t._meta) view._meta = t._meta;
      if (t.data_stream) view.data_stream = t.data_stream;
      if (t.allow_auto_create !== undefined) view.allow_auto_create = t.allow_auto_create;
      return { name: n, index_template: view };
    });
  }

  async deleteIndexTemplate(name: string): Promise<void> {
    const names = byNamePattern(this.composable, name).map(([n]) => n);
    if (!names.length) throw new EsError(404, 'index_template_missing_exception', `index_template [${name}] missing`);
    for (const n of names) {
      this.composable.delete(n);
      await this.persist('index_template', n, undefined);
    }
  }

  // --- component templates --------------------------------------------------------------------

  async putComponentTemplate(name: string, body: JsonObject, create: boolean): Promise<void> {
    if (create && this.components.has(name)) throw new EsError(400, 'illegal_argument_exception', `component template [${name}] already exists`);
    for (const k of Object.keys(body)) if (!['template', 'version', '_meta', 'deprecated'].includes(k)) throw badTemplate(`[1:2] [component_template] unknown field [${k}]`);
    if (body.template === undefined) throw new EsError(400, 'x_content_parse_exception', '[1:2] Required [template]');
    refuseInvalidTemplateName(name, []);
    const template: ComponentTemplate = { template: templateContent(name, body.template, 'template', this.dialect) };
    if (body.version !== undefined) template.version = Number(body.version);
    if (isPlainObject(body._meta)) template._meta = body._meta;
    this.components.set(name, template);
    await this.persist('component_template', name, template);
  }

  componentTemplates(name: string | undefined): Array<{ name: string; component_template: JsonObject }> {
    const found = byNamePattern(this.components, name);
    if (!found.length && name !== undefined && !name.includes('*')) {
      throw new EsError(404, 'resource_not_found_exception', `component template matching [${name}] not found`);
    }
    return found.map(([n, t]) => {
      const view: JsonObject = { template: contentView(t.template) };
      if (t.version !== undefined) view.version = t.version;
      if (t._meta) view._meta = t._meta;
      return { name: n, component_template: view };
    });
  }

  async deleteComponentTemplate(name: string): Promise<void> {
    const names = byNamePattern(this.components, name).map(([n]) => n);
    if (!names.length) throw new EsError(404, 'resource_not_found_exception', name);
    const users = [...this.composable.entries()].filter(([, t]) => t.composed_of.some((c) => names.includes(c))).map(([n]) => n);
    if (users.length) {
      throw new EsError(400, 'illegal_argument_exception',
        `component templates [${names.join(', ')}] cannot be removed as they are still in use by index templates [${users.sort().join(', ')}]`);
    }
    for (const n of names) {
      this.components.delete(n);
      await this.persist('component_template', n, undefined);
    }
  }

  // --- legacy templates -----------------------------------------------------------------------

  async putLegacyTemplate(name: string, body: JsonObject, create: boolean, orderParam: number | undefined): Promise<void> {
    if (create && this.legacy.has(name)) throw new EsError(400, 'illegal_argument_exception', `index_template [${name}] already exists`);
    const allowed = new Set(['index_patterns', 'template', 'settings', 'mappings', 'aliases', 'order', 'version']);
    for (const k of Object.keys(body)) if (!allowed.has(k)) throw badTemplate(`unknown key [${k}] in the template`);
    const patterns = body.index_patterns ?? body.template;
    if (patterns === undefined) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: index patterns are missing;');
    refuseTypedIndexMappings(body.mappings);
    const indexPatterns = patternsOf(patterns, name);
    refuseInvalidTemplateName(name, indexPatterns);
    const content = templateContent(name, { settings: body.settings, mappings: body.mappings, aliases: body.aliases }, 'template', this.dialect);
    const template: LegacyTemplate = { index_patterns: indexPatterns, order: Number(body.order ?? orderParam ?? 0), ...content };
    if (body.version !== undefined) template.version = Number(body.version);
    this.legacy.set(name, template);
    await this.persist('template', name, template);
  }

  /** Legacy templates as GET /_template shows them: settings nested, or flat (`index.x` keys) with flat_settings. */
  legacyTemplates(name: string | undefined, flatSettings = false): Record<string, JsonObject> {
    const out: Record<string, JsonObject> = {};
    for (const [n, t] of byNamePattern(this.legacy, name)) {
      const settings = !t.settings ? {} : flatSettings ? { ...t.settings } : nestSettings(t.settings);
      const view: JsonObject = { order: t.order, index_patterns: t.index_patterns, settings, mappings: (t.mappings ?? {}) as JsonObject, aliases: t.aliases ?? {} };
      if (t.version !== undefined) view.version = t.version;
      out[n] = view;
    }
    return out;
  }

  hasLegacyTemplates(name: string): boolean {
    return byNamePattern(this.legacy, name).length > 0;
  }

  async deleteLegacyTemplate(name: string): Promise<void> {
    const names = byNamePattern(this.legacy, name).map(([n]) => n);
    if (!names.length) throw new EsError(404, 'index_template_missing_exception', `index_template [${name}] missing`);
    for (const n of names) {
      this.legacy.delete(n);
      await this.persist('template', n, undefined);
    }
  }

  // --- application ----------------------------------------------------------------------------

  private compose(t: ComposableTemplate): TemplateContent {
    const parts = [...t.composed_of.map((c) => this.components.get(c)?.template), t.template];
    return parts.reduce<TemplateContent>((acc, c) => mergeContent(acc, c), {});
  }

  /** The composable template a new index named `index` takes, if any (highest priority wins). */
  private composableFor(index: string, hidden = false): ComposableTemplate | undefined {
    let best: ComposableTemplate | undefined;
    for (const t of this.composable.values()) {
      if (!matchesAny(t.index_patterns, index) || (hidden && isGlobal(t.index_patterns))) continue;
      if (!best || (t.priority ?? 0) > (best.priority ?? 0)) best = t;
    }
    return best;
  }

  /**
   * The composable template a new index or data stream named `name` takes (highest priority
   * wins), by name, with its content composed: what a data stream reads its `data_stream`
   * section and its backing indices' settings and mappings from.
   */
  matchingIndexTemplate(name: string, simulated?: ComposableTemplate): { name: string; template: ComposableTemplate; content: TemplateContent } | undefined {
    let best: [string, ComposableTemplate] | undefined;
    const candidates = simulated ? [...this.composable.entries(), [SIMULATED_TEMPLATE, simulated] as [string, ComposableTemplate]] : this.composable.entries();
    for (const entry of candidates) {
      if (!matchesAny(entry[1].index_patterns, name)) continue;
      if (!best || (entry[1].priority ?? 0) > (best[1].priority ?? 0)) best = entry;
    }
    return best && { name: best[0], template: best[1], content: this.compose(best[1]) };
  }

  /**
   * The create-index body for `index` after templates: the templates' settings, mappings and
   * aliases with the request's on top. The body is returned unchanged when no template matches.
   */
  apply(index: string, body: JsonObject): JsonObject {
    // The gateway's system indices take only what the gateway creates them with, as Elasticsearch's
    // system indices take their descriptors' settings and mappings and no template: a template
    // matching them (`*-logs`, `*s`) would give them aliases, a default pipeline, mappings of anyone's
    // choosing. A hidden index ignores global templates (a match-all pattern), as in Elasticsearch.
    if (isSystemIndex(index)) return body;
    const hidden = String(flattenSettings(body.settings)['index.hidden']) === 'true';
    const composable = this.composableFor(index, hidden);
    let base: TemplateContent | undefined;
    if (composable) base = this.compose(composable);
    else {
      const legacy = [...this.legacy.values()].filter((t) => matchesAny(t.index_patterns, index) && !(hidden && isGlobal(t.index_patterns))).sort((a, b) => a.order - b.order);
      if (legacy.length) base = legacy.reduce<TemplateContent>((acc, t) => mergeContent(acc, t), {});
    }
    if (!base) return body;
    const out: JsonObject = { ...body };
    const settings = { ...(base.settings ?? {}), ...stringSettings(flattenSettings(body.settings)) };
    if (Object.keys(settings).length) out.settings = settings;
    if (base.mappings) out.mappings = body.mappings === undefined ? base.mappings : overrideMappings(base.mappings, validateMappings(body.mappings, undefined, this.dialect));
    if (base.aliases) out.aliases = { ...base.aliases, ...(isPlainObject(body.aliases) ? body.aliases : {}) };
    return out;
  }
}

/** A global template: one of its patterns matches every name (Elasticsearch's `Regex.isMatchAllPattern`). */
function isGlobal(patterns: readonly string[]): boolean {
  return patterns.some((p) => p === '*');
}

function stringSettings(flat: Record<string, string | string[] | null>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(flat).filter((e): e is [string, string | string[]] => e[1] !== null));
}

function mergeContent(acc: TemplateContent, c: TemplateContent | undefined): TemplateContent {
  if (!c) return acc;
  return {
    settings: c.settings ? { ...(acc.settings ?? {}), ...c.settings } : acc.settings,
    mappings: c.mappings ? (acc.mappings ? overrideMappings(acc.mappings, c.mappings) : c.mappings) : acc.mappings,
    aliases: c.aliases ? { ...(acc.aliases ?? {}), ...c.aliases } : acc.aliases,
  };
}

/**
 * Mappings of a later template (or the request) over an earlier one, as ES composes templates:
 * objects merge property by property, and a field defined again replaces the earlier definition
 * (its type may change), which an update to an existing index's mapping would refuse.
 */
function overrideMappings(base: Mappings, top: Mappings): Mappings {
  const out: Mappings = { ...base, ...top };
  if (base.properties || top.properties) out.properties = overrideProperties(base.properties ?? {}, top.properties ?? {});
  return out;
}

function overrideProperties(base: Record<string, FieldMapping>, top: Record<string, FieldMapping>): Record<string, FieldMapping> {
  const out: Record<string, FieldMapping> = { ...base };
  for (const [name, field] of Object.entries(top)) {
    const prev = base[name];
    const isObject = (m: FieldMapping | undefined) => m !== undefined && (m.type === undefined || m.type === 'object' || m.type === 'nested') && m.properties !== undefined;
    out[name] = isObject(prev) && isObject(field) && prev!.type === field.type
      ? { ...prev, ...field, properties: overrideProperties(prev!.properties ?? {}, field.properties ?? {}) }
      : field;
  }
  return out;
}
