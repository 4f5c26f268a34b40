/**
 * `synonym_graph` token filter: Lucene's SynonymGraphFilter, which outputs a correct token graph
 * for multi-word synonyms (each token spanning `posLen` positions), for query-time analysis: the
 * match and phrase queries turn the graph's paths into their clauses.
 *
 * The graph's nodes are positions. A match of a rule starts at the node after the last token out
 * (Lucene's nextNodeOut, so a hole in front of a match is dropped, as Lucene does) and every path
 * of it (each output, then the input when the rule keeps it) runs from that node to one shared
 * end node; a path of n words adds n − 1 nodes of its own. Tokens come out in Lucene's order: the
 * first word of every path, then the rest of each path in turn. Output words are SYNONYM tokens
 * with the offsets of the whole match; kept input tokens keep their own attributes.
 */
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';
import { TYPE_SYNONYM, type SynonymMap, type SynonymRule } from './synonym-map.js';

/** A token placed between two nodes of the output graph. */
interface Placed {
  token: AnalysisToken;
  from: number;
  to: number;
}

export class SynonymGraphFilter implements TokenFilter {
  constructor(private readonly synonyms: SynonymMap) {}

  filter(stream: TokenStream): void {
    const input = stream.tokens;
    if (this.synonyms.isEmpty || input.length === 0) return;
    const out: AnalysisToken[] = [];
    /** Node of the last token out (its position). */
    let lastNode = -1;
    /** Node where the last token out ends: where a match starts. */
    let nextNode = 0;
    for (let i = 0; i < input.length; ) {
      const rule = this.synonyms.longestMatch(input, i);
      if (!rule) {
        const t = input[i++];
        out.push(t);
        lastNode += t.posInc;
        nextNode = lastNode + t.posLen;
        continue;
      }
      const end = nextNode + pathNodes(rule) + 1;
      for (const p of placeMatch(rule, input.slice(i, i + rule.input.length), nextNode, end)) {
        out.push({ ...p.token, posInc: p.from - lastNode, posLen: p.to - p.from });
        lastNode = p.from;
      }
      nextNode = end;
      i += rule.input.length;
    }
    stream.tokens = out;
  }
}

/** How many inner nodes the paths of a match add between its start and end nodes. */
function pathNodes(rule: SynonymRule): number {
  let n = rule.keepOrig ? rule.input.length - 1 : 0;
  for (const output of rule.outputs) n += output.length - 1;
  return n;
}

/** The tokens of one match, in output order, between its nodes `start` and `end`. */
function placeMatch(rule: SynonymRule, matched: readonly AnalysisToken[], start: number, end: number): Placed[] {
  const first = matched[0];
  const last = matched[matched.length - 1];
  const synonym = (term: string): AnalysisToken => ({ term, start: first.start, end: last.end, type: TYPE_SYNONYM, posInc: 1, posLen: 1, keyword: false });
  const paths: AnalysisToken[][] = rule.outputs.map((words) => words.map(synonym));
  if (rule.keepOrig) paths.push([...matched]);
  // First words: a one-word path spans the whole match; a longer one steps to its first inner node.
  const heads: Placed[] = [];
  let innerNodes = 0;
  for (const path of paths) {
    if (path.length === 1) heads.push({ token: path[0], from: start, to: end });
    else {
      heads.push({ token: path[0], from: start, to: start + innerNodes + 1 });
      innerNodes += path.length - 1;
    }
  }
  const tails: Placed[] = [];
  paths.forEach((path, p) => {
    let node = heads[p].to;
    for (let w = 1; w < path.length; w++) {
      const to = w === path.length - 1 ? end : node + 1;
      tails.push({ token: path[w], from: node, to });
      node = to;
    }
  });
  return [...heads, ...tails];
}
