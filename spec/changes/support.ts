import { within } from '../support/within.js';
import type { Subscription } from 'rxjs';
import type { ChangeBus, ChangeEvent, NewChange } from '../../lib/changes/index.js';

/** What one subscriber of `changes(index)` has seen so far. */
export interface Recorder {
  readonly events: ChangeEvent[];
  readonly error: unknown;
  readonly completed: boolean;
  readonly subscription: Subscription;
  /** Waits until `n` events arrived (or throws with what did arrive). */
  until(n: number, ms?: number): Promise<ChangeEvent[]>;
}

export function record(bus: ChangeBus, index: string): Recorder {
  const events: ChangeEvent[] = [];
  let error: unknown;
  let completed = false;
  const subscription = bus.changes(index).subscribe({
    next: (event) => events.push(event),
    error: (err) => (error = err),
    complete: () => (completed = true),
  });
  return {
    events,
    subscription,
    get error() {
      return error;
    },
    get completed() {
      return completed;
    },
    async until(n, ms = 5_000) {
      await eventually(() => events.length >= n || error !== undefined, ms, () => `expected ${n} events on [${index}], got ${events.length}`);
      return events;
    },
  };
}

/** Subscribes and waits until the node's channel is live, as a stream does before its initial read. */
export async function recordLive(bus: ChangeBus, index: string): Promise<Recorder> {
  const recorder = record(bus, index);
  await bus.subscribed(index);
  return recorder;
}

export async function eventually(check: () => boolean | Promise<boolean>, ms = 5_000, what = () => 'condition'): Promise<void> {
  await within(ms, check, what);
}

export function docChange(index: string, id: string, version: number, source: Record<string, unknown> = { n: version }): NewChange {
  return { kind: 'document', index, type: '_doc', id, op: version === 1 ? 'create' : 'index', version, seqNo: version - 1, primaryTerm: 1, source };
}

let counter = 0;
/** A fresh index name per test, so tests sharing one Redis never see each other's events. */
export function uniqueIndex(prefix = 'changes'): string {
  return `${prefix}-${process.pid}-${++counter}`;
}
