import { EsError } from '../errors/index.js';
import type { Component, ReactExpression } from '../declarative-request/index.js';

export interface ReactReference {
  id: string;
  /** JSON path of the reference in the request body (`query[2].react.and[0]`). */
  path: string;
}

/** Every component id a `react` expression names, with where it names it. */
export function reactReferences(expr: ReactExpression | undefined, path: string, out: ReactReference[] = []): ReactReference[] {
  if (expr === undefined) return out;
  if (typeof expr === 'string') out.push({ id: expr, path });
  else if (Array.isArray(expr)) expr.forEach((e, i) => reactReferences(e, `${path}[${i}]`, out));
  else for (const key of ['and', 'or', 'not'] as const) reactReferences(expr[key], `${path}.${key}`, out);
  return out;
}

const invalid = (reason: string) => new EsError(400, 'illegal_argument_exception', reason);

/** How deep `and`/`or`/`not` and lists may nest in one `react`: far more than a search UI composes. */
export const MAX_REACT_DEPTH = 16;

/** Refuses a `react` nested deeper than MAX_REACT_DEPTH, before anything recursive reads it. Walked without recursion. */
export function checkReactDepth(body: unknown): void {
  const queries = (body as { query?: unknown } | null)?.query;
  if (!Array.isArray(queries)) return;
  queries.forEach((q, i) => {
    const stack: Array<[unknown, number]> = [[(q as { react?: unknown } | null)?.react, 1]];
    while (stack.length) {
      const [v, depth] = stack.pop()!;
      if (typeof v !== 'object' || v === null) continue;
      if (depth > MAX_REACT_DEPTH) throw invalid(`query[${i}].react: nested deeper than ${MAX_REACT_DEPTH} levels`);
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
    }
  });
}

/**
 * Component ids are unique and no component reacts to itself. Components may react to each other
 * (two facets each filtered by the other, as ReactiveSearch UIs do): `react` is not transitive — a
 * component contributes its own value clause only — so a chain that comes back is no loop. An id
 * the request does not carry contributes nothing, as in the ReactiveSearch API: its clients send
 * only the components a change concerns, and name internal ones (`<id>__internal`) they never
 * send. Each failure names the JSON path of the member.
 */
export function checkReactGraph(components: readonly Component[]): void {
  const position = new Map<string, number>();
  components.forEach((c, i) => {
    if (position.has(c.id)) throw invalid(`query[${i}].id: duplicate component id [${c.id}] (first at query[${position.get(c.id)}])`);
    position.set(c.id, i);
  });
  components.forEach((c, i) => {
    for (const ref of reactReferences(c.react, `query[${i}].react`)) {
      if (ref.id === c.id) throw invalid(`${ref.path}: component [${c.id}] reacts to itself`);
    }
  });
}
