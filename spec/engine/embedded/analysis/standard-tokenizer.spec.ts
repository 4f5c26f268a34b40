import { expect } from 'chai';
import { StandardTokenizer } from '../../../../lib/engine/embedded/analysis/tokenizers/standard.js';
import { analyze, terms } from './helpers.js';

const QUICK = "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.";

describe('analysis: standard tokenizer (Lucene StandardTokenizer, UAX#29)', () => {
  it('gives the ES reference example token for token', () => {
    expect(analyze({ analyzer: 'standard', text: QUICK })).to.deep.equal([
      ['the', 0, 3, '<ALPHANUM>', 0],
      ['2', 4, 5, '<NUM>', 1],
      ['quick', 6, 11, '<ALPHANUM>', 2],
      ['brown', 12, 17, '<ALPHANUM>', 3],
      ['foxes', 18, 23, '<ALPHANUM>', 4],
      ['jumped', 24, 30, '<ALPHANUM>', 5],
      ['over', 31, 35, '<ALPHANUM>', 6],
      ['the', 36, 39, '<ALPHANUM>', 7],
      ['lazy', 40, 44, '<ALPHANUM>', 8],
      ["dog's", 45, 50, '<ALPHANUM>', 9],
      ['bone', 51, 55, '<ALPHANUM>', 10],
    ]);
  });

  it('splits hyphens and e-mail addresses, keeps numbers with separators and dotted acronyms', () => {
    expect(analyze({ tokenizer: 'standard', text: 'wi-fi 3.14 user@example.com U.S.A. 1,000' })).to.deep.equal([
      ['wi', 0, 2, '<ALPHANUM>', 0],
      ['fi', 3, 5, '<ALPHANUM>', 1],
      ['3.14', 6, 10, '<NUM>', 2],
      ['user', 11, 15, '<ALPHANUM>', 3],
      ['example.com', 16, 27, '<ALPHANUM>', 4],
      ['U.S.A', 28, 33, '<ALPHANUM>', 5],
      ['1,000', 35, 40, '<NUM>', 6],
    ]);
  });

  it('follows the UAX#29 joining rules on the classic cases', () => {
    expect(terms({ tokenizer: 'standard', text: "B2B 2B C++ test's O'Reilly AT&T Excite@Home R2D2 216.239.63.104 1-2 a.b.c word. a:b 3.a ''" })).to.deep.equal([
      'B2B', '2B', 'C', "test's", "O'Reilly", 'AT', 'T', 'Excite', 'Home', 'R2D2', '216.239.63.104', '1', '2', 'a.b.c', 'word', 'a:b', '3', 'a',
    ]);
    expect(analyze({ tokenizer: 'standard', text: 'abc123 123abc a_b 1_000 __1 _' })).to.deep.equal([
      ['abc123', 0, 6, '<ALPHANUM>', 0],
      ['123abc', 7, 13, '<ALPHANUM>', 1],
      ['a_b', 14, 17, '<ALPHANUM>', 2],
      ['1_000', 18, 23, '<NUM>', 3],
      ['__1', 24, 27, '<NUM>', 4],
    ]);
  });

  it('types CJK, Hangul, Katakana and Southeast Asian text as Lucene does', () => {
    expect(analyze({ tokenizer: 'standard', text: '中文字 こんにちは カタカナ 한국어 ไทยภาษา' })).to.deep.equal([
      ['中', 0, 1, '<IDEOGRAPHIC>', 0],
      ['文', 1, 2, '<IDEOGRAPHIC>', 1],
      ['字', 2, 3, '<IDEOGRAPHIC>', 2],
      ['こ', 4, 5, '<HIRAGANA>', 3],
      ['ん', 5, 6, '<HIRAGANA>', 4],
      ['に', 6, 7, '<HIRAGANA>', 5],
      ['ち', 7, 8, '<HIRAGANA>', 6],
      ['は', 8, 9, '<HIRAGANA>', 7],
      ['カタカナ', 10, 14, '<KATAKANA>', 8],
      ['한국어', 15, 18, '<HANGUL>', 9],
      ['ไทยภาษา', 19, 26, '<SOUTHEAST_ASIAN>', 10],
    ]);
  });

  it('keeps emoji sequences (modifiers, flags, keycaps, ZWJ sequences) as single <EMOJI> tokens', () => {
    expect(analyze({ tokenizer: 'standard', text: '💩 💩💩 👍🏽 🇺🇸 1️⃣ 👩‍❤️‍👩 #' })).to.deep.equal([
      ['💩', 0, 2, '<EMOJI>', 0],
      ['💩', 3, 5, '<EMOJI>', 1],
      ['💩', 5, 7, '<EMOJI>', 2],
      ['👍🏽', 8, 12, '<EMOJI>', 3],
      ['🇺🇸', 13, 17, '<EMOJI>', 4],
      ['1️⃣', 18, 21, '<EMOJI>', 5],
      ['👩‍❤️‍👩', 22, 30, '<EMOJI>', 6],
    ]);
  });

  it('keeps combining marks and fullwidth forms inside words', () => {
    expect(terms({ tokenizer: 'standard', text: 'x\u0301y ＡＢＣ１２３ naïve' })).to.deep.equal(['x\u0301y', 'ＡＢＣ１２３', 'naïve']);
  });

  it('splits tokens longer than max_token_length at that interval (ES example, max 5)', () => {
    expect(terms({ tokenizer: { type: 'standard', max_token_length: 5 }, text: QUICK })).to.deep.equal([
      'The', '2', 'QUICK', 'Brown', 'Foxes', 'jumpe', 'd', 'over', 'the', 'lazy', "dog's", 'bone',
    ]);
    expect(analyze({ tokenizer: { type: 'standard', max_token_length: '3' }, text: 'abcdefg' })).to.deep.equal([
      ['abc', 0, 3, '<ALPHANUM>', 0],
      ['def', 3, 6, '<ALPHANUM>', 1],
      ['g', 6, 7, '<ALPHANUM>', 2],
    ]);
    const long = 'a'.repeat(300);
    expect(analyze({ tokenizer: 'standard', text: long }).map((r) => r[2] - r[1])).to.deep.equal([255, 45]);
  });

  it('the ASCII fast path gives exactly the tokens of the full rules, on random text', () => {
    // Letters, digits, every ASCII character that matters to the rules, and non-ASCII neighbours
    // (accents, combining marks, Katakana, Hebrew, emoji and their joiners, keycaps).
    const alphabet = [
      ...'abcXYZ0189', ...' .,;:\'"_-#*@&/()!?\t\n', 'é', '\u0301', 'カ', 'א', '🙂', '\u200d', '\ufe0f', '\u20e3', '日', '１', '\u00ad',
    ];
    let seed = 12345;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const scan = (t: StandardTokenizer, text: string) => {
      const out: Array<[number, number, string]> = [];
      t.scan(text, (start, end, type) => out.push([start, end, type]));
      return out;
    };
    for (const max of [255, 4, 1]) {
      const fast = new StandardTokenizer(max);
      const full = new StandardTokenizer(max, false);
      for (let i = 0; i < 3000; i++) {
        const len = 1 + Math.floor(random() * 24);
        let text = '';
        // Mostly ASCII letters and digits, as real text is.
        for (let j = 0; j < len; j++) text += random() < 0.6 ? alphabet[Math.floor(random() * 10)] : alphabet[Math.floor(random() * alphabet.length)];
        expect(scan(fast, text), JSON.stringify(text)).to.deep.equal(scan(full, text));
      }
    }
  });
});
