export { compileLinear, findAll, InvalidPatternError, MAX_REGEX_EFFORT, tooComplexToDeterminize, type FoundMatch, type LinearRegex } from './linear-regex.js';
export { compileLuceneRegExp, luceneRegExpSource, type LuceneRegExpOptions } from './lucene-regexp.js';
export { compileJavaRegex, javaReplacement } from './java-regex.js';
