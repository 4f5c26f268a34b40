/**
 * Lucene's KStemmer (Krovetz's stemmer: inflectional and derivational endings removed only when
 * the result is a dictionary word), ported from Lucene's compiled class; the `kstem` filter and
 * the `light_english` stemmer. Its dictionary (./kstem-data.ts) is built on first use.
 */
import { COUNTRY_NATIONALITY, DIRECT_CONFLATIONS, EXCEPTION_WORDS, HEAD_WORDS, PROPER_NOUNS, SUPPLEMENT_DICT } from './kstem-data.js';

interface DictEntry {
  /** The stem the word maps to (null: the word itself). */
  root: string | null;
  exception: boolean;
}

let dict: Map<string, DictEntry> | undefined;

/** KStemmer's dictionary: exceptions, direct conflations, nationalities, then the head words. */
function dictionary(): Map<string, DictEntry> {
  if (dict) return dict;
  const d = new Map<string, DictEntry>();
  for (const w of EXCEPTION_WORDS) d.set(w, { root: w, exception: true });
  for (const [w, root] of DIRECT_CONFLATIONS) d.set(w, { root, exception: false });
  for (const [w, root] of COUNTRY_NATIONALITY) d.set(w, { root, exception: false });
  const plain: DictEntry = { root: null, exception: false };
  for (const w of HEAD_WORDS.split(' ')) if (w) d.set(w, plain);
  for (const w of SUPPLEMENT_DICT) d.set(w, plain);
  for (const w of PROPER_NOUNS) d.set(w, plain);
  return (dict = d);
}

/** Lucene's OpenStringBuilder as KStemmer uses it: a buffer whose length can shrink and grow again. */
class Word {
  private buf: string[] = [];
  private len = 0;

  charAt(i: number): string {
    return this.buf[i];
  }

  setCharAt(i: number, c: string): void {
    this.buf[i] = c;
  }

  setLength(n: number): void {
    this.len = n;
  }

  length(): number {
    return this.len;
  }

  unsafeWrite(c: string): void {
    this.buf[this.len++] = c;
  }

  append(s: string): void {
    for (const c of s) this.buf[this.len++] = c;
  }

  reset(): void {
    this.len = 0;
  }

  toString(): string {
    return this.buf.slice(0, this.len).join('');
  }
}

class KStemmer {
  private readonly word = new Word();
  private j = 0;
  private k = 0;
  private matchedEntry: DictEntry | undefined;
  private result: string | null = null;

  private finalChar(): string {
    return this.word.charAt(this.k);
  }

  private penultChar(): string {
    return this.word.charAt(this.k - 1);
  }

  private isVowel(index: number): boolean {
    return !this.isCons(index);
  }

  private isCons(index: number): boolean {
    const ch = this.word.charAt(index);
    return ch !== 'a' && ch !== 'e' && ch !== 'i' && ch !== 'o' && ch !== 'u' && (ch !== 'y' || index === 0 || !this.isCons(index - 1));
  }

  private isAlpha(ch: string): boolean {
    return ch >= 'a' && ch <= 'z';
  }

  private stemLength(): number {
    return this.j + 1;
  }

  private endsInSuffix(s: string): boolean {
    if (s.length > this.k) {
      return false;
    }
    const r = this.word.length() - s.length;
    this.j = this.k;
    for (let r2 = r, i = 0; i < s.length; ++i, ++r2) {
      if (s[i] !== this.word.charAt(r2)) {
        return false;
      }
    }
    this.j = r - 1;
    return true;
  }

  private endsIn2(a: string, b: string): boolean {
    if (2 > this.k) {
      return false;
    }
    if (this.word.charAt(this.k - 1) === a && this.word.charAt(this.k) === b) {
      this.j = this.k - 2;
      return true;
    }
    return false;
  }

  private endsIn3(a: string, b: string, c: string): boolean {
    if (3 > this.k) {
      return false;
    }
    if (this.word.charAt(this.k - 2) === a && this.word.charAt(this.k - 1) === b && this.word.charAt(this.k) === c) {
      this.j = this.k - 3;
      return true;
    }
    return false;
  }

