import type { Backend } from '../engine/index.js';
import { callJson } from '../engine/index.js';

/**
 * The routes that change or remove stored index templates by name, and which kind each stores:
 * what such a request changes is the indices the templates it names apply to as they stand, which
 * the request itself does not show (another tenant's template may have the name).
 */
const TEMPLATE_CHANGES: ReadonlyMap<string, 'index' | 'component' | 'legacy'> = new Map([
  ['indices.put_index_template', 'index'], ['indices.delete_index_template', 'index'],
  ['cluster.put_component_template', 'component'], ['cluster.delete_component_template', 'component'],
  ['indices.put_template', 'legacy'], ['indices.delete_template', 'legacy'],
] as const);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const patternsIn = (v: unknown): string[] => (Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : typeof v === 'string' ? [v] : []);
const encoded = (names: readonly string[]) => names.map(encodeURIComponent).join(',');

/** Each composable template's patterns and component templates, as `GET /_index_template[/{name}]` answers them. */
async function indexTemplates(backend: Backend, names?: readonly string[]): Promise<Array<{ patterns: string[]; composedOf: string[] }>> {
  const reply = await callJson<{ index_templates?: unknown }>(backend, 'GET', names === undefined ? '/_index_template' : `/_index_template/${encoded(names)}`);
  if (reply.status === 404) return [];
  if (reply.status !== 200 || !Array.isArray(reply.body?.index_templates)) throw new Error(`index templates unreadable (${reply.status})`);
  return reply.body.index_templates.map((t: unknown) => {
    const template = isObject(t) && isObject(t.index_template) ? t.index_template : {};
    return { patterns: patternsIn(template.index_patterns), composedOf: patternsIn(template.composed_of) };
  });
}

/**
 * The index patterns a request that changes or removes stored templates would change the indices
 * of (undefined: the request is no such change): the named index or legacy templates' own
 * patterns; for component templates, those of every index template composed of one of them (a
 * name not stored yet included: a template may be composed of it already). Read from the engine,
 * as the authorizer reads aliases. An answer it cannot read is a failure, never an empty list.
 */
export async function changedTemplatePatterns(backend: Backend, route: string, names: readonly string[] | undefined): Promise<string[] | undefined> {
  const kind = TEMPLATE_CHANGES.get(route);
  if (kind === undefined || names === undefined) return undefined;
  if (kind === 'index') return (await indexTemplates(backend, names)).flatMap((t) => t.patterns);
  if (kind === 'legacy') {
    const reply = await callJson<Record<string, unknown>>(backend, 'GET', `/_template/${encoded(names)}`);
    if (reply.status === 404) return [];
    if (reply.status !== 200 || !isObject(reply.body)) throw new Error(`legacy templates unreadable (${reply.status})`);
    return Object.values(reply.body).flatMap((t) => (isObject(t) ? patternsIn(t.index_patterns) : []));
  }
  const components = new Set(names.some((n) => n.includes('*')) ? [] : names);
  const stored = await callJson<{ component_templates?: unknown }>(backend, 'GET', `/_component_template/${encoded(names)}`);
  if (stored.status === 200 && Array.isArray(stored.body?.component_templates)) {
    for (const c of stored.body.component_templates) if (isObject(c) && typeof c.name === 'string') components.add(c.name);
  } else if (stored.status !== 404) throw new Error(`component templates unreadable (${stored.status})`);
  return (await indexTemplates(backend)).filter((t) => t.composedOf.some((c) => components.has(c))).flatMap((t) => t.patterns);
}
