import type { IndexHandle } from '../indices/index.js';
import type { StoredScripts } from '../painless/index.js';
import { float32, queryContextOf, queryWork, type NamedQuery } from './query/index.js';
import { withSeqNoField } from './seq-no-field.js';
import type { WorkBudget } from './work-budget.js';

/**
 * `matched_queries` of the hits (Elasticsearch's MatchedQueriesPhase): the names of the query's and
 * post filter's named queries (`_name`) each hit matches, in the order they were written — or, with
 * `include_named_queries_score`, each name with its query's score on the hit. A named query is run
 * once per index that has hits on the page (its matches and scores kept by ordinal), not per hit.
 */
export class NamedQueryMatches {
  private readonly byIndex = new Map<IndexHandle, Array<Map<number, number>>>();

  constructor(
    private readonly named: readonly NamedQuery[],
    private readonly withScores: boolean,
    private readonly budget: WorkBudget,
    private readonly scripts?: StoredScripts,
  ) {}

  /** The hit's `matched_queries` (undefined when it matches none, as Elasticsearch leaves the member out). */
  async of(handle: IndexHandle, ord: number): Promise<string[] | Record<string, number> | undefined> {
    const matches = await this.matchesIn(handle);
    const names: string[] = [];
    const scores: Record<string, number> = {};
    this.named.forEach(({ name }, i) => {
      const score = matches[i].get(ord);
      if (score === undefined) return;
      names.push(name);
      scores[name] = float32(score);
    });
    if (!names.length) return undefined;
    return this.withScores ? scores : names;
  }

  private async matchesIn(handle: IndexHandle): Promise<Array<Map<number, number>>> {
    let matches = this.byIndex.get(handle);
    if (matches) return matches;
    matches = [];
    for (const { query } of this.named) {
      const ctx = withSeqNoField({ ...queryContextOf(handle), scripts: this.scripts }, handle, [query]);
      const scored = await this.budget.drive(queryWork(query, ctx, this.withScores, this.budget));
      const byOrd = new Map<number, number>();
      for (let i = 0; i < scored.length; i++) byOrd.set(scored.ords[i], scored.scores[i]);
      matches.push(byOrd);
    }
    this.byIndex.set(handle, matches);
    return matches;
  }
}
