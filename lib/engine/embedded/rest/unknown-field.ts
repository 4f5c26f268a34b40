/** Lucene's LevenshteinDistance similarity: 1 − edits / longer length. */
function similarity(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  if (!s.length || !t.length) return s.length === t.length ? 1 : 0;
  let prev = Array.from({ length: s.length + 1 }, (_, i) => i);
  for (let j = 1; j <= t.length; j++) {
    const cur = [j];
    for (let i = 1; i <= s.length; i++) {
      cur[i] = Math.min(cur[i - 1] + 1, prev[i] + 1, prev[i - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return 1 - prev[s.length] / Math.max(s.length, t.length);
}

/**
 * The suffix ES's object parsers add to "unknown field [x]": ` did you mean [y]?` or
 * ` did you mean any of [y, z]?` for candidates more than `threshold` similar (half by default;
 * settings use 0.7), best first; '' when none.
 */
export function didYouMean(unknown: string, candidates: Iterable<string>, threshold = 0.5): string {
  const scored: Array<[number, string]> = [];
  for (const c of candidates) {
    const d = similarity(unknown, c);
    if (d > threshold) scored.push([d, c]);
  }
  if (!scored.length) return '';
  scored.sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const names = scored.map(([, c]) => c);
  return names.length === 1 ? ` did you mean [${names[0]}]?` : ` did you mean any of [${names.join(', ')}]?`;
}

/**
 * Elasticsearch's refusal of unknown URL parts (BaseRestHandler.unrecognized): `request [path]
 * contains unrecognized metric: [fieldata] -> did you mean [fielddata]?`, several joined by `, `
 * under the plural (`metrics`), each with its suggestion when a candidate is close.
 */
export function unrecognizedMessage(path: string, invalids: string[], candidates: Iterable<string>, type: string): string {
  const known = [...candidates];
  const parts = invalids.map((invalid) => {
    const hint = didYouMean(invalid, known);
    return `[${invalid}]${hint && ' ->' + hint}`;
  });
  return `request [${path}] contains unrecognized ${type}${invalids.length > 1 ? 's' : ''}: ${parts.join(', ')}`;
}
