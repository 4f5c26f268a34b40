/** Shared helpers for the analysis specs: run an `_analyze` body and compact its tokens. */
import { analyzeRequest, createAnalysisRegistry, type AnalysisRegistry, type AnalyzeRequestBody, type Token } from '../../../../lib/engine/embedded/analysis/index.js';

/** [token, start_offset, end_offset, type, position] (+ positionLength when > 1). */
export type Row = [string, number, number, string, number] | [string, number, number, string, number, number];

export function rows(tokens: Token[]): Row[] {
  return tokens.map((t) =>
    t.positionLength ? [t.token, t.start_offset, t.end_offset, t.type, t.position, t.positionLength] : [t.token, t.start_offset, t.end_offset, t.type, t.position],
  );
}

export function analyze(body: AnalyzeRequestBody, registry: AnalysisRegistry = createAnalysisRegistry(undefined)): Row[] {
  return rows(analyzeRequest(registry, body).tokens);
}

export function terms(body: AnalyzeRequestBody, registry?: AnalysisRegistry): string[] {
  return analyze(body, registry).map((r) => r[0]);
}

/** Calls `fn` and returns the EsError it throws (fails when it does not throw). */
export function thrown(fn: () => unknown): { status: number; type: string; reason: string } {
  try {
    fn();
  } catch (e) {
    return e as { status: number; type: string; reason: string };
  }
  throw new Error('expected an error');
}
