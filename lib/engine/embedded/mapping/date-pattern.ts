/**
 * What parsing and printing Elasticsearch date formats share: java.time patterns read as tokens
 * (`yyyy-MM-dd'T'HH:mm`, `[` optional `]` sections, `'quoted'` literals) and ES's built-in format
 * names spelled as such patterns.
 */

export type Token = { kind: 'lit'; text: string } | { kind: 'field'; letter: string; count: number } | { kind: 'opt'; tokens: Token[] };

/** Built-in names whose text is an ISO date with optional time, fraction and zone. */
export const OPTIONAL_TIME_NAMES = new Set(['strict_date_optional_time', 'date_optional_time', 'strict_date_optional_time_nanos', 'iso8601']);

/** The other built-in names, as the patterns they parse and print. */
export const NAMED_PATTERNS: Record<string, string> = {
  basic_date: 'yyyyMMdd',
  strict_basic_date: 'yyyyMMdd',
  basic_date_time: "yyyyMMdd'T'HHmmss.SSSXX",
  basic_date_time_no_millis: "yyyyMMdd'T'HHmmssXX",
  strict_date: 'yyyy-MM-dd',
  date: 'yyyy-MM-dd',
  strict_year_month_day: 'yyyy-MM-dd',
  year_month_day: 'yyyy-MM-dd',
  strict_year_month: 'yyyy-MM',
  year_month: 'yyyy-MM',
  strict_year: 'yyyy',
  year: 'yyyy',
  strict_date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  strict_date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
  date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
  strict_date_hour: "yyyy-MM-dd'T'HH",
  date_hour: "yyyy-MM-dd'T'HH",
  strict_date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  strict_date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  strict_date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  strict_date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  strict_hour_minute_second: 'HH:mm:ss',
  hour_minute_second: 'HH:mm:ss',
  strict_hour_minute: 'HH:mm',
  hour_minute: 'HH:mm',
  strict_hour: 'HH',
  hour: 'HH',
  strict_time: 'HH:mm:ss.SSSXXX',
  time: 'HH:mm:ss.SSSXXX',
  strict_time_no_millis: 'HH:mm:ssXXX',
  time_no_millis: 'HH:mm:ssXXX',
};

export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A java.time pattern as tokens: runs of one letter, literals, and optional sections. */
export function tokenize(pattern: string): Token[] {
  const stack: Token[][] = [[]];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    const top = stack[stack.length - 1];
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      const lit = end < 0 ? pattern.slice(i + 1) : pattern.slice(i + 1, end);
      top.push({ kind: 'lit', text: lit === '' ? "'" : lit });
      i = end < 0 ? pattern.length : end + 1;
    } else if (c === '[') {
      stack.push([]);
      i++;
    } else if (c === ']') {
      const inner = stack.length > 1 ? stack.pop()! : [];
      stack[stack.length - 1].push({ kind: 'opt', tokens: inner });
      i++;
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (j < pattern.length && pattern[j] === c) j++;
      top.push({ kind: 'field', letter: c, count: j - i });
      i = j;
    } else {
      top.push({ kind: 'lit', text: c });
      i++;
    }
  }
  while (stack.length > 1) {
    const inner = stack.pop()!;
    stack[stack.length - 1].push({ kind: 'opt', tokens: inner });
  }
  return stack[0];
}
