import type { Registry } from 'prom-client';

/**
 * Counters and histograms for the request path, kept as plain numbers and read by prom-client's
 * registry when Prometheus scrapes. prom-client validates and hashes the labels on every
 * `inc`/`observe`, a bound child too (about 1 µs a call, two or three calls a request); here a
 * label set is bound once (`child`), and a request costs an addition and a bucket search. The
 * text exposed is prom-client's own: the values are handed to its formatter in its metric shape
 * (`getForPromString`), so a scrape cannot tell them from prom-client's metrics.
 */
interface ExportedValue {
  value: number;
  labels: Record<string, string | number>;
  /** Labels every value of a label set shares (prom-client formats them once per set). */
  sharedLabels?: Record<string, string | number>;
  metricName?: string;
}

interface Exported {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: ExportedValue[];
  aggregator: 'sum';
}

/** What a prom-client Registry takes as a metric (`registerMetric`). */
interface RegistrableMetric {
  readonly name: string;
  get(): Promise<Exported>;
  getForPromString(): Promise<Exported>;
  reset(): void;
}

type Labels<L extends string> = Record<L, string | number>;

export class TallyCounter<L extends string = never> implements RegistrableMetric {
  private readonly children = new Map<string, { labels: Labels<L>; value: number }>();

  constructor(readonly name: string, readonly help: string, private readonly labelNames: readonly L[], registry: Registry) {
    registry.registerMetric(this as never);
  }

  /** The counter of one label set, bound once: `inc()` is an addition. */
  child(labels: Labels<L>): { inc(n?: number): void } {
    const key = this.labelNames.map((n) => labels[n]).join('\u0000');
    let entry = this.children.get(key);
    if (!entry) this.children.set(key, (entry = { labels: { ...labels }, value: 0 }));
    const bound = entry;
    return { inc: (n = 1) => void (bound.value += n) };
  }

  async get(): Promise<Exported> {
    return this.getForPromString();
  }

  async getForPromString(): Promise<Exported> {
    const values = [...this.children.values()].map((c) => ({ value: c.value, labels: { ...c.labels } }));
    return { name: this.name, help: this.help, type: 'counter', values, aggregator: 'sum' };
  }

  reset(): void {
    for (const c of this.children.values()) c.value = 0;
  }
}

export class TallyHistogram<L extends string = never> implements RegistrableMetric {
  private readonly children = new Map<string, { labels: Labels<L>; counts: number[]; sum: number; count: number }>();

  constructor(readonly name: string, readonly help: string, private readonly labelNames: readonly L[], private readonly buckets: readonly number[], registry: Registry) {
    registry.registerMetric(this as never);
  }

  /** The histogram of one label set, bound once: `observe(v)` is a bucket search and three additions. */
  child(labels: Labels<L>): { observe(value: number): void } {
    const key = this.labelNames.map((n) => labels[n]).join('\u0000');
    let entry = this.children.get(key);
    if (!entry) this.children.set(key, (entry = { labels: { ...labels }, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    const bound = entry;
    const buckets = this.buckets;
    return {
      observe(value: number) {
        if (!Number.isFinite(value)) return;
        bound.sum += value;
        bound.count++;
        for (let i = 0; i < buckets.length; i++) {
          if (value <= buckets[i]) {
            bound.counts[i]++;
            return;
          }
        }
      },
    };
  }

  async get(): Promise<Exported> {
    const exported = await this.getForPromString();
    return { ...exported, values: exported.values.map(({ sharedLabels, labels, ...v }) => ({ ...v, labels: { ...labels, ...sharedLabels } })) };
  }

  /** Cumulative buckets, `+Inf`, `_sum` and `_count`, as prom-client's Histogram exports them. */
  async getForPromString(): Promise<Exported> {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const c of this.children.values()) {
      let acc = 0;
      this.buckets.forEach((le, i) => {
        acc += c.counts[i];
        values.push({ value: acc, labels: { le }, sharedLabels: c.labels, metricName: bucketName });
      });
      values.push({ value: c.count, labels: { le: '+Inf' }, sharedLabels: c.labels, metricName: bucketName });
      values.push({ value: c.sum, labels: {}, sharedLabels: c.labels, metricName: `${this.name}_sum` });
      values.push({ value: c.count, labels: {}, sharedLabels: c.labels, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: 'histogram', values, aggregator: 'sum' };
  }

  reset(): void {
    for (const c of this.children.values()) {
      c.counts.fill(0);
      c.sum = 0;
      c.count = 0;
    }
  }
}
