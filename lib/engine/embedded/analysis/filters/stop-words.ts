/** Predefined stop word lists ES accepts by name (`_english_`, `_none_`). */

/** Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET. */
export const ENGLISH_STOP_WORDS: readonly string[] = [
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on',
  'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
];

export const NAMED_STOP_WORDS: Record<string, readonly string[]> = {
  _english_: ENGLISH_STOP_WORDS,
  _none_: [],
};