  private endsIn4(a: string, b: string, c: string, d: string): boolean {
    if (4 > this.k) {
      return false;
    }
    if (this.word.charAt(this.k - 3) === a && this.word.charAt(this.k - 2) === b && this.word.charAt(this.k - 1) === c && this.word.charAt(this.k) === d) {
      this.j = this.k - 4;
      return true;
    }
    return false;
  }

  wordInDict(): DictEntry | undefined {
    if (this.matchedEntry !== undefined) {
      return this.matchedEntry;
    }
    const e = dictionary().get(this.word.toString());
    if (e !== undefined && !e.exception) {
      this.matchedEntry = e;
    }
    return e;
  }

  plural(): void {
    if (this.word.charAt(this.k) === 's') {
      if (this.endsIn3('i', 'e', 's')) {
        this.word.setLength(this.j + 3);
        --this.k;
        if (this.lookup()) {
          return;
        }
        ++this.k;
        this.word.unsafeWrite('s');
        this.setSuffix('y');
        this.lookup();
      } else if (this.endsIn2('e', 's')) {
        this.word.setLength(this.j + 2);
        --this.k;
        const tryE = this.j > 0 && (this.word.charAt(this.j) !== 's' || this.word.charAt(this.j - 1) !== 's');
        if (tryE && this.lookup()) {
          return;
        }
        this.word.setLength(this.j + 1);
        --this.k;
        if (this.lookup()) {
          return;
        }
        this.word.unsafeWrite('e');
        ++this.k;
        if (!tryE) {
          this.lookup();
        }
      } else if (this.word.length() > 3 && this.penultChar() !== 's' && !this.endsIn3('o', 'u', 's')) {
        this.word.setLength(this.k);
        --this.k;
        this.lookup();
      }
    }
  }

  private setSuffix(s: string): void {
    this.setSuff(s, s.length);
  }

  private setSuff(s: string, len: number): void {
    this.word.setLength(this.j + 1);
    for (let l = 0; l < len; ++l) {
      this.word.unsafeWrite(s[l]);
    }
    this.k = this.j + len;
  }

  private lookup(): boolean {
    this.matchedEntry = dictionary().get(this.word.toString());
    return this.matchedEntry !== undefined;
  }

  pastTense(): void {
    if (this.word.length() <= 4) {
      return;
    }
    if (this.endsIn3('i', 'e', 'd')) {
      this.word.setLength(this.j + 3);
      --this.k;
      if (this.lookup()) {
        return;
      }
      ++this.k;
      this.word.unsafeWrite('d');
      this.setSuffix('y');
      this.lookup();
    } else {
      if (!this.endsIn2('e', 'd') || !this.vowelInStem()) {
        return;
      }
      this.word.setLength(this.j + 2);
      this.k = this.j + 1;
      const entry = this.wordInDict();
      if (entry !== undefined && !entry.exception) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.k = this.j;
      if (this.lookup()) {
        return;
      }
      if (this.doubleC(this.k)) {
        this.word.setLength(this.k);
        --this.k;
        if (this.lookup()) {
          return;
        }
        this.word.unsafeWrite(this.word.charAt(this.k));
        ++this.k;
        this.lookup();
      } else {
        if (this.word.charAt(0) === 'u' && this.word.charAt(1) === 'n') {
          this.word.unsafeWrite('e');
          this.word.unsafeWrite('d');
          this.k += 2;
          return;
        }
        this.word.setLength(this.j + 1);
        this.word.unsafeWrite('e');
        this.k = this.j + 1;
      }
    }
  }

  private doubleC(i: number): boolean {
    return i >= 1 && this.word.charAt(i) === this.word.charAt(i - 1) && this.isCons(i);
  }

