/**
 * The reroute processor (reference: "Reroute processor"): the document goes to `destination`, or —
 * in data stream mode — to `<type>-<dataset>-<namespace>`, its dataset and namespace the first of
 * their field references (`{{field}}`) holding a string, or static values, else the current
 * data stream's own. The pipeline that rerouted, and every pipeline that called it, run no
 * further processor (the write path then runs the new target's pipelines, run-pipelines.ts).
 */
import type { IngestDocument } from '../ingest-document.js';
import { illegalArgument } from '../ingest-document.js';
import type { ProcessorFactory } from '../processor.js';

const DISALLOWED_IN_NAMESPACE = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ',', '#', ':'];
const DISALLOWED_IN_DATASET = [...DISALLOWED_IN_NAMESPACE, '-'];
const MAX_LENGTH = 100;

/** A data stream name part as RerouteProcessor writes it: lower case, at most 100 characters, the disallowed ones as `_`. */
function sanitized(value: string, disallowed: readonly string[]): string {
  let s = value.toLowerCase().slice(0, MAX_LENGTH);
  for (const c of disallowed) s = s.split(c).join('_');
  return s;
}

/** One value of `dataset` or `namespace`: a field reference (`{{field}}`, `{{{field}}}`) or a static value. */
type ValueSource = (doc: IngestDocument) => string | undefined;

function valueSource(value: string, disallowed: readonly string[]): ValueSource {
  if (!value.includes('{{') && !value.includes('}}')) {
    if (sanitized(value, disallowed) !== value) throw illegalArgument(`'${value}' contains disallowed characters`);
    return () => value;
  }
  if (!value.startsWith('{{') || !value.endsWith('}}')) throw illegalArgument(`'${value}' is not a valid field reference`);
  let field = value.slice(2, -2);
  if (field.startsWith('{') && field.endsWith('}')) field = field.slice(1, -1);
  if (field.includes('{') || field.includes('}')) throw illegalArgument(`'${value}' is not a valid field reference`);
  return (doc) => {
    const v = doc.get(field, true);
    return typeof v === 'string' ? sanitized(v, disallowed) : undefined;
  };
}

export const reroute: ProcessorFactory = (config) => {
  const sources = (name: string, disallowed: readonly string[]): ValueSource[] => {
    const raw = config.take(name);
    if (raw === undefined || raw === null) return [];
    const list = Array.isArray(raw) ? raw : [raw];
    try {
      return list.map((v) => valueSource(String(v), disallowed));
    } catch (e) {
      throw config.error(name, (e as Error).message);
    }
  };
  const dataset = sources('dataset', DISALLOWED_IN_DATASET);
  const namespace = sources('namespace', DISALLOWED_IN_NAMESPACE);
  const destination = config.optionalString('destination');
  if (destination !== undefined) {
    if (dataset.length > 0 || namespace.length > 0) throw config.error('destination', 'can only be set if dataset and namespace are not set');
    return (doc) => {
      doc.reroute(destination);
    };
  }
  if (dataset.length === 0) dataset.push(valueSource('{{data_stream.dataset}}', DISALLOWED_IN_DATASET));
  if (namespace.length === 0) namespace.push(valueSource('{{data_stream.namespace}}', DISALLOWED_IN_NAMESPACE));
  return (doc) => {
    const index = String(doc.metadata._index);
    const first = index.indexOf('-');
    const second = first < 0 ? -1 : index.indexOf('-', first + 1);
    if (second < 0) throw illegalArgument(`invalid data stream name: [${index}]; must follow naming scheme <type>-<dataset>-<namespace>`);
    const type = index.slice(0, first);
    const resolve = (from: ValueSource[], fallback: string) => {
      for (const source of from) {
        const v = source(doc);
        if (v !== undefined) return v;
      }
      return fallback;
    };
    const ds = resolve(dataset, index.slice(first + 1, second));
    const ns = resolve(namespace, index.slice(second + 1));
    doc.reroute(`${type}-${ds}-${ns}`);
    doc.set('data_stream.type', type);
    doc.set('data_stream.dataset', ds);
    doc.set('data_stream.namespace', ns);
    // ECS: event.dataset has the value of data_stream.dataset
    if (doc.has('event.dataset')) doc.set('event.dataset', ds);
  };
};
