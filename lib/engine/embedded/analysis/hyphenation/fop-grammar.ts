/**
 * Reads an Apache FOP XML hyphenation grammar (the OFFO v1.2 format Elasticsearch accepts):
 *
 *   <hyphenation-info>
 *     <hyphen-char value="-"/>          the character that marks breaks in exceptions
 *     <classes> aA bB … </classes>      groups of characters that are one letter
 *     <exceptions> ta-ble … </exceptions>  words with their breaks (also `<hyphen/>` elements)
 *     <patterns> .ab1c 2bd … </patterns>   Liang patterns: letters with inter-letter digits
 *   </hyphenation-info>
 *
 * The XML reader is deliberately small: elements, attributes, text, CDATA, comments, processing
 * instructions and a DOCTYPE (skipped, never fetched), the predefined and numeric entities, and
 * the encoding the declaration names. Anything malformed is a GrammarError, never a crash.
 */
import { HyphenationTree } from './hyphenation-tree.js';

export class GrammarError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GrammarError';
  }
}

type XmlEvent = { kind: 'open'; name: string; attrs: Record<string, string>; selfClosing: boolean } | { kind: 'close'; name: string } | { kind: 'text'; text: string };

/** Parses the grammar file's bytes into a hyphenation tree. */
export function parseFopGrammar(bytes: Uint8Array): HyphenationTree {
  const tree = new HyphenationTree();
  let hyphenChar = '-';
  const stack: string[] = [];
  // An exception word being read: its text so far, and the breaks a `<hyphen/>` element put in it.
  let exceptionText = '';
  let exceptionBreaks: number[] = [];
  let sawRoot = false;

  const addException = () => {
    if (exceptionText.length === 0 && exceptionBreaks.length === 0) return;
    // A hyphen character in the text is a break; the word is the text without them.
    let word = '';
    const breaks: number[] = [];
    let pending = [...exceptionBreaks];
    for (let i = 0; i <= exceptionText.length; i++) {
      while (pending.length && pending[0] === i) {
        breaks.push(word.length);
        pending = pending.slice(1);
      }
      if (i === exceptionText.length) break;
      const c = exceptionText[i];
      if (c === hyphenChar) breaks.push(word.length);
      else word += c;
    }
    tree.addException(word, breaks);
    exceptionText = '';
    exceptionBreaks = [];
  };

  const onText = (text: string) => {
    const inside = stack[stack.length - 1];
    if (inside === 'classes') {
      for (const group of words(text)) tree.addClass(group);
    } else if (inside === 'patterns') {
      for (const pattern of words(text)) addPattern(tree, pattern);
    } else if (inside === 'exceptions') {
      // Whitespace ends a word; a word may run on across a `<hyphen/>` element.
      for (const c of text) {
        if (/\s/.test(c)) addException();
        else exceptionText += c;
      }
    }
  };

  for (const event of readXml(decode(bytes))) {
    if (event.kind === 'open') {
      if (stack.length === 0) {
        if (sawRoot) throw new GrammarError('more than one root element');
        sawRoot = true;
      }
      if (event.name === 'hyphen-char') {
        const value = event.attrs.value;
        if (value !== undefined && value.length === 1) hyphenChar = value;
      } else if (event.name === 'hyphen' && stack[stack.length - 1] === 'exceptions') {
        // A break inside the current word (its pre/post/no texts only matter to typesetting).
        exceptionBreaks.push(exceptionText.length);
      }
      if (!event.selfClosing) stack.push(event.name);
    } else if (event.kind === 'close') {
      const open = stack.pop();
      if (open !== event.name) throw new GrammarError(`closing tag </${event.name}> does not match <${open ?? ''}>`);
      if (open === 'exceptions') addException();
    } else if (stack.length > 0) {
      onText(event.text);
    } else if (event.text.trim().length > 0) {
      throw new GrammarError('text outside the root element');
    }
  }
  if (stack.length > 0) throw new GrammarError(`element <${stack[stack.length - 1]}> is not closed`);
  if (!sawRoot) throw new GrammarError('no root element');
  return tree;
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/** `.ab1c` → letters `.abc`, values [0,0,0,1,0]: a digit is the value of the gap it stands in. */
function addPattern(tree: HyphenationTree, pattern: string): void {
  let letters = '';
  const values: number[] = [0];
  // By UTF-16 unit, as words are matched.
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c >= '0' && c <= '9') values[values.length - 1] = c.charCodeAt(0) - 48;
    else {
      letters += c;
      values.push(0);
    }
  }
  if (letters.length === 0) throw new GrammarError(`pattern [${pattern}] has no letters`);
  tree.addPattern(letters, Uint8Array.from(values));
}

