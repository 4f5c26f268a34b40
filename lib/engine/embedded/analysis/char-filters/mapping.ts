/**
 * `mapping` char filter (Lucene MappingCharFilter): replaces the longest key matching at each
 * position with its value, left to right, correcting offsets back to the input.
 */
import { illegalArgument, listSetting, type Definition } from '../settings.js';
import type { CharFilter, FilteredText } from '../types.js';
import { OffsetCorrection } from './offset-correction.js';

interface TrieNode {
  next: Map<number, TrieNode>;
  output?: string;
}

export class MappingCharFilter implements CharFilter {
  readonly normalizing = true;
  private readonly root: TrieNode = { next: new Map() };

  constructor(mappings: ReadonlyArray<readonly [string, string]>) {
    for (const [from, to] of mappings) {
      if (from.length === 0) throw illegalArgument('cannot match the empty string');
      let node = this.root;
      for (let i = 0; i < from.length; i++) {
        const c = from.charCodeAt(i);
        let child = node.next.get(c);
        if (!child) node.next.set(c, (child = { next: new Map() }));
        node = child;
      }
      if (node.output !== undefined) throw illegalArgument(`match "${from}" was already added`);
      node.output = to;
    }
  }

  apply(text: string): FilteredText {
    const correction = new OffsetCorrection();
    let out = '';
    let copyFrom = 0;
    const n = text.length;
    for (let i = 0; i < n; ) {
      let node = this.root.next.get(text.charCodeAt(i));
      if (!node) {
        i++;
        continue;
      }
      let matchLength = 0;
      let output = '';
      for (let j = i + 1; ; j++) {
        if (node.output !== undefined) {
          matchLength = j - i;
          output = node.output;
        }
        if (j >= n) break;
        const child: TrieNode | undefined = node.next.get(text.charCodeAt(j));
        if (!child) break;
        node = child;
      }
      if (matchLength === 0) {
        i++;
        continue;
      }
      out += text.slice(copyFrom, i) + output;
      i += matchLength;
      copyFrom = i;
      correction.replaced(i, matchLength, output.length);
    }
    if (copyFrom === 0) return { text, correct: (o) => o };
    out += text.slice(copyFrom);
    return { text: out, correct: (o) => correction.correct(o) };
  }
}

/** ES's rule syntax "key => value", with \\n \\t \\uXXXX escapes. */
export function parseMappingRule(rule: string): [string, string] {
  const m = /^(.*?)\s*=>\s*(.*?)\s*$/su.exec(rule);
  if (!m || m[1].trim().length === 0) throw illegalArgument(`Invalid Mapping Rule : [${rule}]`);
  return [unescapeRule(m[1].trim()), unescapeRule(m[2])];
}

function unescapeRule(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, e: string) => {
    if (e.length === 5) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e;
  });
}

export function mappingFromDefinition(def: Definition): MappingCharFilter {
  if (def.mappings_path !== undefined) throw illegalArgument('mappings_path is not supported by this engine');
  const rules = listSetting(def, 'mappings', false);
  if (!rules) throw illegalArgument('mapping requires either `mappings` or `mappings_path` to be configured');
  return new MappingCharFilter(rules.map(parseMappingRule));
}
