/**
 * `word_delimiter` / `word_delimiter_graph`: splits a token into sub-words at non-alphanumeric
 * characters, lower→upper case changes and letter↔digit transitions, as Lucene's
 * WordDelimiter(Graph)Filter ("Wi-Fi" → Wi, Fi; "PowerShot500" → Power, Shot, 500; "O'Neil's"
 * → O, Neil). `catenate_words`, `catenate_numbers` and `catenate_all` add the joined runs,
 * stacked on the run's first part; `preserve_original` keeps the token itself first.
 * Not supported: `type_table`, `protected_words`, `adjust_offsets`.
 */
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';

const LOWER = 1;
const UPPER = 2;
const DIGIT = 4;
const ALPHA = LOWER | UPPER;

function charType(ch: string): number {
  if (/\p{Ll}/u.test(ch)) return LOWER;
  if (/\p{Lu}|\p{Lt}|\p{Lm}|\p{Lo}/u.test(ch)) return /\p{Lu}|\p{Lt}/u.test(ch) ? UPPER : LOWER;
  if (/\p{N}/u.test(ch)) return DIGIT;
  return 0;
}

export interface WordDelimiterOptions {
  generateWordParts: boolean;
  generateNumberParts: boolean;
  catenateWords: boolean;
  catenateNumbers: boolean;
  catenateAll: boolean;
  splitOnCaseChange: boolean;
  splitOnNumerics: boolean;
  preserveOriginal: boolean;
  stemEnglishPossessive: boolean;
}

interface Part {
  start: number;
  end: number;
  digit: boolean;
}

export class WordDelimiterFilter implements TokenFilter {
  constructor(private readonly o: WordDelimiterOptions) {}

  private isBreak(last: number, type: number): boolean {
    if ((type & last) !== 0) return false;
    if (!this.o.splitOnCaseChange && last & ALPHA && type & ALPHA) return false;
    if (last & UPPER && type & ALPHA) return false;
    if (!this.o.splitOnNumerics && ((last & ALPHA && type & DIGIT) || (last & DIGIT && type & ALPHA))) return false;
    return true;
  }

  private parts(term: string): Part[] {
    const chars = Array.from(term);
    const out: Part[] = [];
    let offset = 0;
    let start = -1;
    let last = 0;
    const types = chars.map(charType);
    const starts: number[] = [];
    for (const ch of chars) {
      starts.push(offset);
      offset += ch.length;
    }
    starts.push(offset);
    for (let i = 0; i <= chars.length; i++) {
      const type = i < chars.length ? types[i] : 0;
      if (start >= 0 && (type === 0 || this.isBreak(last, type))) {
        out.push({ start: starts[start], end: starts[i], digit: (last & DIGIT) !== 0 });
        start = -1;
      }
      if (type !== 0 && start < 0) start = i;
      last = type;
    }
    // English possessive: "'s" right after a word part, ending the token or before a delimiter, is dropped.
    if (this.o.stemEnglishPossessive) {
      return out.filter((p, i) => {
        if (i === 0 || p.end - p.start !== 1 || (term[p.start] !== 's' && term[p.start] !== 'S')) return true;
        const afterOk = p.end === term.length || charType(term[p.end]) === 0;
        return !(term[p.start - 1] === "'" && out[i - 1].end === p.start - 1 && afterOk);
      });
    }
    return out;
  }

  filter(stream: TokenStream): void {
    const out: AnalysisToken[] = [];
    for (const t of stream.tokens) {
      const parts = this.parts(t.term);
      const whole = parts.length === 1 && parts[0].start === 0 && parts[0].end === t.term.length;
      if (whole || t.keyword) {
        out.push(t);
        continue;
      }
      const exactOffsets = t.end - t.start === t.term.length;
      const make = (term: string, s: number, e: number, posInc: number): AnalysisToken => ({
        ...t, term, start: exactOffsets ? t.start + s : t.start, end: exactOffsets ? t.start + e : t.end, posInc, posLen: 1,
      });
      let pending = t.posInc;
      const emitted: AnalysisToken[] = [];
      if (this.o.preserveOriginal) {
        emitted.push({ ...t, posInc: pending });
        pending = 0;
      }
      const kept = parts.filter((p) => (p.digit ? this.o.generateNumberParts : this.o.generateWordParts));
      // Catenated runs: all parts, or consecutive word (or number) parts.
      const catenations: Array<{ first: number; last: number }> = [];
      if (this.o.catenateAll && parts.length > 1) catenations.push({ first: 0, last: parts.length - 1 });
      else if (this.o.catenateWords || this.o.catenateNumbers) {
        let i = 0;
        while (i < parts.length) {
          let j = i;
          while (j + 1 < parts.length && parts[j + 1].digit === parts[i].digit) j++;
          if (j > i && (parts[i].digit ? this.o.catenateNumbers : this.o.catenateWords)) catenations.push({ first: i, last: j });
          i = j + 1;
        }
      }
      parts.forEach((p, i) => {
        const isKept = kept.includes(p);
        const cat = catenations.find((c) => c.first === i);
        if (cat) {
          const text = parts.slice(cat.first, cat.last + 1).map((q) => t.term.slice(q.start, q.end)).join('');
          emitted.push(make(text, p.start, parts[cat.last].end, pending));
          pending = 0;
          if (isKept) emitted.push(make(t.term.slice(p.start, p.end), p.start, p.end, 0));
          return;
        }
        if (!isKept) return;
        emitted.push(make(t.term.slice(p.start, p.end), p.start, p.end, emitted.length === 0 || (this.o.preserveOriginal && emitted.length === 1 && pending === 0 && i === 0) ? pending : 1));
        pending = 1;
      });
      if (!emitted.length) continue;
      out.push(...emitted);
    }
    stream.tokens = out;
  }
}