/** The text of the file in the encoding its XML declaration names (UTF-8 when none). */
function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return strictDecode('utf-16be', bytes.subarray(2));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return strictDecode('utf-16le', bytes.subarray(2));
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const declared = /^(?:\uFEFF|\u00EF\u00BB\u00BF)?<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head);
  return strictDecode(declared ? declared[1] : 'utf-8', bytes);
}

function strictDecode(encoding: string, bytes: Uint8Array): string {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(encoding, { fatal: true });
  } catch {
    throw new GrammarError(`unsupported encoding [${encoding}]`);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new GrammarError(`the file is not valid ${encoding}`);
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescape(text: string): string {
  return text.replace(/&([^;&\s]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new GrammarError(`unterminated entity [${whole}]`);
    if (name in ENTITIES) return ENTITIES[name];
    const numeric = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(name);
    const code = numeric ? parseInt(numeric[1] ?? numeric[2], numeric[1] ? 16 : 10) : NaN;
    if (!Number.isInteger(code) || code > 0x10ffff) throw new GrammarError(`unknown entity [${whole}]`);
    return String.fromCodePoint(code);
  });
}

function until(xml: string, from: number, end: string, what: string): number {
  const at = xml.indexOf(end, from);
  if (at < 0) throw new GrammarError(`unterminated ${what}`);
  return at;
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;

function* readXml(xml: string): Generator<XmlEvent> {
  let i = 0;
  while (i < xml.length) {
    if (xml[i] !== '<') {
      const next = xml.indexOf('<', i);
      const end = next < 0 ? xml.length : next;
      yield { kind: 'text', text: unescape(xml.slice(i, end)) };
      i = end;
    } else if (xml.startsWith('<!--', i)) {
      i = until(xml, i + 4, '-->', 'comment') + 3;
    } else if (xml.startsWith('<![CDATA[', i)) {
      const end = until(xml, i + 9, ']]>', 'CDATA section');
      yield { kind: 'text', text: xml.slice(i + 9, end) };
      i = end + 3;
    } else if (xml.startsWith('<?', i)) {
      i = until(xml, i + 2, '?>', 'processing instruction') + 2;
    } else if (xml.startsWith('<!DOCTYPE', i)) {
      // Skipped, internal subset included; nothing it names is ever fetched.
      const close = until(xml, i, '>', 'DOCTYPE');
      const subset = xml.indexOf('[', i);
      i = subset >= 0 && subset < close ? until(xml, until(xml, subset, ']', 'DOCTYPE') + 1, '>', 'DOCTYPE') + 1 : close + 1;
    } else if (xml.startsWith('</', i)) {
      const end = until(xml, i, '>', 'tag');
      const name = xml.slice(i + 2, end).trim();
      if (!NAME.test(name) || NAME.exec(name)![0] !== name) throw new GrammarError(`malformed closing tag [${xml.slice(i, end + 1)}]`);
      yield { kind: 'close', name };
      i = end + 1;
    } else {
      const end = until(xml, i, '>', 'tag');
      let body = xml.slice(i + 1, end);
      const selfClosing = body.endsWith('/');
      if (selfClosing) body = body.slice(0, -1);
      const name = NAME.exec(body)?.[0];
      if (!name) throw new GrammarError(`malformed tag [${xml.slice(i, end + 1)}]`);
      const attrs: Record<string, string> = {};
      let rest = body.slice(name.length);
      const ATTR = /^\s+([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/;
      for (let m = ATTR.exec(rest); m; m = ATTR.exec(rest)) {
        attrs[m[1]] = unescape(m[2] ?? m[3]);
        rest = rest.slice(m[0].length);
      }
      if (rest.trim().length > 0) throw new GrammarError(`malformed tag [${xml.slice(i, end + 1)}]`);
      yield { kind: 'open', name, attrs, selfClosing };
      i = end + 1;
    }
  }
}
