import { expect } from 'chai';
import { analyze, terms } from './helpers.js';

describe('analysis: char filters', () => {
  it('html_strip: tags removed, block tags become newlines, entities decoded (ES example)', () => {
    expect(terms({ tokenizer: 'keyword', char_filter: ['html_strip'], text: '<p>I&apos;m so <b>happy</b>!</p>' })).to.deep.equal(["\nI'm so happy!\n"]);
  });

  it('html_strip: escaped_tags are kept (ES example)', () => {
    const char_filter = [{ type: 'html_strip', escaped_tags: ['b'] }];
    expect(terms({ tokenizer: 'keyword', char_filter, text: '<p>I&apos;m so <b>happy</b>!</p>' })).to.deep.equal(["\nI'm so <b>happy</b>!\n"]);
  });

  it('html_strip: offsets point into the original markup', () => {
    const text = '<p>I&apos;m so <b>happy</b>!</p>';
    const tokens = analyze({ tokenizer: 'standard', char_filter: ['html_strip'], text });
    expect(tokens.map((t) => [t[0], t[1]])).to.deep.equal([
      ["I'm", 3],
      ['so', 12],
      ['happy', 18],
    ]);
    expect(text.slice(tokens[0][1], tokens[0][2])).to.equal('I&apos;m');
    expect(text.slice(tokens[2][1], tokens[2][2]).startsWith('happy')).to.equal(true);
  });

  it('html_strip: comments, scripts and numeric entities', () => {
    expect(terms({ tokenizer: 'standard', char_filter: ['html_strip'], text: 'a<!-- x -->b <script>var y</script>c &#100;&#x65; 1 &lt; 2' })).to.deep.equal(['ab', 'c', 'de', '1', '2']);
  });

  it('mapping: replaces keys with values, offsets corrected (ES example)', () => {
    const mappings = ['٠ => 0', '١ => 1', '٢ => 2', '٣ => 3', '٤ => 4', '٥ => 5', '٦ => 6', '٧ => 7', '٨ => 8', '٩ => 9'];
    expect(terms({ tokenizer: 'keyword', char_filter: [{ type: 'mapping', mappings }], text: 'My license plate is ٢٥٠١٥' })).to.deep.equal(['My license plate is 25015']);
  });

  it('mapping: longer and shorter replacements map offsets back (ES emoticon example)', () => {
    const char_filter = [{ type: 'mapping', mappings: [':) => _happy_', ':( => _sad_'] }];
    expect(analyze({ tokenizer: 'standard', char_filter, text: "I'm delighted about it :(" })).to.deep.equal([
      ["I'm", 0, 3, '<ALPHANUM>', 0],
      ['delighted', 4, 13, '<ALPHANUM>', 1],
      ['about', 14, 19, '<ALPHANUM>', 2],
      ['it', 20, 22, '<ALPHANUM>', 3],
      ['_sad_', 23, 25, '<ALPHANUM>', 4],
    ]);
    const shrink = [{ type: 'mapping', mappings: ['ph => f'] }];
    expect(analyze({ tokenizer: 'whitespace', char_filter: shrink, text: 'phone graph x' })).to.deep.equal([
      ['fone', 0, 5, 'word', 0],
      ['graf', 6, 11, 'word', 1],
      ['x', 12, 13, 'word', 2],
    ]);
  });

  it('char filters chain, each correcting offsets in turn', () => {
    const char_filter = ['html_strip', { type: 'mapping', mappings: ['& => and'] }];
    expect(analyze({ tokenizer: 'whitespace', char_filter, text: '<b>A&amp;B</b> c' })).to.deep.equal([
      ['AandB', 3, 14, 'word', 0],
      ['c', 15, 16, 'word', 1],
    ]);
  });
});
