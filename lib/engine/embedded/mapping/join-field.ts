/**
 * The `join` field (parent-join module): one field per index naming each document's relation and,
 * for a child, its parent's id. Indexed as Elasticsearch does: the field itself holds the relation
 * name (a keyword), and `<field>#<parent relation>` holds the id that joins a parent to its
 * children: a parent's own `_id`, a child's `parent`.
 */
import { documentParsingError } from './errors.js';
import type { FieldMapping, Mappings } from './types.js';

/** The relations of a join field: parent relation → its child relations. */
export type JoinRelations = Map<string, string[]>;

export interface JoinField {
  /** The join field's path. */
  name: string;
  relations: JoinRelations;
}

/** The relations a join mapping declares (`relations: { question: [answer, comment] }`). */
export function joinRelationsOf(mapping: FieldMapping): JoinRelations {
  const out: JoinRelations = new Map();
  const rel = mapping.relations;
  if (rel && typeof rel === 'object') {
    for (const [parent, children] of Object.entries(rel as Record<string, unknown>)) {
      out.set(parent, (Array.isArray(children) ? children : [children]).map(String));
    }
  }
  return out;
}

/** The index's join field (Elasticsearch allows one, at the root), or undefined. */
export function joinFieldOf(mappings: Mappings): JoinField | undefined {
  for (const [name, m] of Object.entries(mappings.properties ?? {})) {
    if (m.type === 'join') return { name, relations: joinRelationsOf(m) };
  }
  return undefined;
}

/** The parent relation of a child relation, or undefined when it is no child. */
export function parentRelationOf(join: JoinField, child: string): string | undefined {
  for (const [parent, children] of join.relations) if (children.includes(child)) return parent;
  return undefined;
}

/** The field holding the id that joins `parent` relation documents to their children. */
export const joinIdField = (join: JoinField | string, parent: string): string => `${typeof join === 'string' ? join : join.name}#${parent}`;

/** The indexed keyword values of one document's join value: field path → its one value. */
export function joinFieldValues(path: string, mapping: FieldMapping, value: unknown, id: string): Map<string, string> {
  const join: JoinField = { name: path, relations: joinRelationsOf(mapping) };
  let name: unknown;
  let parent: unknown;
  if (typeof value === 'string') name = value;
  else if (value && typeof value === 'object' && !Array.isArray(value)) {
    ({ name, parent } = value as Record<string, unknown>);
  } else {
    throw documentParsingError(`failed to parse field [${path}] of type [join] in document with id '${id}'. Preview of field's value: '${String(value)}'`);
  }
  if (typeof name !== 'string') throw documentParsingError(`[${path}] expected a join name`);
  const isParent = join.relations.has(name);
  const parentRelation = parentRelationOf(join, name);
  if (!isParent && parentRelation === undefined) throw documentParsingError(`unknown join name [${name}] for field [${path}]`);
  const out = new Map<string, string>([[path, name]]);
  if (isParent) out.set(joinIdField(join, name), id);
  if (parentRelation !== undefined) {
    if (parent === undefined || parent === null) throw documentParsingError(`[parent] is missing for join field [${path}]`);
    out.set(joinIdField(join, parentRelation), String(parent));
  } else if (parent !== undefined && parent !== null) {
    throw documentParsingError(`[parent] is not allowed for a parent document in join field [${path}]`);
  }
  return out;
}
