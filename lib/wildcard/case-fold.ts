const folded = new Map<number, number>();

/**
 * A code point's case-insensitive identity: its lower case of its upper case (so `ς`, `σ` and
 * `Σ` agree), left alone where either step would give more than one code point (`ß`, `İ`).
 * Folding never changes how many code points a string has, so `?` still stands for one.
 */
export function foldCodePoint(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 0x20 : cp;
  let f = folded.get(cp);
  if (f === undefined) {
    f = cp;
    const upper = String.fromCodePoint(cp).toUpperCase();
    const lower = (isOneCodePoint(upper) ? upper : String.fromCodePoint(cp)).toLowerCase();
    if (isOneCodePoint(lower)) f = lower.codePointAt(0)!;
    folded.set(cp, f);
  }
  return f;
}

function isOneCodePoint(s: string): boolean {
  return s.length === 1 || (s.length === 2 && s.codePointAt(0)! > 0xffff);
}

/** `text` with every code point folded (see `foldCodePoint`). */
export function foldCase(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length && ascii; i++) ascii = text.charCodeAt(i) < 0x80;
  if (ascii) return text.toLowerCase();
  let out = '';
  for (const ch of text) out += String.fromCodePoint(foldCodePoint(ch.codePointAt(0)!));
  return out;
}
