/**
 * The shell examples of a Markdown page, read as the docs spec runs them.
 *
 * Convention (stated in README.md, "About the examples"): a fenced block tagged `sh` or `bash` is
 * run; any other language is not. A block whose first line is `# not run: <reason>` is shown, not
 * run. A command's answer may be shown as a comment — on its last line, or on the comment lines
 * right after it: `# 201 {"result": "created", …}`, `# {"hits": {…}}`, `# 404`, or a response
 * header `# X-Request-Cache: true`. The status is checked, the keys shown must be present (values
 * and `…` are not compared), and a header shown must be in the answer.
 */

export interface Expectation {
  status?: number;
  /** The keys shown, as a tree: `{}` for a key whose value is not an object or is not shown. */
  shape?: Shape;
  /** Response headers shown (`# X-Request-Cache: true`): their names must be in the answer's head. */
  headers: string[];
  /** The comment as written, for messages. */
  text: string;
}

export type Shape = { kind: 'object'; keys: Map<string, Shape> } | { kind: 'array'; items: Shape[] } | { kind: 'any' };

export interface ShellCommand {
  /** 1-based line on the page of the command's first line. */
  line: number;
  lines: string[];
  expectation?: Expectation;
}

export interface ShellBlock {
  /** 1-based line on the page of the opening fence. */
  line: number;
  notRun?: string;
  /** The block's lines as they are to be run, with their page lines. */
  commands: ShellCommand[];
  /** Lines between commands (blank, comments), kept so the script is the block as written. */
  source: { text: string; line: number }[];
}

const RUN_LANGUAGES = new Set(['sh', 'bash']);

