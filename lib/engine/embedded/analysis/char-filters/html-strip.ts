/**
 * `html_strip` char filter, modelled on Lucene's HTMLStripCharFilter: tags and comments are
 * removed, block-level tags become a newline, script/style elements disappear with their
 * content, CDATA keeps its content, character entities are decoded, and tags named in
 * `escaped_tags` are left untouched. Offsets map back to the markup.
 */
import { listSetting, type Definition } from '../settings.js';
import type { CharFilter, FilteredText } from '../types.js';
import { OffsetCorrection } from './offset-correction.js';

const BLOCK_LEVEL = new Set(
  (
    'address article aside blockquote body br button caption center col colgroup dd details dialog dir div dl dt fieldset ' +
    'figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe isindex legend li main ' +
    'menu nav noframes noscript object ol optgroup option p pre section select summary table tbody td textarea tfoot th ' +
    'thead title tr ul'
  ).split(' '),
);

const LATIN1_NAMES = (
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para ' +
  'middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute ' +
  'Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute ' +
  'THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ' +
  'ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml'
).split(' ');

const ENTITIES = new Map<string, string>([
  ['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"],
  ['OElig', '\u0152'], ['oelig', '\u0153'], ['Scaron', '\u0160'], ['scaron', '\u0161'], ['Yuml', '\u0178'], ['fnof', '\u0192'],
  ['circ', '\u02c6'], ['tilde', '\u02dc'], ['ensp', '\u2002'], ['emsp', '\u2003'], ['thinsp', '\u2009'], ['zwnj', '\u200c'],
  ['zwj', '\u200d'], ['lrm', '\u200e'], ['rlm', '\u200f'], ['ndash', '\u2013'], ['mdash', '\u2014'], ['lsquo', '\u2018'],
  ['rsquo', '\u2019'], ['sbquo', '\u201a'], ['ldquo', '\u201c'], ['rdquo', '\u201d'], ['bdquo', '\u201e'], ['dagger', '\u2020'],
  ['Dagger', '\u2021'], ['bull', '\u2022'], ['hellip', '\u2026'], ['permil', '\u2030'], ['prime', '\u2032'], ['Prime', '\u2033'],
  ['lsaquo', '\u2039'], ['rsaquo', '\u203a'], ['euro', '\u20ac'], ['trade', '\u2122'], ['larr', '\u2190'], ['rarr', '\u2192'],
  ['minus', '\u2212'],
  ...LATIN1_NAMES.map((name, i): [string, string] => [name, String.fromCharCode(0xa0 + i)]),
]);

const ENTITY_RE = /^&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]{1,7}));/;
const TAG_NAME_RE = /^<\/?([A-Za-z][A-Za-z0-9:_-]*)/;

export class HtmlStripCharFilter implements CharFilter {
  private readonly escapedTags: Set<string>;

  constructor(escapedTags: readonly string[] = []) {
    this.escapedTags = new Set(escapedTags.map((t) => t.toLowerCase()));
  }

  apply(text: string): FilteredText {
    if (!/[<&]/.test(text)) return { text, correct: (o) => o };
    const correction = new OffsetCorrection();
    let out = '';
    let i = 0;
    const n = text.length;
    // Replaces input [i, end) with `replacement` and moves past it.
    const replace = (end: number, replacement: string) => {
      const outputEnd = out.length + replacement.length;
      out += replacement;
      const removed = end - i - replacement.length;
      if (removed !== 0) correction.add(outputEnd, correction.lastDiff + removed);
      i = end;
    };
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x26 /* & */) {
        const m = ENTITY_RE.exec(text.slice(i, i + 12));
        const decoded = m ? decodeEntity(m) : undefined;
        if (m && decoded !== undefined) replace(i + m[0].length, decoded);
        else out += text[i++];
        continue;
      }
      if (c !== 0x3c /* < */) {
        out += text[i++];
        continue;
      }
      if (text.startsWith('<!--', i)) {
        const close = text.indexOf('-->', i + 4);
        if (close < 0) out += text[i++];
        else replace(close + 3, '');
        continue;
      }
      if (text.startsWith('<![CDATA[', i)) {
        const close = text.indexOf(']]>', i + 9);
        if (close < 0) {
          out += text[i++];
          continue;
        }
        replace(i + 9, '');
        out += text.slice(i, close);
        i = close;
        replace(close + 3, '');
        continue;
      }
      if (text.startsWith('<!', i) || text.startsWith('<?', i)) {
        const close = text.indexOf('>', i + 2);
        if (close < 0) out += text[i++];
        else replace(close + 1, '');
        continue;
      }
      const name = TAG_NAME_RE.exec(text.slice(i, i + 64));
      const close = name ? findTagEnd(text, i + name[0].length) : -1;
      if (!name || close < 0) {
        out += text[i++];
        continue;
      }
      const tag = name[1].toLowerCase();
      const isEnd = text.charCodeAt(i + 1) === 0x2f;
      if (this.escapedTags.has(tag)) {
        out += text.slice(i, close + 1);
        i = close + 1;
      } else if (!isEnd && (tag === 'script' || tag === 'style')) {
        const endTag = text.toLowerCase().indexOf(`</${tag}`, close + 1);
        const endClose = endTag < 0 ? -1 : text.indexOf('>', endTag);
        replace(endClose < 0 ? n : endClose + 1, '');
      } else {
        replace(close + 1, BLOCK_LEVEL.has(tag) ? '\n' : '');
      }
    }
    return { text: out, correct: (o) => correction.correct(o) };
  }
}

/** The index of the '>' closing a tag whose attributes start at `from`, skipping quoted values. */
function findTagEnd(text: string, from: number): number {
  let quote = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return i;
    else if (c === 0x3c) return -1;
  }
  return -1;
}

function decodeEntity(m: RegExpExecArray): string | undefined {
  if (m[1] !== undefined || m[2] !== undefined) {
    const cp = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2], 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : undefined;
  }
  return ENTITIES.get(m[3]);
}

export function htmlStripFromDefinition(def: Definition): HtmlStripCharFilter {
  return new HtmlStripCharFilter(listSetting(def, 'escaped_tags') ?? []);
}