  private vowelInStem(): boolean {
    for (let i = 0; i < this.stemLength(); ++i) {
      if (this.isVowel(i)) {
        return true;
      }
    }
    return false;
  }

  aspect(): void {
    if (this.word.length() <= 5) {
      return;
    }
    if (!this.endsIn3('i', 'n', 'g') || !this.vowelInStem()) {
      return;
    }
    this.word.setCharAt(this.j + 1, 'e');
    this.word.setLength(this.j + 2);
    this.k = this.j + 1;
    const entry = this.wordInDict();
    if (entry !== undefined && !entry.exception) {
      return;
    }
    this.word.setLength(this.k);
    --this.k;
    if (this.lookup()) {
      return;
    }
    if (this.doubleC(this.k)) {
      --this.k;
      this.word.setLength(this.k + 1);
      if (this.lookup()) {
        return;
      }
      this.word.unsafeWrite(this.word.charAt(this.k));
      ++this.k;
      this.lookup();
    } else {
      if (this.j > 0 && this.isCons(this.j) && this.isCons(this.j - 1)) {
        this.k = this.j;
        this.word.setLength(this.k + 1);
        return;
      }
      this.word.setLength(this.j + 1);
      this.word.unsafeWrite('e');
      this.k = this.j + 1;
    }
  }

  ityEndings(): void {
    const old_k = this.k;
    if (!this.endsIn3('i', 't', 'y')) {
      return;
    }
    this.word.setLength(this.j + 1);
    this.k = this.j;
    if (this.lookup()) {
      return;
    }
    this.word.unsafeWrite('e');
    this.k = this.j + 1;
    if (this.lookup()) {
      return;
    }
    this.word.setCharAt(this.j + 1, 'i');
    this.word.append('ty');
    this.k = old_k;
    if (this.j > 0 && this.word.charAt(this.j - 1) === 'i' && this.word.charAt(this.j) === 'l') {
      this.word.setLength(this.j - 1);
      this.word.append('le');
      this.k = this.j;
      this.lookup();
      return;
    }
    if (this.j > 0 && this.word.charAt(this.j - 1) === 'i' && this.word.charAt(this.j) === 'v') {
      this.word.setLength(this.j + 1);
      this.word.unsafeWrite('e');
      this.k = this.j + 1;
      this.lookup();
      return;
    }
    if (this.j > 0 && this.word.charAt(this.j - 1) === 'a' && this.word.charAt(this.j) === 'l') {
      this.word.setLength(this.j + 1);
      this.k = this.j;
      this.lookup();
      return;
    }
    if (this.lookup()) {
      return;
    }
    this.word.setLength(this.j + 1);
    this.k = this.j;
  }

