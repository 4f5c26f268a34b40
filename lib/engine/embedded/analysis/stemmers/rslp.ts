/**
 * Lucene's RSLP stemmers, ported: the rule-file reader and step engine of RSLPStemmerBase, and the
 * stemmers built on it — PortugueseStemmer (`portuguese_rslp`), PortugueseMinimalStemmer
 * (`minimal_portuguese`: the plural step), GalicianStemmer (`galician`) and
 * GalicianMinimalStemmer (`minimal_galician`).
 *
 * A step applies to a word of at least its minimum length that ends with one of its endings (when
 * it names some): its first matching rule replaces the rule's suffix, when the stem left is long
 * enough and the word is not an exception (type 1: whole words; type 0: word endings).
 */
import { bufferStemmer, endsWith, foldTable, mapUnits } from './chars.js';
import { GALICIAN_RSLP, PORTUGUESE_RSLP } from './rslp-rules.js';

interface Rule {
  suffix: string;
  min: number;
  replacement: string;
  /** Whole words (type 1) or word endings (type 0) the rule does not apply to. */
  exceptions?: { words?: ReadonlySet<string>; endings?: readonly string[] };
}

interface Step {
  min: number;
  endings: readonly string[] | null;
  rules: readonly Rule[];
}

function ruleMatches(rule: Rule, s: string[], len: number): boolean {
  if (!(len - rule.suffix.length >= rule.min && endsWith(s, len, rule.suffix))) return false;
  const exc = rule.exceptions;
  if (exc?.words && exc.words.has(s.slice(0, len).join(''))) return false;
  if (exc?.endings && exc.endings.some((e) => endsWith(s, len, e))) return false;
  return true;
}

function applyStep(step: Step, s: string[], len: number): number {
  if (len < step.min) return len;
  if (step.endings && !step.endings.some((e) => endsWith(s, len, e))) return len;
  for (const rule of step.rules) {
    if (ruleMatches(rule, s, len)) {
      const at = len - rule.suffix.length;
      for (let i = 0; i < rule.replacement.length; i++) s[at + i] = rule.replacement[i];
      return at + rule.replacement.length;
    }
  }
  return len;
}

const HEADER = /^\{\s*"([^"]*)",\s*([0-9]+),\s*(0|1),\s*\{(.*)\},\s*$/;
const STRIP = /^\{\s*"([^"]*)",\s*([0-9]+)\s*\}\s*(,|(\}\s*;))$/;
const REPLACE = /^\{\s*"([^"]*)",\s*([0-9]+),\s*"([^"]*)"\}\s*(,|(\}\s*;))$/;
const EXCEPT = /^\{\s*"([^"]*)",\s*([0-9]+),\s*"([^"]*)",\s*\{(.*)\}\s*\}\s*(,|(\}\s*;))$/;

function parseList(s: string): string[] | null {
  if (s.length === 0) return null;
  return s.split(',').map((item) => item.trim().slice(1, -1));
}

/** Reads a rule file (comment lines already removed) into its steps by name. */
function parseRules(text: string): Map<string, Step> {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0 && !l.startsWith('#'));
  const steps = new Map<string, Step>();
  let i = 0;
  while (i < lines.length) {
    const header = HEADER.exec(lines[i++]);
    if (!header) throw new Error(`Illegal Step header at line ${i}`);
    const type = Number(header[3]);
    const rules: Rule[] = [];
    for (;;) {
      const line = lines[i++];
      if (line === undefined) throw new Error('Unterminated step');
      let m: RegExpExecArray | null;
      if ((m = STRIP.exec(line))) rules.push({ suffix: m[1], min: Number(m[2]), replacement: '' });
      else if ((m = REPLACE.exec(line))) rules.push({ suffix: m[1], min: Number(m[2]), replacement: m[3] });
      else if ((m = EXCEPT.exec(line))) {
        const list = parseList(m[4]) ?? [];
        rules.push({ suffix: m[1], min: Number(m[2]), replacement: m[3], exceptions: type === 0 ? { endings: list } : { words: new Set(list) } });
      } else throw new Error(`Illegal Step rule at line ${i}`);
      if (line.endsWith(';')) break;
    }
    steps.set(header[1], { min: Number(header[2]), endings: parseList(header[4]), rules });
  }
  return steps;
}

let portuguese: Map<string, Step> | undefined;
let galician: Map<string, Step> | undefined;
const portugueseSteps = () => (portuguese ??= parseRules(PORTUGUESE_RSLP));
const galicianSteps = () => (galician ??= parseRules(GALICIAN_RSLP));
const step = (steps: Map<string, Step>, name: string) => steps.get(name)!;

const PORTUGUESE_ACCENTS = foldTable({ a: 'àáâãäå', c: 'ç', e: 'èéêë', i: 'ìíîï', n: 'ñ', o: 'òóôõö', u: 'ùúûü', y: 'ýÿ' });
const GALICIAN_ACCENTS = foldTable({ a: 'á', e: 'éê', i: 'í', o: 'ó', u: 'ú' });

function portugueseStem(s: string[], len: number): number {
  const steps = portugueseSteps();
  len = applyStep(step(steps, 'Plural'), s, len);
  len = applyStep(step(steps, 'Adverb'), s, len);
  len = applyStep(step(steps, 'Feminine'), s, len);
  len = applyStep(step(steps, 'Augmentative'), s, len);
  let old = len;
  len = applyStep(step(steps, 'Noun'), s, len);
  if (len === old) {
    old = len;
    len = applyStep(step(steps, 'Verb'), s, len);
    if (len === old) len = applyStep(step(steps, 'Vowel'), s, len);
  }
  mapUnits(s, len, PORTUGUESE_ACCENTS);
  return len;
}

function galicianStem(s: string[], len: number): number {
  const steps = galicianSteps();
  len = applyStep(step(steps, 'Plural'), s, len);
  len = applyStep(step(steps, 'Unification'), s, len);
  len = applyStep(step(steps, 'Adverb'), s, len);
  let old: number;
  do {
    old = len;
    len = applyStep(step(steps, 'Augmentative'), s, len);
  } while (len !== old);
  old = len;
  len = applyStep(step(steps, 'Noun'), s, len);
  if (len === old) len = applyStep(step(steps, 'Verb'), s, len);
  len = applyStep(step(steps, 'Vowel'), s, len);
  mapUnits(s, len, GALICIAN_ACCENTS);
  return len;
}

export const portugueseRslpStem = bufferStemmer(portugueseStem);
export const portugueseMinimalStem = bufferStemmer((s, len) => applyStep(step(portugueseSteps(), 'Plural'), s, len));
export const galicianRslpStem = bufferStemmer(galicianStem);
export const galicianMinimalStem = bufferStemmer((s, len) => applyStep(step(galicianSteps(), 'Plural'), s, len));
