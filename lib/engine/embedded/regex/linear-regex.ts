/**
 * Every regular expression a user supplies (queries, aggregations, analysis, mappings) runs on
 * RE2 (the `re2js` port): matching is linear in the input, so no pattern can stall the event
 * loop the way a backtracking engine does on `(a+)+b`. RE2 cannot express lookahead, atomic
 * groups, possessive quantifiers or backreferences; those patterns are refused with a 400.
 * Program size is bounded like Lucene bounds determinization, so compiling cannot run away.
 */
import { LRUCache } from 'lru-cache';
import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';
import { EsError } from '../../../errors/index.js';

export type LinearRegex = RE2JS;

/** Lucene's default determinize work limit (`max_determinized_states`), applied to RE2's program size. */
export const MAX_REGEX_EFFORT = 10_000;

/** A pattern that does not compile; each caller words it in its own Elasticsearch error. */
export class InvalidPatternError extends Error {}

/** Lucene's TooComplexToDeterminizeException as Elasticsearch reports it. */
export function tooComplexToDeterminize(original: string): EsError {
  return new EsError(400, 'too_complex_to_determinize_exception', `Determinizing ${original} would require more than ${MAX_REGEX_EFFORT} effort.`);
}

const compiled = new LRUCache<string, RE2JS>({ max: 1000 });

/**
 * Compiles RE2 syntax (`flags` are RE2JS flags). `original` is the pattern as the user wrote it,
 * for messages. Throws `InvalidPatternError` for a syntax RE2 refuses and the 400
 * `too_complex_to_determinize_exception` for a pattern too large to run.
 */
export function compileLinear(source: string, flags: number, original: string = source): LinearRegex {
  const key = `${flags}\u0000${source}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, flags);
  } catch (err) {
    if (err instanceof RE2JSSyntaxException) throw syntaxError(err, original);
    if (err instanceof RE2JSException) throw new InvalidPatternError(err.message);
    throw err;
  }
  if (re.programSize() > MAX_REGEX_EFFORT) throw tooComplexToDeterminize(original);
  compiled.set(key, re);
  return re;
}

const UNSUPPORTED_GROUP = /^\(\?(?:=|!|<=|<!|>)/;
const BACKREFERENCE = /^\\(?:[1-9]|k<)/;
const POSSESSIVE = /^(?:[*+?]|\{\d+(?:,\d*)?\})\+/;

function syntaxError(err: RE2JSSyntaxException, original: string): Error {
  const at = err.getPattern() ?? '';
  switch (err.getDescription()) {
    case 'expression too large':
    case 'expression nests too deeply':
      return tooComplexToDeterminize(original);
    case 'invalid repeat count': {
      // RE2 caps repetition at 1000 (nested counts multiply); Lucene would build that many states.
      const m = /^\{(\d+)(?:,(\d*))?\}$/.exec(at);
      const reversed = m !== null && m[2] !== undefined && m[2] !== '' && Number(m[1]) > Number(m[2]);
      return m && !reversed ? tooComplexToDeterminize(original) : new InvalidPatternError(err.message);
    }
    default:
      if (UNSUPPORTED_GROUP.test(at) || BACKREFERENCE.test(at) || POSSESSIVE.test(at)) {
        return new InvalidPatternError(
          `[${at}] is not supported: lookahead, atomic groups, possessive quantifiers and backreferences need backtracking, and patterns run on a linear-time engine`,
        );
      }
      return new InvalidPatternError(err.message);
  }
}

/** Every match of `re` in `text`, left to right, as Java's `Matcher.find()` loop visits them. */
export function* findAll(re: LinearRegex, text: string): Generator<FoundMatch> {
  const m = re.matcher(text);
  while (m.find()) yield m;
}

/** The current match of a `findAll` iteration. */
export interface FoundMatch {
  start(group?: number): number;
  end(group?: number): number;
  group(group?: number): string | null;
}
