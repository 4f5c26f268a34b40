/**
 * Analyzed query text as a token graph, the way Lucene's GraphTokenStreamFiniteStrings reads it,
 * for the full-text queries to build their clauses from when a token spans several positions
 * (multi-word synonyms from `synonym_graph`).
 *
 * The graph's states are positions; a token is an edge from the state where it starts to the one
 * after its last position. A hole (a position left by a removed token) belongs to the token after
 * it: that token's edge starts right after the previous position, so the graph stays connected,
 * and along a path the token keeps its position increment, so phrases keep the gap. A stacked
 * token takes the increment of the first token at its position. Only edges on some path from the
 * first state to the last count (Lucene drops dead states).
 */
import { EsError } from '../../../../errors/index.js';
import type { Token } from '../../analysis/index.js';

/** Lucene's BooleanQuery max clause count: a query over more paths than that is refused as Lucene would. */
const MAX_PATHS = 1024;

/** One way through the graph: its terms and their offsets from the first one. */
export interface GraphPath {
  terms: string[];
  offsets: number[];
}

interface Edge {
  term: string;
  from: number;
  to: number;
  /** Position increment of the token when its path is read as a linear token stream. */
  increment: number;
}

/** True for several tokens one of which spans several positions: Lucene's QueryBuilder then builds graph queries. */
export function isTokenGraph(tokens: readonly Token[]): boolean {
  return tokens.length > 1 && tokens.some((t) => (t.positionLength ?? 1) > 1);
}

export class TokenGraph {
  /** Live edges, in token order (the order Lucene enumerates paths in). */
  private readonly edges: Edge[];
  /** The accepting state, where every path ends. */
  private readonly end: number;

  /** `tokens` as the analyzer returns them (positions non-decreasing). */
  constructor(tokens: readonly Token[]) {
    const all: Edge[] = [];
    let previous = -1;
    let increment = 1;
    let start = 0;
    for (const t of tokens) {
      if (t.position !== previous) {
        increment = t.position - previous;
        start = previous + 1;
        previous = t.position;
      }
      all.push({ term: t.token, from: start, to: t.position + (t.positionLength ?? 1), increment });
    }
    this.end = all.reduce((max, e) => Math.max(max, e.to), 0);
    const reachable = new Set([0]);
    for (const e of [...all].sort((a, b) => a.from - b.from)) if (reachable.has(e.from)) reachable.add(e.to);
    const leadsToEnd = new Set([this.end]);
    for (const e of [...all].sort((a, b) => b.to - a.to)) if (leadsToEnd.has(e.to)) leadsToEnd.add(e.from);
    this.edges = all.filter((e) => reachable.has(e.from) && leadsToEnd.has(e.to));
  }

  /**
   * The states every path goes through (no edge jumps over them), first to last, excluding the
   * first and last states: they cut the graph into segments that combine independently.
   */
  articulationPoints(): number[] {
    const touched = new Set<number>();
    for (const e of this.edges) touched.add(e.to);
    const points: number[] = [];
    for (const s of [...touched].sort((a, b) => a - b)) {
      if (s !== this.end && !this.edges.some((e) => e.from < s && s < e.to)) points.push(s);
    }
    return points;
  }

  /** Whether edges leaving `state` end at different states (paths of different lengths part there). */
  hasSidePath(state: number): boolean {
    const ends = new Set(this.edges.filter((e) => e.from === state).map((e) => e.to));
    return ends.size > 1;
  }

  /** The terms of the edges leaving `state` (synonyms over the same positions when there is no side path). */
  termsFrom(state: number): string[] {
    return this.edges.filter((e) => e.from === state).map((e) => e.term);
  }

  /** Every path from `from` to `to` (the last state by default), in Lucene's order. */
  paths(from = 0, to = this.end): GraphPath[] {
    const out: GraphPath[] = [];
    const walk = (state: number, edges: Edge[]) => {
      if (state === to) {
        if (out.length === MAX_PATHS) throw new EsError(400, 'too_many_clauses', `maxClauseCount is set to ${MAX_PATHS}`);
        const offsets: number[] = [];
        edges.forEach((e, i) => offsets.push(i === 0 ? 0 : offsets[i - 1] + e.increment));
        out.push({ terms: edges.map((e) => e.term), offsets });
        return;
      }
      for (const e of this.edges) if (e.from === state && e.to <= to) walk(e.to, [...edges, e]);
    };
    walk(from, []);
    return out;
  }
}
