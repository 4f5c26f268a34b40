import { EsError } from '../errors/index.js';
import type { Component, ReactExpression } from './declarative-request.js';

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
 * Component ids are unique, `react` names only ids of the request, and no component reacts to
 * itself through any chain of `react`s. Each failure names the JSON path of the offending member.
 */
export function checkReactGraph(components: readonly Component[]): void {
  const position = new Map<string, number>();
  components.forEach((c, i) => {
    if (position.has(c.id)) throw invalid(`query[${i}].id: duplicate component id [${c.id}] (first at query[${position.get(c.id)}])`);
    position.set(c.id, i);
  });
  const edges = components.map((c, i) => reactReferences(c.react, `query[${i}].react`));
  for (const refs of edges) {
    for (const ref of refs) if (!position.has(ref.id)) throw invalid(`${ref.path}: unknown component id [${ref.id}]`);
  }
  // depth-first search; a reference back to a component on the current chain closes a cycle
  const state = new Uint8Array(components.length); // 0 new, 1 on the chain, 2 done
  const chain: string[] = [];
  const visit = (i: number): void => {
    state[i] = 1;
    chain.push(components[i].id);
    for (const ref of edges[i]) {
      const j = position.get(ref.id)!;
      if (state[j] === 1) {
        const cycle = [...chain.slice(chain.indexOf(ref.id)), ref.id];
        throw invalid(`${ref.path}: cycle in react [${cycle.join(' -> ')}]`);
      }
      if (state[j] === 0) visit(j);
    }
    chain.pop();
    state[i] = 2;
  };
  for (let i = 0; i < components.length; i++) if (state[i] === 0) visit(i);
}
