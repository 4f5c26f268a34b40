/**
 * `synonym` token filter: Lucene's (non-graph) SynonymFilter, which ES uses for this filter type.
 * It flattens multi-word synonyms onto the input's positions, so phrase queries over them can be
 * wrong; `synonym_graph` (synonym-graph.ts) is the correct query-time form.
 *
 * Output, per input slot (one slot per input token): the input token if no match consumed it (or
 * its rule keeps the input), then the output words that land on that slot (an output's n-th word
 * lands n slots after the match start, past the end of the input if need be). The first token at
 * a slot takes a new position. A single-word output spans to the end of the match in offsets and,
 * when the input is kept, in positions too; a word of a multi-word output takes the offsets of the
 * input token at its slot.
 */
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';
import { TYPE_SYNONYM, type SynonymMap } from './synonym-map.js';

interface PendingOutput {
  term: string;
  /** -1: take the end offset of the input token at the slot. */
  endOffset: number;
  posLen: number;
}

export class SynonymFilter implements TokenFilter {
  constructor(private readonly synonyms: SynonymMap) {}

  filter(stream: TokenStream): void {
    const input = stream.tokens;
    if (this.synonyms.isEmpty || input.length === 0) return;
    const kept = new Array<boolean>(input.length).fill(true);
    const pending: PendingOutput[][] = [];
    for (let i = 0; i < input.length; ) {
      const rule = this.synonyms.longestMatch(input, i);
      if (!rule) {
        i++;
        continue;
      }
      const k = rule.input.length;
      const matchEnd = input[i + k - 1].end;
      if (!rule.keepOrig) kept.fill(false, i, i + k);
      for (const output of rule.outputs) {
        const single = output.length === 1;
        output.forEach((term, n) => {
          (pending[i + n] ??= []).push({ term, endOffset: single ? matchEnd : -1, posLen: single && rule.keepOrig ? k : 1 });
        });
      }
      i += k;
    }
    const out: AnalysisToken[] = [];
    const last = input[input.length - 1];
    const slots = Math.max(input.length, pending.length);
    for (let s = 0; s < slots; s++) {
      const token = s < input.length ? input[s] : undefined;
      let posInc = 1;
      if (token && kept[s]) {
        out.push(token);
        posInc = 0;
      }
      for (const p of pending[s] ?? []) {
        const at = token ?? last;
        out.push({ term: p.term, start: at.start, end: p.endOffset >= 0 ? p.endOffset : at.end, type: TYPE_SYNONYM, posInc, posLen: p.posLen, keyword: false });
        posInc = 0;
      }
    }
    stream.tokens = out;
  }
}
