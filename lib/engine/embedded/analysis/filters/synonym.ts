/**
 * `synonym` token filter with inline Solr-format rules, replaying Lucene's (non-graph)
 * SynonymFilter, which ES uses for this filter type.
 *
 * Rules: "a, b, c" maps every term to all of them (expand: true) or to the first (expand:
 * false); "a, b => c, d" maps each left side to each right side. As in SolrSynonymParser the
 * matched input itself is never kept: "a, b" emits a and b as SYNONYM tokens. Rule sides are
 * analyzed by the tokenizer and filters that precede the synonym filter, so multi-word sides
 * become word sequences.
 *
 * Output, per input slot (one slot per input token): the input token if it was not consumed by
 * a match, then the output words that land on that slot (an output's n-th word lands n slots
 * after the match start, past the end of the input if need be). The first token at a slot
 * takes a new position; a single-word output spans to the end of the match in offsets, a word
 * of a multi-word output takes the offsets of the input token at its slot.
 */
import { illegalArgument, boolSetting, listSetting, type Definition } from '../settings.js';
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';

export const TYPE_SYNONYM = 'SYNONYM';

interface Rule {
  input: string[];
  outputs: string[][];
}

interface PendingOutput {
  term: string;
  /** -1: take the end offset of the input token at the slot. */
  endOffset: number;
  posLen: number;
}

/** Splits on `separator`, honouring backslash escapes, dropping empty parts (SolrSynonymParser.split). */
function splitRule(s: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let pos = 0; pos < s.length; ) {
    if (s.startsWith(separator, pos)) {
      if (current.length > 0) parts.push(current);
      current = '';
      pos += separator.length;
      continue;
    }
    let ch = s[pos++];
    if (ch === '\\') {
      current += ch;
      if (pos >= s.length) break;
      ch = s[pos++];
    }
    current += ch;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

function unescape(s: string): string {
  return s.includes('\\') ? s.replace(/\\(.)/g, '$1') : s;
}

export class SynonymFilter implements TokenFilter {
  /** First word → rules starting with it, longest input first. */
  private readonly rules = new Map<string, Rule[]>();

  constructor(rules: readonly string[], expand: boolean, lenient: boolean, analyzePhrase: (phrase: string) => string[]) {
    const byInput = new Map<string, Rule>();
    const analyze = (raw: string): string[] | null => {
      const words = analyzePhrase(unescape(raw).trim());
      if (words.length === 0) {
        if (lenient) return null;
        throw illegalArgument(`failed to build synonyms: term: ${raw.trim()} was completely eliminated by analyzer`);
      }
      return words;
    };
    const add = (input: string[], output: string[]) => {
      const key = input.join('\u0000');
      let rule = byInput.get(key);
      if (!rule) byInput.set(key, (rule = { input, outputs: [] }));
      if (!rule.outputs.some((o) => o.join('\u0000') === output.join('\u0000'))) rule.outputs.push(output);
    };
    for (const line of rules) {
      if (line.trim().length === 0 || line.trimStart().startsWith('#')) continue;
      const sides = splitRule(line, '=>');
      let inputs: string[][];
      let outputs: string[][];
      if (sides.length > 1) {
        if (sides.length !== 2) throw illegalArgument(`failed to build synonyms: more than one explicit mapping specified on the same line`);
        inputs = splitRule(sides[0], ',').map(analyze).filter((w): w is string[] => w !== null);
        outputs = splitRule(sides[1], ',').map(analyze).filter((w): w is string[] => w !== null);
      } else {
        inputs = splitRule(line, ',').map(analyze).filter((w): w is string[] => w !== null);
        outputs = expand ? inputs : inputs.slice(0, 1);
      }
      for (const input of inputs) for (const output of outputs) add(input, output);
    }
    for (const rule of byInput.values()) {
      const list = this.rules.get(rule.input[0]) ?? [];
      list.push(rule);
      list.sort((a, b) => b.input.length - a.input.length);
      this.rules.set(rule.input[0], list);
    }
  }

  filter(stream: TokenStream): void {
    const input = stream.tokens;
    if (this.rules.size === 0 || input.length === 0) return;
    const consumed = new Array<boolean>(input.length).fill(false);
    const pending: PendingOutput[][] = [];
    for (let i = 0; i < input.length; ) {
      const rule = this.longestMatch(input, i);
      if (!rule) {
        i++;
        continue;
      }
      const k = rule.input.length;
      const matchEnd = input[i + k - 1].end;
      for (let s = i; s < i + k; s++) consumed[s] = true;
      for (const output of rule.outputs) {
        output.forEach((term, n) => {
          const single = output.length === 1;
          (pending[i + n] ??= []).push({ term, endOffset: single ? matchEnd : -1, posLen: 1 });
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
      if (token && !consumed[s]) {
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

  private longestMatch(tokens: AnalysisToken[], i: number): Rule | undefined {
    const candidates = this.rules.get(tokens[i].term);
    if (!candidates) return undefined;
    outer: for (const rule of candidates) {
      if (i + rule.input.length > tokens.length) continue;
      for (let w = 1; w < rule.input.length; w++) if (tokens[i + w].term !== rule.input[w]) continue outer;
      return rule;
    }
    return undefined;
  }
}

export function synonymFromDefinition(def: Definition, analyzePhrase: (phrase: string) => string[]): SynonymFilter {
  if (def.synonyms_path !== undefined) throw illegalArgument(`IOException while reading synonyms_path_path: ${String(def.synonyms_path)} (file synonyms are not supported)`);
  if (def.synonyms_set !== undefined) throw illegalArgument('synonyms_set is not supported by this engine');
  if (def.format !== undefined && def.format !== 'solr') throw illegalArgument(`synonym format [${String(def.format)}] is not supported by this engine`);
  const rules = listSetting(def, 'synonyms', false);
  if (!rules) throw illegalArgument('synonym requires either `synonyms`, `synonyms_set` or `synonyms_path` to be configured');
  return new SynonymFilter(rules, boolSetting(def, 'expand', true), boolSetting(def, 'lenient', false), analyzePhrase);
}
