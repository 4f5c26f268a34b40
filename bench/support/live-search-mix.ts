import { seededRandom } from './latency.js';

type Doc = Record<string, unknown>;

/** The Debian index's mapping for the matching benchmark (fields not listed are mapped dynamically). */
export const DEBIAN_INDEX = {
  settings: { number_of_shards: 1 },
  mappings: {
    properties: {
      name: { type: 'text', fields: { raw: { type: 'keyword' } } },
      summary: { type: 'text' },
      section: { type: 'text', fields: { raw: { type: 'keyword' } } },
      maintainer: { type: 'text', fields: { raw: { type: 'keyword' } } },
      priority: { type: 'keyword' },
      installed_size_kb: { type: 'long' },
    },
  },
};

const STOP = new Set(['with', 'from', 'that', 'this', 'into', 'for', 'and', 'the', 'files', 'file']);

function words(text: unknown): string[] {
  return String(text ?? '').toLowerCase().match(/[a-z][a-z0-9]{3,}/g)?.filter((w) => !STOP.has(w)) ?? [];
}

export interface SearchMix {
  /** Search bodies' `query` parts, all distinct. */
  queries: unknown[];
  /** How many of each template. */
  kinds: Map<string, number>;
}

/**
 * `count` distinct live searches in the shape people write them, drawn from corpus values so
 * they select realistic subsets: full-text match on summary (one word, two words with AND, a
 * phrase), exact term on section.raw / name.raw / maintainer.raw, ranges on installed_size_kb,
 * and bool combinations of them. A few are pure ranges, which no term index can narrow down.
 */
export function liveSearchMix(docs: Doc[], count: number, seed = 42): SearchMix {
  const random = seededRandom(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
  const doc = () => docs[Math.floor(random() * docs.length)];
  const size = (d: Doc) => Math.max(1, Number(d.installed_size_kb ?? 1));
  const range = (d: Doc) => {
    const s = size(d);
    return { range: { installed_size_kb: { gte: Math.floor(s / (1 + random() * 3)), lt: Math.ceil(s * (1 + random() * 3)) } } };
  };
  const templates: Array<[string, number, () => unknown | undefined]> = [
    ['match summary (1 word)', 22, () => {
      const w = words(doc().summary);
      return w.length ? { match: { summary: pick(w) } } : undefined;
    }],
    ['match summary (2 words, and)', 10, () => {
      const w = words(doc().summary);
      return w.length >= 2 ? { match: { summary: { query: `${pick(w)} ${pick(w)}`, operator: 'and' } } } : undefined;
    }],
    ['match_phrase summary', 5, () => {
      const w = words(doc().summary);
      if (w.length < 2) return undefined;
      const i = Math.floor(random() * (w.length - 1));
      return { match_phrase: { summary: `${w[i]} ${w[i + 1]}` } };
    }],
    ['term name.raw', 8, () => ({ term: { 'name.raw': String(doc().name) } })],
    ['bool: term section.raw + range', 15, () => {
      const d = doc();
      return { bool: { filter: [{ term: { 'section.raw': String(d.section) } }, range(d)] } };
    }],
    ['bool: match summary + range', 15, () => {
      const d = doc();
      const w = words(d.summary);
      return w.length ? { bool: { must: [{ match: { summary: pick(w) } }], filter: [range(d)] } } : undefined;
    }],
    ['bool: term maintainer.raw + match summary', 10, () => {
      const d = doc();
      const w = words(d.summary);
      return w.length ? { bool: { filter: [{ term: { 'maintainer.raw': String(d.maintainer) } }], must: [{ match: { summary: pick(w) } }] } } : undefined;
    }],
    ['bool: should 2 sections, must_not priority', 5, () => {
      const a = doc();
      const b = doc();
      return {
        bool: {
          should: [{ term: { 'section.raw': String(a.section) } }, { term: { 'section.raw': String(b.section) } }],
          minimum_should_match: 1,
          must_not: [{ term: { priority: pick(['optional', 'extra', 'standard', 'important']) } }],
          filter: [range(a)],
        },
      };
    }],
    ['bool: should match name / match summary', 5, () => {
      const d = doc();
      const w = words(d.summary);
      const n = words(d.name);
      return w.length && n.length ? { bool: { should: [{ match: { name: pick(n) } }, { match: { summary: pick(w) } }] } } : undefined;
    }],
    ['range installed_size_kb only', 5, () => range(doc())],
  ];
  const total = templates.reduce((s, [, w]) => s + w, 0);
  const seen = new Set<string>();
  const queries: unknown[] = [];
  const kinds = new Map<string, number>();
  for (let attempts = 0; queries.length < count; attempts++) {
    if (attempts > count * 50) throw new Error(`could only generate ${queries.length} distinct searches`);
    let r = random() * total;
    const [kind, , make] = templates.find(([, w]) => (r -= w) < 0) ?? templates[0];
    const q = make();
    if (q === undefined) continue;
    const key = JSON.stringify(q);
    if (seen.has(key)) continue;
    seen.add(key);
    queries.push(q);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return { queries, kinds };
}
