import { dataStreamOfBackingName } from '../engine/index.js';
import type { DocumentOp, NewChange } from './change-event.js';

/**
 * Turning acknowledged writes into changes. The type of a document is the app-addressed type the
 * gateway keeps in the document (see lib/apps), or `_doc`; that field never travels in `source`.
 */
export const TYPE_FIELD = '_gateway_type';

type Json = Record<string, unknown>;

/** What an engine answers for one document write (index, create, update, delete, bulk item). */
export interface WriteAck {
  _index?: unknown;
  _id?: unknown;
  _version?: unknown;
  _seq_no?: unknown;
  _primary_term?: unknown;
  result?: unknown;
  status?: unknown;
  get?: { _source?: unknown } | unknown;
}

const ACKED_RESULTS = new Set(['created', 'updated', 'deleted']);

/**
 * The change an acknowledged write made, or undefined when it made none (an error, a noop, a
 * delete of a missing document).
 */
export function changeOf(ack: WriteAck, op: DocumentOp, source: unknown, fallbackIndex?: string): NewChange | undefined {
  if (typeof ack.result !== 'string' || !ACKED_RESULTS.has(ack.result)) return undefined;
  const written = typeof ack._index === 'string' ? ack._index : fallbackIndex;
  // A data stream's documents change under the stream's name, the name its readers (and streams) use.
  const index = written === undefined ? undefined : dataStreamOfBackingName(written) ?? written;
  if (!index || typeof ack._id !== 'string') return undefined;
  const common = {
    kind: 'document' as const,
    index,
    id: ack._id,
    version: Number(ack._version),
    seqNo: Number(ack._seq_no),
    primaryTerm: Number(ack._primary_term),
  };
  if (op === 'delete' || ack.result === 'deleted') return { ...common, type: '_doc', op: 'delete' };
  if (!source || typeof source !== 'object' || Array.isArray(source)) return undefined;
  const effectiveOp: DocumentOp = op === 'index' && ack.result === 'created' ? 'create' : op;
  // a source without the type field is the event's as it is: a copy without it (object rest) of a
  // 10,000-field document held the event loop for tens of ms
  if (!Object.hasOwn(source, TYPE_FIELD)) return { ...common, type: '_doc', op: effectiveOp, source: source as Json };
  const { [TYPE_FIELD]: type, ...rest } = source as Json;
  return { ...common, type: typeof type === 'string' ? type : '_doc', op: effectiveOp, source: rest };
}

/** The type a stored source carries, for deletes whose type must be known from the stream side. */
export function typeOfSource(source: unknown): string {
  const t = (source as Json | undefined)?.[TYPE_FIELD];
  return typeof t === 'string' ? t : '_doc';
}
