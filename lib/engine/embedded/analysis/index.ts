/**
 * Analysis: text → tokens, as Elasticsearch's analyzers produce them.
 *
 * PROVISIONAL surface (the full implementation replaces the body, keeping these exports):
 * - `Token`: one token with offsets, type and position, as `_analyze` returns it.
 * - `Analyzer.analyze(text)`: tokens of one text value.
 * - `AnalysisRegistry`: resolves analyzer / normalizer names for one index, from the built-ins and
 *   the index's `settings.index.analysis` (custom analyzers, tokenizers, filters, char filters,
 *   normalizers). `createAnalysisRegistry` throws an EsError (400 illegal_argument_exception)
 *   for an invalid analysis definition, so index creation can refuse it.
 */
export interface Token {
  token: string;
  start_offset: number;
  end_offset: number;
  type: string;
  position: number;
  positionLength?: number;
}

export interface Analyzer {
  readonly name: string;
  analyze(text: string): Token[];
}

export interface AnalysisRegistry {
  /** Throws EsError 400 when the analyzer does not exist. */
  analyzer(name: string): Analyzer;
  /** A keyword normalizer (single token out); throws EsError 400 when unknown. */
  normalizer(name: string): Analyzer;
  hasAnalyzer(name: string): boolean;
}

const WORD = /[\p{L}\p{N}_]+(?:['.][\p{L}\p{N}_]+)*/gu;

function simpleStandard(name: string): Analyzer {
  return {
    name,
    analyze(text: string): Token[] {
      const out: Token[] = [];
      let position = 0;
      for (const m of text.matchAll(WORD)) {
        out.push({ token: m[0].toLowerCase(), start_offset: m.index!, end_offset: m.index! + m[0].length, type: '<ALPHANUM>', position: position++ });
      }
      return out;
    },
  };
}

const keyword: Analyzer = {
  name: 'keyword',
  analyze: (text) => [{ token: text, start_offset: 0, end_offset: text.length, type: 'word', position: 0 }],
};

export function createAnalysisRegistry(_analysisSettings?: unknown): AnalysisRegistry {
  const standard = simpleStandard('standard');
  return {
    analyzer: (name) => (name === 'keyword' ? keyword : standard),
    normalizer: () => keyword,
    hasAnalyzer: (name) => name === 'standard' || name === 'keyword',
  };
}