export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```\s*([\w-]*)\s*$/.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    if (RUN_LANGUAGES.has(open[1])) {
      const body = lines.slice(i + 1, end).map((text, k) => ({ text, line: i + 2 + k }));
      const notRun = /^#\s*not run:\s*(.+)$/.exec(body[0]?.text ?? '');
      blocks.push({ line: i + 1, notRun: notRun?.[1], commands: notRun ? [] : commandsOf(body), source: body });
    }
    i = end;
  }
  return blocks;
}

/** Splits a block into commands, each with the answer its comments show. */
function commandsOf(body: { text: string; line: number }[]): ShellCommand[] {
  const commands: ShellCommand[] = [];
  const lexer = new ShellLexer();
  let current: ShellCommand | undefined;
  let trailing = '';
  let heredoc: string | undefined;
  let k = 0;
  const finish = (): void => {
    let shown = trailing;
    while (k + 1 < body.length && /^\s*#/.test(body[k + 1].text)) {
      shown += '\n' + body[k + 1].text.trim();
      k++;
    }
    commands.push({ ...current!, expectation: expectationOf(shown) });
    current = undefined;
  };
  for (; k < body.length; k++) {
    const { text, line } = body[k];
    if (heredoc !== undefined) {
      current!.lines.push(text);
      if (text.trim() === heredoc) {
        heredoc = undefined;
        finish();
      }
      continue;
    }
    if (!current) {
      if (/^\s*(#|$)/.test(text)) continue;
      current = { line, lines: [] };
      trailing = '';
    }
    current.lines.push(text);
    const { comment, continues } = lexer.line(text);
    if (comment) trailing = comment;
    const doc = /<<-?\s*'?(\w+)'?/.exec(comment ? text.slice(0, text.length - comment.length) : text);
    if (doc && !lexer.inQuote()) {
      heredoc = doc[1];
      continue;
    }
    if (!continues) finish();
  }
  if (current) commands.push(current);
  return commands;
}

/** Enough of the shell's quoting to tell where a command ends and its comment starts. */
class ShellLexer {
  private quote: '' | "'" | '"' | "$'" = '';

  inQuote(): boolean {
    return this.quote !== '';
  }

  line(text: string): { comment?: string; continues: boolean } {
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (this.quote === "'") {
        if (c === "'") this.quote = '';
      } else if (this.quote === '"' || this.quote === "$'") {
        if (c === '\\') i++;
        else if ((this.quote === '"' && c === '"') || (this.quote === "$'" && c === "'")) this.quote = '';
      } else if (c === '\\') {
        if (i === text.length - 1) return { continues: true };
        i++;
      } else if (c === "'") this.quote = "'";
      else if (c === '"') this.quote = '"';
      else if (c === '$' && text[i + 1] === "'") {
        this.quote = "$'";
        i++;
      } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
        return { comment: text.slice(i), continues: this.continuesAfter(text.slice(0, i)) };
      }
    }
    return { continues: this.continuesAfter(text) };
  }

  private continuesAfter(code: string): boolean {
    return this.quote !== '' || /(\|\||&&|\|)\s*$/.test(code);
  }
}

export function expectationOf(comment: string): Expectation | undefined {
  // a trailing comment that is prose leaves the answer to the comment lines after it
  const [first, ...more] = comment.split('\n');
  return answerShown(first) ?? (more.length ? answerShown(more.join('\n')) : undefined);
}

function answerShown(comment: string): Expectation | undefined {
  const text = comment.replace(/^\s*#+ ?/gm, '').trim();
  const headers = [...text.matchAll(/^([A-Z][A-Za-z]*(?:-[A-Za-z]+)+):\s/gm)].map((m) => m[1]);
  const m = /^(\d{3})\b\s*/.exec(text);
  const status = m ? Number(m[1]) : undefined;
  const rest = text.slice(m ? m[0].length : 0);
  const shape = rest.startsWith('{') ? shapeOf(rest) : undefined;
  if (status === undefined && shape === undefined && headers.length === 0) return undefined;
  return { status, shape, headers, text };
}

/**
 * The keys an answer as the docs write it shows: JSON with `…`, keys without values
 * (`{"took", "hits": {…}}`), bare keys (`{_index, _id}`) and prose after the first object.
 */
export function shapeOf(text: string): Shape {
  const tokens = text.match(/"(?:[^"\\]|\\.)*"|[{}[\]:,]|[^\s{}[\]:,"]+/g) ?? [];
  let pos = 0;
  const value = (): Shape => {
    const t = tokens[pos];
    if (t === '{') return object();
    if (t === '[') return array();
    // a scalar or prose: skip to the end of this value
    let depth = 0;
    while (pos < tokens.length) {
      const u = tokens[pos];
      if (depth === 0 && (u === ',' || u === '}' || u === ']')) break;
      if (u === '{' || u === '[') depth++;
      if (u === '}' || u === ']') depth--;
      pos++;
    }
    return { kind: 'any' };
  };
  const object = (): Shape => {
    const keys = new Map<string, Shape>();
    pos++;
    while (pos < tokens.length && tokens[pos] !== '}') {
      const t = tokens[pos];
      if (t === ',') {
        pos++;
        continue;
      }
      const key = t.startsWith('"') ? (JSON.parse(t) as string) : /^[\w.@-]+$/.test(t) ? t : undefined;
      if (key === undefined) {
        value();
        continue;
      }
      pos++;
      if (tokens[pos] === ':') {
        pos++;
        keys.set(key, value());
      } else keys.set(key, { kind: 'any' });
    }
    pos++;
    return { kind: 'object', keys };
  };
  const array = (): Shape => {
    const items: Shape[] = [];
    pos++;
    while (pos < tokens.length && tokens[pos] !== ']') {
      if (tokens[pos] === ',') {
        pos++;
        continue;
      }
      const item = value();
      if (item.kind !== 'any') items.push(item);
    }
    pos++;
    return { kind: 'array', items };
  };
  return value();
}

/** The paths of `shape` that `actual` lacks: a key missing, or an array none of whose items fits. */
export function missingFrom(actual: unknown, shape: Shape, path = ''): string[] {
  if (shape.kind === 'any') return [];
  if (shape.kind === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${path || '.'} is not an object`];
    const missing: string[] = [];
    for (const [key, sub] of shape.keys) {
      if (!(key in actual)) missing.push(`${path}.${key}`);
      else missing.push(...missingFrom((actual as Record<string, unknown>)[key], sub, `${path}.${key}`));
    }
    return missing;
  }
  if (!Array.isArray(actual)) return [`${path} is not an array`];
  const missing: string[] = [];
  for (const item of shape.items) {
    const fits = actual.some((a) => missingFrom(a, item).length === 0);
    if (!fits) missing.push(`${path}[]: no item has ${JSON.stringify(keysOf(item))}`);
  }
  return missing;
}

function keysOf(shape: Shape): unknown {
  if (shape.kind === 'object') return Object.fromEntries([...shape.keys].map(([k, v]) => [k, keysOf(v)]));
  if (shape.kind === 'array') return shape.items.map(keysOf);
  return '…';
}
