/**
 * Synonym rules in Solr format, parsed the way Lucene's SolrSynonymParser fills a SynonymMap (with
 * ES's dedup), shared by the `synonym` and `synonym_graph` filters.
 *
 * - "a, b, c" with expand (the default) maps each entry to every other one and keeps the matched
 *   input (Lucene's includeOrig), so "a" stays with "b" and "c" stacked on it;
 * - "a, b, c" with expand false maps every entry to the first and drops the input, so the first
 *   entry itself comes out as a SYNONYM token;
 * - "a, b => c, d" maps each left side to each right side and never keeps the input.
 *
 * An input keeps itself when any of its rules says so. Rule sides are analyzed by the tokenizer and
 * filters in front of the synonym filter, so a multi-word side becomes a word sequence.
 */
import { EsError } from '../../../../errors/index.js';
import { illegalArgument, boolSetting, listSetting, stringSetting, type Definition } from '../settings.js';
import type { ConfigFiles } from '../config-files.js';
import type { AnalysisToken } from '../types.js';
import { configFileLines } from '../word-list.js';

export const TYPE_SYNONYM = 'SYNONYM';

/** Analyzes one rule side with the chain that precedes the synonym filter. */
export type PhraseAnalyzer = (phrase: string) => string[];

export interface SynonymRule {
  input: string[];
  /** In the order the rules gave them, without duplicates. */
  outputs: string[][];
  /** Whether the matched input tokens stay in the stream. */
  keepOrig: boolean;
}

/** Splits on `separator`, honouring backslash escapes, dropping empty parts (SolrSynonymParser.split). */
export function splitRule(s: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let pos = 0; pos < s.length; ) {
    if (s.startsWith(separator, pos)) {
      if (current.length > 0) parts.push(current);
      current = '';
      pos += separator.length;
      continue;
    }
    let ch = s[pos++];
    if (ch === '\\') {
      current += ch;
      if (pos >= s.length) break;
      ch = s[pos++];
    }
    current += ch;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

function unescape(s: string): string {
  return s.includes('\\') ? s.replace(/\\(.)/g, '$1') : s;
}

const key = (words: readonly string[]) => words.join('\u0000');

export class SynonymMap {
  /** First word → rules starting with it, longest input first. */
  private readonly byFirstWord = new Map<string, SynonymRule[]>();

  constructor(lines: readonly string[], expand: boolean, lenient: boolean, analyzePhrase: PhraseAnalyzer) {
    const byInput = new Map<string, SynonymRule>();
    const analyze = (raw: string): string[] | null => {
      const words = analyzePhrase(unescape(raw).trim());
      if (words.length === 0) {
        if (lenient) return null;
        throw illegalArgument(`failed to build synonyms: term: ${raw.trim()} was completely eliminated by analyzer`);
      }
      return words;
    };
    const sides = (s: string) => splitRule(s, ',').map(analyze).filter((w): w is string[] => w !== null);
    const add = (input: string[], output: string[], includeOrig: boolean) => {
      let rule = byInput.get(key(input));
      if (!rule) byInput.set(key(input), (rule = { input, outputs: [], keepOrig: false }));
      if (!rule.outputs.some((o) => key(o) === key(output))) rule.outputs.push(output);
      rule.keepOrig ||= includeOrig;
    };
    for (const line of lines) {
      if (line.trim().length === 0 || line.trimStart().startsWith('#')) continue;
      const mapping = splitRule(line, '=>');
      if (mapping.length > 2) throw illegalArgument('failed to build synonyms: more than one explicit mapping specified on the same line');
      if (mapping.length === 2) {
        const outputs = sides(mapping[1]);
        for (const input of sides(mapping[0])) for (const output of outputs) add(input, output, false);
        continue;
      }
      const entries = sides(line);
      entries.forEach((input, i) => {
        if (!expand) add(input, entries[0], false);
        else entries.forEach((output, j) => i !== j && add(input, output, true));
      });
    }
    for (const rule of byInput.values()) {
      const list = this.byFirstWord.get(rule.input[0]) ?? [];
      list.push(rule);
      list.sort((a, b) => b.input.length - a.input.length);
      this.byFirstWord.set(rule.input[0], list);
    }
  }

  get isEmpty(): boolean {
    return this.byFirstWord.size === 0;
  }

  /** The rule with the longest input matching the terms of `tokens` from index `i` on. */
  longestMatch(tokens: readonly AnalysisToken[], i: number): SynonymRule | undefined {
    const candidates = this.byFirstWord.get(tokens[i].term);
    if (!candidates) return undefined;
    outer: for (const rule of candidates) {
      if (i + rule.input.length > tokens.length) continue;
      for (let w = 1; w < rule.input.length; w++) if (tokens[i + w].term !== rule.input[w]) continue outer;
      return rule;
    }
    return undefined;
  }
}

/**
 * The rules of a synonyms set by its name, in the set's rule order (undefined: no such set). What
 * `synonyms_set` in a synonym filter reads each time the filter is built.
 */
export interface SynonymsSource {
  rules(set: string): readonly string[] | undefined;
}

/** The synonyms set a `synonym` / `synonym_graph` definition reads its rules from, if any. */
export function synonymsSetOf(def: Definition): string | undefined {
  return def.synonyms === undefined || def.synonyms === null ? stringSetting(def, 'synonyms_set') : undefined;
}

/**
 * The rules of a `synonym` / `synonym_graph` definition: inline `synonyms` first, else the rules of
 * its `synonyms_set` now, else those of the `synonyms_path` file of the config directory (ES's
 * order of sources). A `synonyms_set` needs `updateable: true`, as in ES.
 */
export function synonymMapFromDefinition(def: Definition, analyzePhrase: PhraseAnalyzer, synonyms?: SynonymsSource, files?: ConfigFiles): SynonymMap {
  if (def.format !== undefined && def.format !== 'solr') throw illegalArgument(`synonym format [${String(def.format)}] is not supported by this engine`);
  const expand = boolSetting(def, 'expand', true);
  const lenient = boolSetting(def, 'lenient', false);
  const inline = listSetting(def, 'synonyms', false);
  if (inline) return new SynonymMap(inline, expand, lenient, analyzePhrase);
  const set = synonymsSetOf(def);
  if (set !== undefined) {
    if (!boolSetting(def, 'updateable', false)) {
      throw illegalArgument("Can't apply [synonyms_set]! Loading synonyms from index is supported only for search time synonyms!");
    }
    const rules = synonyms?.rules(set);
    if (!rules) throw new EsError(404, 'resource_not_found_exception', `synonyms set [${set}] not found`);
    try {
      return new SynonymMap(rules, expand, lenient, analyzePhrase);
    } catch (err) {
      if (!(err instanceof EsError)) throw err;
      throw new EsError(400, 'illegal_argument_exception', `failed to build synonyms from [[${set}] synonyms_set in .synonyms index]`, { caused_by: { type: err.type, reason: err.reason } });
    }
  }
  const file = stringSetting(def, 'synonyms_path');
  if (file !== undefined) {
    const rules = configFileLines(files, file, 'synonyms_path_path');
    try {
      return new SynonymMap(rules, expand, lenient, analyzePhrase);
    } catch (err) {
      if (!(err instanceof EsError)) throw err;
      throw new EsError(400, 'illegal_argument_exception', `failed to build synonyms from [${file}]`, { caused_by: { type: err.type, reason: err.reason } });
    }
  }
  throw illegalArgument('synonym requires either `synonyms`, `synonyms_set` or `synonyms_path` to be configured');
}
