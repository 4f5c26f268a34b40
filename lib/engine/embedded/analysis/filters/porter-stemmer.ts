/**
 * Martin Porter's stemming algorithm as Lucene's PorterStemmer implements it (the author's
 * reference version, including its "logi" → "log" departure from the paper). Words of up to two
 * letters are left alone. Works on a mutable char array with `k` the index of the last letter
 * and `j` the end of the stem of the suffix last matched by `ends`.
 */
export class PorterStemmer {
  private b: string[] = [];
  private k = 0;
  private j = 0;

  stem(word: string): string {
    if (word.length <= 2) return word;
    this.b = word.split('');
    this.k = word.length - 1;
    this.step1();
    this.step2();
    this.step3();
    this.step4();
    this.step5();
    this.step6();
    return this.b.slice(0, this.k + 1).join('');
  }

  private cons(i: number): boolean {
    switch (this.b[i]) {
      case 'a':
      case 'e':
      case 'i':
      case 'o':
      case 'u':
        return false;
      case 'y':
        return i === 0 ? true : !this.cons(i - 1);
      default:
        return true;
    }
  }

  /** The number of consonant-vowel sequences in b[0..j]. */
  private m(): number {
    let n = 0;
    let i = 0;
    const j = this.j;
    for (;;) {
      if (i > j) return n;
      if (!this.cons(i)) break;
      i++;
    }
    i++;
    for (;;) {
      for (;;) {
        if (i > j) return n;
        if (this.cons(i)) break;
        i++;
      }
      i++;
      n++;
      for (;;) {
        if (i > j) return n;
        if (!this.cons(i)) break;
        i++;
      }
      i++;
    }
  }

  private vowelInStem(): boolean {
    for (let i = 0; i <= this.j; i++) if (!this.cons(i)) return true;
    return false;
  }

  private doubleC(j: number): boolean {
    return j >= 1 && this.b[j] === this.b[j - 1] && this.cons(j);
  }

  /** consonant-vowel-consonant ending at i, the last not w, x or y. */
  private cvc(i: number): boolean {
    if (i < 2 || !this.cons(i) || this.cons(i - 1) || !this.cons(i - 2)) return false;
    const ch = this.b[i];
    return !(ch === 'w' || ch === 'x' || ch === 'y');
  }

  private ends(s: string): boolean {
    const l = s.length;
    const o = this.k - l + 1;
    if (o < 0) return false;
    for (let i = 0; i < l; i++) if (this.b[o + i] !== s[i]) return false;
    this.j = this.k - l;
    return true;
  }

  private setTo(s: string): void {
    const o = this.j + 1;
    for (let i = 0; i < s.length; i++) this.b[o + i] = s[i];
    this.k = this.j + s.length;
  }

  private r(s: string): void {
    if (this.m() > 0) this.setTo(s);
  }

  /** Plurals and -ed / -ing. */
  private step1(): void {
    const b = this.b;
    if (b[this.k] === 's') {
      if (this.ends('sses')) this.k -= 2;
      else if (this.ends('ies')) this.setTo('i');
      else if (b[this.k - 1] !== 's') this.k--;
    }
    if (this.ends('eed')) {
      if (this.m() > 0) this.k--;
    } else if ((this.ends('ed') || this.ends('ing')) && this.vowelInStem()) {
      this.k = this.j;
      if (this.ends('at')) this.setTo('ate');
      else if (this.ends('bl')) this.setTo('ble');
      else if (this.ends('iz')) this.setTo('ize');
      else if (this.doubleC(this.k)) {
        const ch = b[this.k--];
        if (ch === 'l' || ch === 's' || ch === 'z') this.k++;
      } else if (this.m() === 1 && this.cvc(this.k)) this.setTo('e');
    }
  }

  /** Terminal y → i when there is another vowel in the stem. */
  private step2(): void {
    if (this.ends('y') && this.vowelInStem()) this.b[this.k] = 'i';
  }

  /** Double suffixes → single ones (-ization → -ize …), when m() > 0. */
  private step3(): void {
    if (this.k === 0) return;
    switch (this.b[this.k - 1]) {
      case 'a':
        if (this.ends('ational')) this.r('ate');
        else if (this.ends('tional')) this.r('tion');
        break;
      case 'c':
        if (this.ends('enci')) this.r('ence');
        else if (this.ends('anci')) this.r('ance');
        break;
      case 'e':
        if (this.ends('izer')) this.r('ize');
        break;
      case 'l':
        if (this.ends('bli')) this.r('ble');
        else if (this.ends('alli')) this.r('al');
        else if (this.ends('entli')) this.r('ent');
        else if (this.ends('eli')) this.r('e');
        else if (this.ends('ousli')) this.r('ous');
        break;
      case 'o':
        if (this.ends('ization')) this.r('ize');
        else if (this.ends('ation')) this.r('ate');
        else if (this.ends('ator')) this.r('ate');
        break;
      case 's':
        if (this.ends('alism')) this.r('al');
        else if (this.ends('iveness')) this.r('ive');
        else if (this.ends('fulness')) this.r('ful');
        else if (this.ends('ousness')) this.r('ous');
        break;
      case 't':
        if (this.ends('aliti')) this.r('al');
        else if (this.ends('iviti')) this.r('ive');
        else if (this.ends('biliti')) this.r('ble');
        break;
      case 'g':
        if (this.ends('logi')) this.r('log');
        break;
    }
  }

  /** -ic-, -full, -ness … */
  private step4(): void {
    switch (this.b[this.k]) {
      case 'e':
        if (this.ends('icate')) this.r('ic');
        else if (this.ends('ative')) this.r('');
        else if (this.ends('alize')) this.r('al');
        break;
      case 'i':
        if (this.ends('iciti')) this.r('ic');
        break;
      case 'l':
        if (this.ends('ical')) this.r('ic');
        else if (this.ends('ful')) this.r('');
        break;
      case 's':
        if (this.ends('ness')) this.r('');
        break;
    }
  }

  /** -ant, -ence … removed when m() > 1. */
  private step5(): void {
    if (this.k === 0) return;
    switch (this.b[this.k - 1]) {
      case 'a':
        if (this.ends('al')) break;
        return;
      case 'c':
        if (this.ends('ance') || this.ends('ence')) break;
        return;
      case 'e':
        if (this.ends('er')) break;
        return;
      case 'i':
        if (this.ends('ic')) break;
        return;
      case 'l':
        if (this.ends('able') || this.ends('ible')) break;
        return;
      case 'n':
        if (this.ends('ant') || this.ends('ement') || this.ends('ment') || this.ends('ent')) break;
        return;
      case 'o':
        if (this.ends('ion') && this.j >= 0 && (this.b[this.j] === 's' || this.b[this.j] === 't')) break;
        if (this.ends('ou')) break;
        return;
      case 's':
        if (this.ends('ism')) break;
        return;
      case 't':
        if (this.ends('ate') || this.ends('iti')) break;
        return;
      case 'u':
        if (this.ends('ous')) break;
        return;
      case 'v':
        if (this.ends('ive')) break;
        return;
      case 'z':
        if (this.ends('ize')) break;
        return;
      default:
        return;
    }
    if (this.m() > 1) this.k = this.j;
  }

  /** Final -e, and -ll → -l, when m() > 1. */
  private step6(): void {
    this.j = this.k;
    if (this.b[this.k] === 'e') {
      const a = this.m();
      if (a > 1 || (a === 1 && !this.cvc(this.k - 1))) this.k--;
    }
    if (this.b[this.k] === 'l' && this.doubleC(this.k) && this.m() > 1) this.k--;
  }
}
