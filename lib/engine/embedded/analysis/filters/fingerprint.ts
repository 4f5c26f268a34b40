/**
 * `fingerprint`: Lucene's FingerprintFilter. The distinct terms, sorted (by UTF-16 unit, as Java
 * compares char arrays) and joined by `separator`, as one token of type `fingerprint` spanning the
 * whole text; none when the result would be longer than `max_output_size`.
 */
import { intSetting, stringSetting, type Definition } from '../settings.js';
import type { TokenFilter, TokenStream } from '../types.js';

export class FingerprintFilter implements TokenFilter {
  constructor(
    private readonly separator: string,
    private readonly maxOutputSize: number,
  ) {}

  filter(stream: TokenStream): void {
    const unique = new Set<string>();
    let size = 0;
    for (const t of stream.tokens) {
      if (size > this.maxOutputSize || unique.has(t.term)) continue;
      if (unique.size > 0) size++;
      unique.add(t.term);
      size += t.term.length;
    }
    if (unique.size === 0 || size > this.maxOutputSize) {
      stream.tokens = [];
      return;
    }
    const term = [...unique].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(this.separator);
    stream.tokens = [{ term, start: 0, end: stream.finalOffset, type: 'fingerprint', posInc: 1, posLen: 1, keyword: false }];
  }
}

export function fingerprintFromDefinition(def: Definition): FingerprintFilter {
  return new FingerprintFilter(stringSetting(def, 'separator') ?? ' ', intSetting(def, 'max_output_size', 255));
}
