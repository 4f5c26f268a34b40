/**
 * Lucene's classic query syntax (what `query_string` and `q=` accept), parsed as Lucene's
 * QueryParser does: clauses combined by the default operator, `AND`/`OR`/`NOT`/`&&`/`||`/`!`,
 * `+`/`-` modifiers with Lucene's addClause rules, `( )` groups, `field:` and `field:( … )`,
 * phrases with `~slop`, `~fuzziness`, `/regex/`, `[a TO b]`/`{a TO b}` and `>=`/`<` ranges,
 * `^boost`, `\` escapes, `_exists_:field`.
 */
import { QuerySyntaxError, withBoost, type Occur, type QsNode } from './syntax.js';

const SPECIAL = new Set([' ', '\t', '\n', '\r', '\u3000', '+', '-', '!', '(', ')', ':', '^', '[', ']', '"', '{', '}', '~', '\\', '/']);
const WS = new Set([' ', '\t', '\n', '\r', '\u3000']);

type Conj = 'none' | 'and' | 'or';
type Mods = 'none' | 'req' | 'not';

export interface ClassicOptions {
  defaultOperator: 'and' | 'or';
  allowLeadingWildcard: boolean;
}

class Parser {
  private pos = 0;

  constructor(
    private readonly input: string,
    private readonly opts: ClassicOptions,
  ) {}

  fail(what?: string): never {
    const atEnd = this.pos >= this.input.length;
    const found = atEnd ? '<EOF>' : `"${this.input[this.pos]}"`;
    const col = atEnd ? Math.max(1, this.input.length) : this.pos + 1;
    throw new QuerySyntaxError(`Cannot parse '${this.input}': ${what ?? `Encountered ${found} at line 1, column ${col}.`}`);
  }

  parse(): QsNode {
    const node = this.query(null);
    this.skipWs();
    if (this.pos < this.input.length) this.fail();
    return node;
  }

  private eof(): boolean {
    return this.pos >= this.input.length;
  }

  private peek(offset = 0): string {
    return this.input[this.pos + offset] ?? '';
  }

  private skipWs(): void {
    while (!this.eof() && WS.has(this.peek())) this.pos++;
  }

  /** A bare keyword (AND, OR, NOT) at the position, followed by something that ends a term. */
  private keyword(word: string): boolean {
    if (!this.input.startsWith(word, this.pos)) return false;
    const next = this.input[this.pos + word.length];
    return next === undefined || SPECIAL.has(next);
  }

  private conjunction(): Conj {
    if (this.keyword('AND') || this.input.startsWith('&&', this.pos)) {
      this.pos += this.peek() === '&' ? 2 : 3;
      return 'and';
    }
    if (this.keyword('OR') || this.input.startsWith('||', this.pos)) {
      this.pos += 2;
      return 'or';
    }
    return 'none';
  }

  private modifiers(): Mods {
    const c = this.peek();
    if (c === '+') {
      this.pos++;
      return 'req';
    }
    if (c === '-' || c === '!') {
      this.pos++;
      return 'not';
    }
    if (this.keyword('NOT')) {
      this.pos += 3;
      return 'not';
    }
    return 'none';
  }

  /** Query ::= Modifiers Clause ( Conjunction Modifiers Clause )* — Lucene's QueryParser.Query. */
  query(field: string | null): QsNode {
    const clauses: Array<{ occur: Occur; node: QsNode }> = [];
    let first: QsNode | undefined;
    let count = 0;
    for (;;) {
      this.skipWs();
      if (this.eof() || this.peek() === ')') break;
      let conj: Conj = 'none';
      if (count > 0) {
        conj = this.conjunction();
        if (conj !== 'none') {
          this.skipWs();
          if (this.eof() || this.peek() === ')') this.fail();
        }
      } else if (this.keyword('AND') || this.keyword('OR') || this.input.startsWith('&&', this.pos) || this.input.startsWith('||', this.pos)) {
        this.fail();
      }
      const mods = this.modifiers();
      this.skipWs();
      if (this.eof() || this.peek() === ')') this.fail();
      const node = this.clause(field);
      this.addClause(clauses, conj, mods, node);
      if (count === 0 && mods === 'none') first = node;
      count++;
    }
    if (count === 0) return { kind: 'match_none' };
    if (clauses.length === 1 && first !== undefined) return first;
    return { kind: 'bool', clauses };
  }