  nceEndings(): void {
    const old_k = this.k;
    if (this.endsIn3('n', 'c', 'e')) {
      const word_char = this.word.charAt(this.j);
      if (word_char !== 'e' && word_char !== 'a') {
        return;
      }
      this.word.setLength(this.j);
      this.word.unsafeWrite('e');
      this.k = this.j;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j);
      this.k = this.j - 1;
      if (this.lookup()) {
        return;
      }
      this.word.unsafeWrite(word_char);
      this.word.append('nce');
      this.k = old_k;
    }
  }

  nessEndings(): void {
    if (this.endsIn4('n', 'e', 's', 's')) {
      this.word.setLength(this.j + 1);
      this.k = this.j;
      if (this.word.charAt(this.j) === 'i') {
        this.word.setCharAt(this.j, 'y');
      }
      this.lookup();
    }
  }

  ismEndings(): void {
    if (this.endsIn3('i', 's', 'm')) {
      this.word.setLength(this.j + 1);
      this.k = this.j;
      this.lookup();
    }
  }

  mentEndings(): void {
    const old_k = this.k;
    if (this.endsIn4('m', 'e', 'n', 't')) {
      this.word.setLength(this.j + 1);
      this.k = this.j;
      if (this.lookup()) {
        return;
      }
      this.word.append('ment');
      this.k = old_k;
    }
  }

  izeEndings(): void {
    const old_k = this.k;
    if (this.endsIn3('i', 'z', 'e')) {
      this.word.setLength(this.j + 1);
      this.k = this.j;
      if (this.lookup()) {
        return;
      }
      this.word.unsafeWrite('i');
      if (this.doubleC(this.j)) {
        this.word.setLength(this.j);
        this.k = this.j - 1;
        if (this.lookup()) {
          return;
        }
        this.word.unsafeWrite(this.word.charAt(this.j - 1));
      }
      this.word.setLength(this.j + 1);
      this.word.unsafeWrite('e');
      this.k = this.j + 1;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.word.append('ize');
      this.k = old_k;
    }
  }

  ncyEndings(): void {
    if (this.endsIn3('n', 'c', 'y')) {
      if (this.word.charAt(this.j) !== 'e' && this.word.charAt(this.j) !== 'a') {
        return;
      }
      this.word.setCharAt(this.j + 2, 't');
      this.word.setLength(this.j + 3);
      this.k = this.j + 2;
      if (this.lookup()) {
        return;
      }
      this.word.setCharAt(this.j + 2, 'c');
      this.word.unsafeWrite('e');
      this.k = this.j + 3;
      this.lookup();
    }
  }

  bleEndings(): void {
    const old_k = this.k;
    if (this.endsIn3('b', 'l', 'e')) {
      if (this.word.charAt(this.j) !== 'a' && this.word.charAt(this.j) !== 'i') {
        return;
      }
      const word_char = this.word.charAt(this.j);
      this.word.setLength(this.j);
      this.k = this.j - 1;
      if (this.lookup()) {
        return;
      }
      if (this.doubleC(this.k)) {
        this.word.setLength(this.k);
        --this.k;
        if (this.lookup()) {
          return;
        }
        ++this.k;
        this.word.unsafeWrite(this.word.charAt(this.k - 1));
      }
      this.word.setLength(this.j);
      this.word.unsafeWrite('e');
      this.k = this.j;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j);
      this.word.append('ate');
      this.k = this.j + 2;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j);
      this.word.unsafeWrite(word_char);
      this.word.append('ble');
      this.k = old_k;
    }
  }

  icEndings(): void {
    if (this.endsIn2('i', 'c')) {
      this.word.setLength(this.j + 3);
      this.word.append('al');
      this.k = this.j + 4;
      if (this.lookup()) {
        return;
      }
      this.word.setCharAt(this.j + 1, 'y');
      this.word.setLength(this.j + 2);
      this.k = this.j + 1;
      if (this.lookup()) {
        return;
      }
      this.word.setCharAt(this.j + 1, 'e');
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.k = this.j;
      if (this.lookup()) {
        return;
      }
      this.word.append('ic');
      this.k = this.j + 2;
    }
  }

  ionEndings(): void {
    const old_k = this.k;
    if (!this.endsIn3('i', 'o', 'n')) {
      return;
    }
    if (this.endsInSuffix('ization')) {
      this.word.setLength(this.j + 3);
      this.word.unsafeWrite('e');
      this.k = this.j + 3;
      this.lookup();
      return;
    }
    if (this.endsInSuffix('ition')) {
      this.word.setLength(this.j + 1);
      this.word.unsafeWrite('e');
      this.k = this.j + 1;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.word.append('ition');
      this.k = old_k;
    } else if (this.endsInSuffix('ation')) {
      this.word.setLength(this.j + 3);
      this.word.unsafeWrite('e');
      this.k = this.j + 3;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.word.unsafeWrite('e');
      this.k = this.j + 1;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.k = this.j;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.word.append('ation');
      this.k = old_k;
    }
    if (this.endsInSuffix('ication')) {
      this.word.setLength(this.j + 1);
      this.word.unsafeWrite('y');
      this.k = this.j + 1;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.word.append('ication');
      this.k = old_k;
    }
    this.j = this.k - 3;
    this.word.setLength(this.j + 1);
    this.word.unsafeWrite('e');
    this.k = this.j + 1;
    if (this.lookup()) {
      return;
    }
    this.word.setLength(this.j + 1);
    this.k = this.j;
    if (this.lookup()) {
      return;
    }
    this.word.setLength(this.j + 1);
    this.word.append('ion');
    this.k = old_k;
  }

  erAndOrEndings(): void {
    const old_k = this.k;
    if (this.word.charAt(this.k) !== 'r') {
      return;
    }
    if (this.endsIn4('i', 'z', 'e', 'r')) {
      this.word.setLength(this.j + 4);
      this.k = this.j + 3;
      this.lookup();
      return;
    }
    if (this.endsIn2('e', 'r') || this.endsIn2('o', 'r')) {
      const word_char = this.word.charAt(this.j + 1);
      if (this.doubleC(this.j)) {
        this.word.setLength(this.j);
        this.k = this.j - 1;
        if (this.lookup()) {
          return;
        }
        this.word.unsafeWrite(this.word.charAt(this.j - 1));
      }
      if (this.word.charAt(this.j) === 'i') {
        this.word.setCharAt(this.j, 'y');
        this.word.setLength(this.j + 1);
        this.k = this.j;
        if (this.lookup()) {
          return;
        }
        this.word.setCharAt(this.j, 'i');
        this.word.unsafeWrite('e');
      }
      if (this.word.charAt(this.j) === 'e') {
        this.word.setLength(this.j);
        this.k = this.j - 1;
        if (this.lookup()) {
          return;
        }
        this.word.unsafeWrite('e');
      }
      this.word.setLength(this.j + 2);
      this.k = this.j + 1;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.k = this.j;
      if (this.lookup()) {
        return;
      }
      this.word.unsafeWrite('e');
      this.k = this.j + 1;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.word.unsafeWrite(word_char);
      this.word.unsafeWrite('r');
      this.k = old_k;
    }
  }

  lyEndings(): void {
    const old_k = this.k;
    if (this.endsIn2('l', 'y')) {
      this.word.setCharAt(this.j + 2, 'e');
      if (this.lookup()) {
        return;
      }
      this.word.setCharAt(this.j + 2, 'y');
      this.word.setLength(this.j + 1);
      this.k = this.j;
      if (this.lookup()) {
        return;
      }
      if (this.j > 0 && this.word.charAt(this.j - 1) === 'a' && this.word.charAt(this.j) === 'l') {
        return;
      }
      this.word.append('ly');
      this.k = old_k;
      if (this.j > 0 && this.word.charAt(this.j - 1) === 'a' && this.word.charAt(this.j) === 'b') {
        this.word.setCharAt(this.j + 2, 'e');
        this.k = this.j + 2;
        return;
      }
      if (this.word.charAt(this.j) === 'i') {
        this.word.setLength(this.j);
        this.word.unsafeWrite('y');
        this.k = this.j;
        if (this.lookup()) {
          return;
        }
        this.word.setLength(this.j);
        this.word.append('ily');
        this.k = old_k;
      }
      this.word.setLength(this.j + 1);
      this.k = this.j;
    }
  }

  alEndings(): void {
    const old_k = this.k;
    if (this.word.length() < 4) {
      return;
    }
    if (this.endsIn2('a', 'l')) {
      this.word.setLength(this.j + 1);
      this.k = this.j;
      if (this.lookup()) {
        return;
      }
      if (this.doubleC(this.j)) {
        this.word.setLength(this.j);
        this.k = this.j - 1;
        if (this.lookup()) {
          return;
        }
        this.word.unsafeWrite(this.word.charAt(this.j - 1));
      }
      this.word.setLength(this.j + 1);
      this.word.unsafeWrite('e');
      this.k = this.j + 1;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.word.append('um');
      this.k = this.j + 2;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.word.append('al');
      this.k = old_k;
      if (this.j > 0 && this.word.charAt(this.j - 1) === 'i' && this.word.charAt(this.j) === 'c') {
        this.word.setLength(this.j - 1);
        this.k = this.j - 2;
        if (this.lookup()) {
          return;
        }
        this.word.setLength(this.j - 1);
        this.word.unsafeWrite('y');
        this.k = this.j - 1;
        if (this.lookup()) {
          return;
        }
        this.word.setLength(this.j - 1);
        this.word.append('ic');
        this.k = this.j;
        this.lookup();
      } else if (this.word.charAt(this.j) === 'i') {
        this.word.setLength(this.j);
        this.k = this.j - 1;
        if (this.lookup()) {
          return;
        }
        this.word.append('ial');
        this.k = old_k;
        this.lookup();
      }
    }
  }

  iveEndings(): void {
    const old_k = this.k;
    if (this.endsIn3('i', 'v', 'e')) {
      this.word.setLength(this.j + 1);
      this.k = this.j;
      if (this.lookup()) {
        return;
      }
      this.word.unsafeWrite('e');
      this.k = this.j + 1;
      if (this.lookup()) {
        return;
      }
      this.word.setLength(this.j + 1);
      this.word.append('ive');
      if (this.j > 0 && this.word.charAt(this.j - 1) === 'a' && this.word.charAt(this.j) === 't') {
        this.word.setCharAt(this.j - 1, 'e');
        this.word.setLength(this.j);
        this.k = this.j - 1;
        if (this.lookup()) {
          return;
        }
        this.word.setLength(this.j - 1);
        if (this.lookup()) {
          return;
        }
        this.word.append('ative');
        this.k = old_k;
      }
      this.word.setCharAt(this.j + 2, 'o');
      this.word.setCharAt(this.j + 3, 'n');
      if (this.lookup()) {
        return;
      }
      this.word.setCharAt(this.j + 2, 'v');
      this.word.setCharAt(this.j + 3, 'e');
      this.k = old_k;
    }
  }
    private matchedRoot(): string | null {
    return this.matchedEntry?.root ?? null;
  }

  private matched(): boolean {
    return this.matchedEntry !== undefined;
  }

  stem(term: string): boolean {
    const len = term.length;
    this.result = null;
    this.k = len - 1;
    if (this.k <= 1 || this.k >= 49) {
      return false;
    }
    const entry = dictionary().get(term);
    if (entry === undefined) {
      this.word.reset();
      for (let i = 0; i < len; i++) {
        const ch = term[i];
        // Lower-case letters only: the stemmer expects a lower-case filter in front of it.
        if (!this.isAlpha(ch)) {
          return false;
        }
        this.word.unsafeWrite(ch);
      }
      this.matchedEntry = undefined;
      // Each step in turn until one reaches a dictionary word.
      for (const step of STEPS) {
        step(this);
        if (this.matched()) break;
      }
      this.result = this.matchedRoot();
      return true;
    }
    if (entry.root !== null) {
      this.result = entry.root;
      return true;
    }
    return false;
  }

  /** The stem after a `stem` that returned true. */
  current(): string {
    return this.result ?? this.word.toString();
  }
}

/** KStemmer's steps, in order (before -ive endings, a word already in the dictionary is a match). */
const STEPS: ReadonlyArray<(s: KStemmer) => void> = [
  (s) => s.plural(), (s) => s.pastTense(), (s) => s.aspect(), (s) => s.ityEndings(), (s) => s.nessEndings(), (s) => s.ionEndings(),
  (s) => s.erAndOrEndings(), (s) => s.lyEndings(), (s) => s.alEndings(), (s) => void s.wordInDict(), (s) => s.iveEndings(), (s) => s.izeEndings(),
  (s) => s.mentEndings(), (s) => s.bleEndings(), (s) => s.ismEndings(), (s) => s.icEndings(), (s) => s.ncyEndings(), (s) => s.nceEndings(),
];

const stemmer = new KStemmer();

export function kstem(term: string): string {
  return stemmer.stem(term) ? stemmer.current() : term;
}
