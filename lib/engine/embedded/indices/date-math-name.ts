/**
 * Date math in index names, as Elasticsearch's DateMathExpressionResolver reads them: a name
 * `<static{date_math_expr{date_format|time_zone}}static>` stands for the name with each
 * `{…}` placeholder replaced by the date (`now` rounded and shifted) printed in the format
 * (`yyyy.MM.dd` by default) and time zone (UTC by default); `\{` and `\}` are literal braces.
 * Any other name is itself. Expressions are split on commas before each part is resolved.
 */
import { EsError } from '../../../errors/index.js';
import { parseDateMath } from '../mapping/date-math.js';
import { DatePrinter } from '../mapping/date-printer.js';
import { UTC, parseTimeZone, type TimeZone } from '../mapping/time-zone.js';

const DEFAULT_FORMAT = 'yyyy.MM.dd';

function invalid(expression: string, why: string): EsError {
  return new EsError(400, 'parse_exception', `invalid dynamic name expression [${expression}]. ${why}`);
}

function placeholder(inner: string, expression: string, now: number): string {
  const open = inner.indexOf('{');
  let math = inner;
  let format = DEFAULT_FORMAT;
  let zone: TimeZone = UTC;
  if (open >= 0) {
    if (!inner.endsWith('}')) throw invalid(expression, 'missing closing `}` for date math format');
    math = inner.slice(0, open);
    const spec = inner.slice(open + 1, -1);
    const bar = spec.indexOf('|');
    const f = bar >= 0 ? spec.slice(0, bar) : spec;
    if (f.length > 0) format = f;
    if (bar >= 0) zone = parseTimeZone(spec.slice(bar + 1));
  }
  if (math.length === 0) throw invalid(expression, 'missing date math expression');
  const instant = parseDateMath(math, { now, zone });
  return new DatePrinter(format, zone).print(instant.millis);
}

/** One index name with its date math placeholders resolved (`now` given in epoch millis). */
export function resolveDateMathName(name: string, now: number = Date.now()): string {
  if (!name.startsWith('<') || !name.endsWith('>')) return name;
  const text = name.slice(1, -1);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      out += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '}') throw invalid(name, `invalid character at position [${i}]. \`{\` and \`}\` are reserved characters and should be escaped when used as part of the index name using \`\\\` (e.g. \`\\{text\\}\`)`);
    if (c !== '{') {
      out += c;
      i++;
      continue;
    }
    // a placeholder: up to its closing brace, a nested `{format|zone}` included
    let depth = 1;
    let j = i + 1;
    for (; j < text.length && depth > 0; j++) {
      if (text[j] === '{') depth++;
      else if (text[j] === '}') depth--;
    }
    if (depth > 0) throw invalid(name, 'date math placeholder is open ended');
    out += placeholder(text.slice(i + 1, j - 1), name, now);
    i = j;
  }
  if (out.length === 0) throw invalid(name, 'nothing captured');
  return out;
}

/** An index expression (comma list) with each part's date math resolved; one `now` for all. */
export function resolveDateMathExpression(expression: string | undefined, now: number = Date.now()): string | undefined {
  if (expression === undefined || !expression.includes('<')) return expression;
  return expression.split(',').map((part) => (part.startsWith('-<') ? '-' + resolveDateMathName(part.slice(1), now) : resolveDateMathName(part, now))).join(',');
}
