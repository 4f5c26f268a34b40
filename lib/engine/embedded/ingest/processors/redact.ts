/**
 * The redact processor (reference: "Redact processor"): every text of the field that one of the
 * grok `patterns` matches is replaced with `prefix` + the pattern's capture name + `suffix`
 * (`<EMAIL>`); matches of several patterns that overlap are redacted once, as one region.
 */
import { MAX_GROK_MATCH_COST, type Grok } from '../grok/grok.js';
import { illegalArgument, javaType } from '../ingest-document.js';
import type { ProcessorFactory } from '../processor.js';
import { compileGrokPatterns } from './grok-processor.js';

interface Region {
  start: number;
  end: number;
  name: string;
}

export const redact: ProcessorFactory = (config) => {
  const field = config.requiredString('field');
  const patterns = config.requiredList('patterns').map(String);
  if (patterns.length === 0) throw config.error('patterns', 'List of patterns must not be empty');
  const definitions = config.optionalMap('pattern_definitions') ?? {};
  const prefix = config.optionalString('prefix', '<')!;
  const suffix = config.optionalString('suffix', '>')!;
  const ignoreMissing = config.boolean('ignore_missing', true);
  // the embedded engine has no license to check: the processor always runs
  config.boolean('skip_if_unlicensed', false);
  const traceRedact = config.boolean('trace_redact', false);
  const compiled = compileGrokPatterns(config, patterns, definitions);
  for (let i = 0; i < compiled.length; i++) {
    if (compiled[i].captures.length === 0) throw config.error('patterns', `Pattern [${patterns[i]}] does not contain a named capture`);
  }
  return (doc) => {
    const value = doc.get(field, true);
    if (value === undefined || value === null) {
      if (ignoreMissing) return;
      throw illegalArgument(`field [${field}] is null or missing`);
    }
    if (typeof value !== 'string') throw illegalArgument(`field [${field}] of type [${javaType(value)}] cannot be cast to [java.lang.String]`);
    const regions = compiled.flatMap((grok) => matchedRegions(grok, value));
    if (traceRedact) doc.ingest._redact = { _is_redacted: regions.length > 0 };
    if (regions.length === 0) return;
    doc.set(field, redacted(value, regions, prefix, suffix));
  };
};

/** Every region of `text` the grok's first capture covers, matching again after each match. */
function matchedRegions(grok: Grok, text: string): Region[] {
  const cost = text.length * grok.costPerChar;
  if (cost > MAX_GROK_MATCH_COST) {
    throw illegalArgument(`redaction was refused: a field of [${text.length}] characters would cost [${cost}], more than [${MAX_GROK_MATCH_COST}] (about ingest.grok.watchdog.max_execution_time, [1s])`);
  }
  const capture = grok.captures[0];
  const group = grok.regex.namedGroups()[capture.group];
  const out: Region[] = [];
  const m = grok.regex.matcher(text);
  while (m.find()) {
    const start = m.start(group);
    if (start >= 0) out.push({ start, end: m.end(group), name: capture.field });
  }
  return out;
}

/** `text` with each region (overlapping ones merged, the first's name kept) replaced by its token. */
function redacted(text: string, regions: Region[], prefix: string, suffix: string): string {
  regions.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  let current: Region | undefined;
  for (const r of regions) {
    if (current && r.start < current.end) {
      current.end = Math.max(current.end, r.end);
      continue;
    }
    if (current) {
      out += prefix + current.name + suffix;
      at = current.end;
    }
    out += text.slice(at, r.start);
    current = { ...r };
  }
  if (current) {
    out += prefix + current.name + suffix;
    at = current.end;
  }
  return out + text.slice(at);
}