  /** Lucene's QueryParserBase.addClause: how conjunctions and modifiers set each clause's occur. */
  private addClause(clauses: Array<{ occur: Occur; node: QsNode }>, conj: Conj, mods: Mods, node: QsNode): void {
    const last = clauses[clauses.length - 1];
    if (last && conj === 'and' && last.occur !== 'must_not') last.occur = 'must';
    if (last && this.opts.defaultOperator === 'and' && conj === 'or' && last.occur !== 'must_not') last.occur = 'should';
    let required: boolean;
    const prohibited = mods === 'not';
    if (this.opts.defaultOperator === 'or') required = mods === 'req' || (conj === 'and' && !prohibited);
    else required = !prohibited && conj !== 'or';
    clauses.push({ occur: prohibited ? 'must_not' : required ? 'must' : 'should', node });
  }

  private clause(field: string | null): QsNode {
    let target = field;
    const save = this.pos;
    const name = this.termText(true);
    if (name !== null && this.peek() === ':' ) {
      this.pos++;
      target = name.text;
      this.skipWs();
      if (target === '_exists_') {
        const f = this.termText(false);
        if (f === null) this.fail();
        return withBoost({ kind: 'exists', field: f.text }, this.boost());
      }
    } else {
      this.pos = save;
    }
    const c = this.peek();
    if (c === '(') {
      this.pos++;
      const inner = this.query(target);
      this.skipWs();
      if (this.peek() !== ')') this.fail();
      this.pos++;
      return withBoost(inner, this.boost());
    }
    if (c === '"') return this.phrase(target);
    if (c === '/') return this.regexp(target);
    if (c === '[' || c === '{') return this.range(target);
    if ((c === '>' || c === '<') && target !== field) return this.comparison(target);
    const term = this.termText(false);
    if (term === null) this.fail();
    return this.termNode(target, term.text, term.wildcard);
  }

  private termNode(field: string | null, text: string, wildcard: boolean): QsNode {
    if (this.peek() === '~') {
      this.pos++;
      const n = this.number();
      const node: QsNode = { kind: 'fuzzy', field, text, fuzziness: n === undefined ? undefined : fuzzinessOf(n) };
      return withBoost(node, this.boost());
    }
    if (wildcard) {
      if (!this.opts.allowLeadingWildcard && (text.startsWith('*') || text.startsWith('?')) && text !== '*') {
        throw new QuerySyntaxError(`Cannot parse '${this.input}': '*' or '?' not allowed as first character in WildcardQuery`);
      }
      return withBoost({ kind: 'wildcard', field, text }, this.boost());
    }
    return withBoost({ kind: 'term', field, text }, this.boost());
  }

  /**
   * A term's text with escapes resolved; `wildcard` when it holds an unescaped `*` or `?`.
   * `asField`: stop at the first unescaped `:` (a field name), refusing wildcard-only names.
   */
  private termText(asField: boolean): { text: string; wildcard: boolean } | null {
    let text = '';
    let wildcard = false;
    const start = this.pos;
    while (!this.eof()) {
      const c = this.peek();
      if (c === '\\') {
        if (this.pos + 1 >= this.input.length) this.fail('Term can not end with escape character.');
        text += this.input[this.pos + 1];
        this.pos += 2;
        continue;
      }
      const atStart = this.pos === start;
      if (SPECIAL.has(c) && !(!atStart && (c === '-' || c === '+'))) break;
      if (c === '*' || c === '?') wildcard = true;
      text += c;
      this.pos++;
    }
    if (this.pos === start) return null;
    if (asField && this.peek() !== ':') return null;
    return { text, wildcard };
  }

  private number(): number | undefined {
    const m = /^\d+(\.\d+)?/.exec(this.input.slice(this.pos));
    if (!m) return undefined;
    this.pos += m[0].length;
    return Number(m[0]);
  }

  private boost(): number | undefined {
    if (this.peek() !== '^') return undefined;
    this.pos++;
    const n = this.number();
    if (n === undefined) this.fail();
    return n;
  }

