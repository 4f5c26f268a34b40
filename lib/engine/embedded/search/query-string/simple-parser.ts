/**
 * The `simple_query_string` syntax, parsed as Lucene's SimpleQueryParser does (it never fails):
 * `+` and, `|` or, `-` not, `"phrase"` with `~slop`, `prefix*`, `term~N`, `( )`, `\` escapes;
 * whitespace is the default operator. Operators are enabled by `flags`.
 */
import type { Occur, QsNode } from './syntax.js';

export const FLAGS: Record<string, number> = {
  NONE: 0, AND: 1 << 0, NOT: 1 << 1, OR: 1 << 2, PREFIX: 1 << 3, PHRASE: 1 << 4, PRECEDENCE: 1 << 5,
  ESCAPE: 1 << 6, WHITESPACE: 1 << 7, FUZZY: 1 << 8, NEAR: 1 << 9, SLOP: 1 << 9, ALL: -1,
};

/** `"AND|OR|PREFIX"` or a number → the flag bits; unknown names are ES's 400. */
export function parseFlags(v: unknown): number {
  if (v === undefined || v === null) return FLAGS.ALL;
  if (typeof v === 'number') return v;
  let bits = 0;
  for (const raw of String(v).split('|')) {
    const name = raw.trim().toUpperCase();
    if (!name) continue;
    if (!(name in FLAGS)) throw new Error(`Unknown ${raw.trim()} flag`);
    bits = FLAGS[name] === -1 ? -1 : bits | FLAGS[name];
  }
  return bits;
}

interface State {
  data: string;
  index: number;
  top: QsNode | null;
  not: number;
  current: Occur | null;
  previous: Occur | null;
}

const WS = new Set([' ', '\t', '\n', '\r']);

export function parseSimple(input: string, flags: number, defaultOperator: 'and' | 'or'): QsNode {
  const has = (f: number) => (flags & f) !== 0;
  const defaultOccur: Occur = defaultOperator === 'and' ? 'must' : 'should';

  function build(state: State, branch: QsNode | null): void {
    if (!branch) return;
    if (state.not % 2 === 1) {
      branch = { kind: 'bool', negation: true, clauses: [{ occur: 'must_not', node: branch }, { occur: 'should', node: { kind: 'match_all' } }] };
    }
    if (state.top === null) state.top = branch;
    else {
      if (state.current === null) state.current = defaultOccur;
      if (state.previous !== state.current) state.top = { kind: 'bool', clauses: [{ occur: state.current, node: state.top }] };
      const top = state.top as Extract<QsNode, { kind: 'bool' }>;
      state.top = { kind: 'bool', clauses: [...top.clauses, { occur: state.current, node: branch }] };
      state.previous = state.current;
    }
    state.current = null;
  }

  function sub(state: State): void {
    while (state.index < state.data.length) {
      const c = state.data[state.index];
      if (c === '(' && has(FLAGS.PRECEDENCE)) consumeSubQuery(state);
      else if (c === ')' && has(FLAGS.PRECEDENCE)) state.index++;
      else if (c === '"' && has(FLAGS.PHRASE)) consumePhrase(state);
      else if (c === '+' && has(FLAGS.AND)) {
        if (state.current === null && state.top !== null) state.current = 'must';
        state.index++;
      } else if (c === '|' && has(FLAGS.OR)) {
        if (state.current === null && state.top !== null) state.current = 'should';
        state.index++;
      } else if (c === '-' && has(FLAGS.NOT)) {
        state.not++;
        state.index++;
        continue;
      } else if (WS.has(c) && has(FLAGS.WHITESPACE)) state.index++;
      else consumeTerm(state);
      state.not = 0;
    }
  }

  /**
   * Reads characters from `state.index` on, a backslash escaping the next one (when escapes are
   * on). For each, `onChar` says whether to take it (into the returned text) or stop: the index
   * stays on that character, or where `onChar` moved it.
   */
  function scan(state: State, onChar: (c: string, escaped: boolean) => 'take' | 'stop'): string {
    let text = '';
    let escaped = false;
    while (state.index < state.data.length) {
      const c = state.data[state.index];
      if (!escaped && c === '\\' && has(FLAGS.ESCAPE)) {
        escaped = true;
        state.index++;
        continue;
      }
      if (onChar(c, escaped) === 'stop') break;
      escaped = false;
      text += c;
      state.index++;
    }
    return text;
  }

  function consumeSubQuery(state: State): void {
    const start = ++state.index;
    let depth = 1;
    scan(state, (c, escaped) => {
      if (!escaped) {
        if (c === '(') depth++;
        else if (c === ')' && --depth === 0) return 'stop';
      }
      return 'take';
    });
    const inner: State = { data: state.data.slice(start, state.index), index: 0, top: null, not: 0, current: null, previous: null };
    sub(inner);
    state.index++; // the closing parenthesis
    build(state, inner.top);
  }

  function consumePhrase(state: State): void {
    const start = ++state.index;
    const text = scan(state, (c, escaped) => (!escaped && c === '"' ? 'stop' : 'take'));
    if (state.index >= state.data.length) {
      // no closing quote: the text is read as terms
      state.index = start;
      return;
    }
    state.index++;
    let slop: number | undefined;
    if (has(FLAGS.NEAR) && state.data[state.index] === '~') {
      const m = /^~(\d*)/.exec(state.data.slice(state.index));
      state.index += m![0].length;
      slop = m![1] ? Number(m![1]) : 0;
    }
    build(state, { kind: 'phrase', field: null, text, slop });
  }

  function isTermEnd(c: string): boolean {
    return (WS.has(c) && has(FLAGS.WHITESPACE)) || (c === '"' && has(FLAGS.PHRASE)) || (c === '|' && has(FLAGS.OR)) ||
      (c === '+' && has(FLAGS.AND)) || (c === '(' && has(FLAGS.PRECEDENCE)) || (c === ')' && has(FLAGS.PRECEDENCE));
  }

  function consumeTerm(state: State): void {
    let prefix = false;
    let fuzzy: string | undefined;
    let text = scan(state, (c, escaped) => {
      if (!escaped) {
        if (isTermEnd(c)) return 'stop';
        if (c === '~' && has(FLAGS.FUZZY)) {
          const m = /^~(\d*)/.exec(state.data.slice(state.index));
          state.index += m![0].length;
          fuzzy = m![1] ? String(Math.min(Number(m![1]), 2)) : '2';
          // the rest up to the term's end is dropped, as Lucene does
          while (state.index < state.data.length && !isTermEnd(state.data[state.index])) state.index++;
          return 'stop';
        }
      }
      prefix = !escaped && c === '*' && has(FLAGS.PREFIX);
      return 'take';
    });
    if (prefix) text = text.slice(0, -1);
    if (!text) return;
    if (fuzzy !== undefined) build(state, { kind: 'fuzzy', field: null, text, fuzziness: fuzzy });
    else if (prefix) build(state, { kind: 'wildcard', field: null, text: text + '*' });
    else build(state, { kind: 'term', field: null, text });
  }

  const state: State = { data: input, index: 0, top: null, not: 0, current: null, previous: null };
  sub(state);
  return state.top ?? { kind: 'match_none' };
}
