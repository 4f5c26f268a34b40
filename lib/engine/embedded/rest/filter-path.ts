import { simpleMatch } from '../../../wildcard/index.js';

type Pattern = string[];

function advance(patterns: Pattern[], key: string): Pattern[] {
  const next: Pattern[] = [];
  for (const p of patterns) {
    if (p[0] === '**') {
      next.push(p);
      if (p.length === 1) next.push([]);
      else if (simpleMatch(p[1], key)) next.push(p.slice(2));
    } else if (simpleMatch(p[0], key)) {
      next.push(p.slice(1));
    }
  }
  return next;
}

function include(value: unknown, patterns: Pattern[]): unknown {
  if (patterns.some((p) => p.length === 0)) return value;
  if (Array.isArray(value)) {
    const items = value.map((v) => include(v, patterns)).filter((v) => v !== undefined);
    return items.length ? items : undefined;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const next = advance(patterns, k);
      if (!next.length) continue;
      const r = include(v, next);
      if (r !== undefined) out[k] = r;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return undefined;
}

function exclude(value: unknown, patterns: Pattern[]): unknown {
  if (patterns.some((p) => p.length === 0)) return undefined;
  if (Array.isArray(value)) return value.map((v) => exclude(v, patterns)).filter((v) => v !== undefined);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const next = advance(patterns, k);
      if (!next.length) {
        out[k] = v;
        continue;
      }
      const r = exclude(v, next);
      if (r !== undefined) out[k] = r;
    }
    return out;
  }
  return value;
}

/** Elasticsearch's `filter_path` response filtering (`a.b`, `*`, `**`, `-excluded`). */
export function applyFilterPath(body: unknown, expression: string): unknown {
  const exprs = expression.split(',').map((e) => e.trim()).filter(Boolean);
  const inc = exprs.filter((e) => !e.startsWith('-')).map((e) => e.split('.'));
  const exc = exprs.filter((e) => e.startsWith('-')).map((e) => e.slice(1).split('.'));
  let out = body;
  if (inc.length) out = include(out, inc) ?? {};
  if (exc.length) out = exclude(out, exc) ?? {};
  return out;
}
