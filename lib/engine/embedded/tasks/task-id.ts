import { EsError } from '../../../errors/index.js';

/** A task's id as Elasticsearch writes it: `<node id>:<number>`. */
export interface TaskId {
  node: string;
  id: number;
}

/** Parses `node:number` with Elasticsearch's TaskId messages (`-1` stands for "no task"). */
export function parseTaskId(text: string): TaskId | undefined {
  if (text === '-1' || text === '') return undefined;
  const at = text.lastIndexOf(':');
  if (at <= 0 || at === text.length - 1) throw new EsError(400, 'illegal_argument_exception', `malformed task id ${text}`);
  const n = text.slice(at + 1);
  if (!/^-?\d+$/.test(n)) throw new EsError(400, 'illegal_argument_exception', `malformed task id ${text}`);
  return { node: text.slice(0, at), id: Number(n) };
}

export function formatTaskId(t: TaskId): string {
  return `${t.node}:${t.id}`;
}
