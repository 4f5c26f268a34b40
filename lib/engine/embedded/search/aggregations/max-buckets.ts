import { EsError } from '../../../../errors/index.js';

/**
 * `search.max_buckets` (Elasticsearch 8: 65536, a dynamic cluster setting): buckets the whole
 * response may hold, every level of every multi-bucket aggregation together (ES's MultiBucketConsumer).
 */
export const MAX_BUCKETS = 65536;

/** The buckets a search's aggregations built so far, and the most they may (`search.max_buckets`; MAX_BUCKETS when not given). */
export interface BucketCounter {
  count: number;
  max?: number;
}

/** ES's MultiBucketConsumer error, thrown as soon as `count` buckets would be built. */
export function tooManyBuckets(count: number, max = MAX_BUCKETS): EsError {
  return new EsError(400, 'too_many_buckets_exception',
    `Trying to create too many buckets. Must be less than or equal to: [${max}] but was [${count}]. This limit can be set by changing the [search.max_buckets] cluster level setting.`,
    { max_buckets: max });
}

/** Counts one more bucket of the response (`counter`: the search's, AggContext.buckets); refuses the one past the limit. */
export function consumeBucket(counter: BucketCounter | undefined): void {
  if (counter && ++counter.count > (counter.max ?? MAX_BUCKETS)) throw tooManyBuckets(counter.count, counter.max);
}

/**
 * Counting for an aggregation that builds the sub-aggregations of its candidate buckets before it
 * chooses the ones it returns (terms ordered by a sub-aggregation): `fill(b)` builds one
 * candidate's sub-aggregations, whose own buckets count at once (they take memory); the candidate
 * itself does not. `chosen` then takes back what the dropped candidates counted and counts the
 * chosen buckets.
 */
export function candidateBuckets<B>(counter: BucketCounter | undefined): { fill(b: B, build: () => void): void; chosen(kept: Iterable<B>): void } {
  const before = counter?.count ?? 0;
  const nested = new Map<B, number>();
  return {
    fill(b, build) {
      const start = counter?.count ?? 0;
      build();
      nested.set(b, (counter?.count ?? 0) - start);
    },
    chosen(kept) {
      if (!counter) return;
      counter.count = before;
      for (const b of kept) {
        counter.count += nested.get(b) ?? 0;
        consumeBucket(counter);
      }
    },
  };
}

/** Refuses `count` buckets past the search's limit, before they (and their sub-aggregations) are built. */
export function checkBucketCount(count: number, counter: BucketCounter | undefined): void {
  const max = counter?.max ?? MAX_BUCKETS;
  if (count > max) throw tooManyBuckets(count, max);
}
