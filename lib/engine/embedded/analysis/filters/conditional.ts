/**
 * `condition` (Lucene's ConditionalTokenFilter: `filter` applied only to the tokens the script
 * accepts; each run of accepted tokens goes through those filters as a stream of its own) and
 * `predicate_token_filter` (keeps the tokens the script accepts; removed ones leave position gaps).
 */
import { EsError } from '../../../../errors/index.js';
import { illegalArgument, listSetting, type Definition } from '../settings.js';
import type { AnalysisToken, TokenFilter, TokenStream } from '../types.js';
import { keepTokens } from './removing.js';
import { compileTokenPredicate, type ScriptToken } from './token-script.js';

function scriptSource(def: Definition): string {
  const script = def.script;
  if (script === undefined || script === null) throw illegalArgument('No script specified');
  if (typeof script === 'string') return script;
  if (typeof script === 'object' && !Array.isArray(script)) {
    const s = script as Record<string, unknown>;
    if (s.lang !== undefined && s.lang !== 'painless') throw new EsError(400, 'illegal_argument_exception', `script_lang not supported [${String(s.lang)}]`);
    if (typeof s.source === 'string') return s.source;
    if (s.id !== undefined) throw new EsError(400, 'script_exception', 'stored scripts are not supported in analysis filters by this engine');
  }
  throw illegalArgument('No script specified');
}

/** Each token as the script sees it, positions counted from 0. */
function scriptTokens(tokens: readonly AnalysisToken[]): ScriptToken[] {
  let position = -1;
  return tokens.map((t) => {
    position += t.posInc;
    return { term: t.term, position, positionIncrement: t.posInc, positionLength: t.posLen, startOffset: t.start, endOffset: t.end, type: t.type, keyword: t.keyword };
  });
}

export class ConditionFilter implements TokenFilter {
  constructor(
    private readonly accept: (token: ScriptToken) => boolean,
    private readonly filters: readonly TokenFilter[],
  ) {}

  filter(stream: TokenStream): void {
    const views = scriptTokens(stream.tokens);
    const out: AnalysisToken[] = [];
    let run: AnalysisToken[] = [];
    const flush = () => {
      if (run.length === 0) return;
      const sub: TokenStream = { tokens: run, endPosInc: 0, finalOffset: stream.finalOffset };
      for (const f of this.filters) f.filter(sub);
      out.push(...sub.tokens);
      run = [];
    };
    stream.tokens.forEach((t, i) => {
      if (this.accept(views[i])) run.push(t);
      else {
        flush();
        out.push(t);
      }
    });
    flush();
    stream.tokens = out;
  }
}

export function conditionFromDefinition(def: Definition, name: string, resolve: (filter: string) => TokenFilter | undefined): ConditionFilter {
  const names = listSetting(def, 'filter') ?? [];
  if (names.length === 0) throw illegalArgument(`Empty list of filters provided to tokenfilter [${name}]`);
  const accept = compileTokenPredicate(scriptSource(def));
  const filters = names.map((n) => {
    const f = resolve(n);
    if (!f) throw illegalArgument(`ScriptedConditionTokenFilter [${name}] refers to undefined token filter [${n}]`);
    return f;
  });
  return new ConditionFilter(accept, filters);
}

export class PredicateFilter implements TokenFilter {
  constructor(private readonly accept: (token: ScriptToken) => boolean) {}

  filter(stream: TokenStream): void {
    const views = scriptTokens(stream.tokens);
    keepTokens(stream, (_t, i) => this.accept(views[i]));
  }
}

export function predicateFromDefinition(def: Definition): PredicateFilter {
  return new PredicateFilter(compileTokenPredicate(scriptSource(def)));
}