  private phrase(field: string | null): QsNode {
    this.pos++;
    let text = '';
    for (;;) {
      if (this.eof()) this.fail(`Lexical error at line 1, column ${this.input.length + 1}.  Encountered: <EOF> after prefix "${this.input.slice(this.input.lastIndexOf('"'))}"`);
      const c = this.peek();
      if (c === '\\' && this.pos + 1 < this.input.length) {
        text += this.input[this.pos + 1];
        this.pos += 2;
        continue;
      }
      this.pos++;
      if (c === '"') break;
      text += c;
    }
    let slop: number | undefined;
    if (this.peek() === '~') {
      this.pos++;
      const n = this.number();
      slop = n === undefined ? undefined : Math.trunc(n);
    }
    return withBoost({ kind: 'phrase', field, text, slop }, this.boost());
  }

  private regexp(field: string | null): QsNode {
    this.pos++;
    let text = '';
    for (;;) {
      if (this.eof()) this.fail(`Lexical error at line 1, column ${this.input.length + 1}.  Encountered: <EOF> after prefix "${this.input.slice(this.input.lastIndexOf('/'))}"`);
      const c = this.peek();
      if (c === '\\' && this.peek(1) === '/') {
        text += '/';
        this.pos += 2;
        continue;
      }
      this.pos++;
      if (c === '/') break;
      text += c;
    }
    return withBoost({ kind: 'regexp', field, text }, this.boost());
  }

  private rangeBound(): string {
    this.skipWs();
    if (this.peek() === '"') {
      this.pos++;
      let text = '';
      while (!this.eof() && this.peek() !== '"') {
        if (this.peek() === '\\') this.pos++;
        text += this.peek();
        this.pos++;
      }
      if (this.eof()) this.fail();
      this.pos++;
      return text;
    }
    let text = '';
    while (!this.eof() && !WS.has(this.peek()) && this.peek() !== ']' && this.peek() !== '}') {
      if (this.peek() === '\\') this.pos++;
      text += this.peek();
      this.pos++;
    }
    if (!text) this.fail();
    return text;
  }

  private range(field: string | null): QsNode {
    const includeLower = this.peek() === '[';
    this.pos++;
    const lower = this.rangeBound();
    this.skipWs();
    if (!this.input.startsWith('TO', this.pos)) this.fail();
    this.pos += 2;
    const upper = this.rangeBound();
    this.skipWs();
    const close = this.peek();
    if (close !== ']' && close !== '}') this.fail();
    this.pos++;
    const node: QsNode = {
      kind: 'range', field,
      lower: lower === '*' ? undefined : lower,
      upper: upper === '*' ? undefined : upper,
      includeLower, includeUpper: close === ']',
    };
    return withBoost(node, this.boost());
  }

  /** `field:>=5`, `field:<now` (Elasticsearch's one-sided ranges). */
  private comparison(field: string | null): QsNode {
    const op = this.input.startsWith('>=', this.pos) || this.input.startsWith('<=', this.pos) ? this.input.substr(this.pos, 2) : this.peek();
    this.pos += op.length;
    let text = '';
    while (!this.eof() && !WS.has(this.peek()) && this.peek() !== ')' && this.peek() !== '^') {
      if (this.peek() === '\\') this.pos++;
      text += this.peek();
      this.pos++;
    }
    if (!text) this.fail();
    const node: QsNode = op.startsWith('>')
      ? { kind: 'range', field, lower: text, includeLower: op === '>=', includeUpper: true }
      : { kind: 'range', field, upper: text, includeLower: true, includeUpper: op === '<=' };
    return withBoost(node, this.boost());
  }
}

/** `~1.5` (Lucene's old similarity) has no meaning left: floats below 1 read as AUTO. */
function fuzzinessOf(n: number): string {
  if (Number.isInteger(n)) return String(Math.min(n, 2));
  return n < 1 ? 'AUTO' : String(Math.min(Math.trunc(n), 2));
}

export function parseClassic(input: string, opts: ClassicOptions): QsNode {
  if (input.trim() === '') return { kind: 'match_none' };
  return new Parser(input, opts).parse();
}
