import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { indexHealth } from './cluster.js';

/** Sizes as ES's ByteSizeValue prints them (225b, 4.5kb, 1mb). */
export function formatBytes(n: number): string {
  const units: Array<[string, number]> = [['pb', 1024 ** 5], ['tb', 1024 ** 4], ['gb', 1024 ** 3], ['mb', 1024 ** 2], ['kb', 1024]];
  for (const [u, size] of units) {
    if (n >= size) {
      const v = Math.round((n / size) * 10) / 10;
      return `${v}${u}`;
    }
  }
  return `${n}b`;
}

interface Column {
  name: string;
  aliases: string[];
  numeric: boolean;
  value(h: IndexHandle): string | number | null;
}

/** An index's store size: its sources plus a fixed overhead, as `_cat/indices` and `_stats` report it. */
export function bytesOf(h: IndexHandle): number {
  return h.storeBytes + 225;
}

const COLUMNS: Column[] = [
  { name: 'health', aliases: ['h'], numeric: false, value: (h) => indexHealth(h) },
  { name: 'status', aliases: ['s'], numeric: false, value: (h) => h.meta.state },
  { name: 'index', aliases: ['i', 'idx'], numeric: false, value: (h) => h.name },
  { name: 'uuid', aliases: ['id', 'uuid'], numeric: false, value: (h) => h.uuid },
  { name: 'pri', aliases: ['p', 'shards.primary', 'shardsPrimary'], numeric: true, value: (h) => Number(h.meta.settings['index.number_of_shards'] ?? '1') },
  { name: 'rep', aliases: ['r', 'shards.replica', 'shardsReplica'], numeric: true, value: (h) => Number(h.meta.settings['index.number_of_replicas'] ?? '1') },
  { name: 'docs.count', aliases: ['dc', 'docsCount'], numeric: true, value: (h) => (h.isOpen ? h.docCount : null) },
  { name: 'docs.deleted', aliases: ['dd', 'docsDeleted'], numeric: true, value: (h) => (h.isOpen ? 0 : null) },
  { name: 'store.size', aliases: ['ss', 'storeSize'], numeric: true, value: (h) => (h.isOpen ? bytesOf(h) : null) },
  { name: 'pri.store.size', aliases: [], numeric: true, value: (h) => (h.isOpen ? bytesOf(h) : null) },
  { name: 'dataset.size', aliases: [], numeric: true, value: (h) => (h.isOpen ? bytesOf(h) : null) },
  { name: 'creation.date', aliases: ['cd'], numeric: true, value: (h) => h.meta.creationDate },
  { name: 'creation.date.string', aliases: ['cds'], numeric: false, value: (h) => new Date(h.meta.creationDate).toISOString() },
];
const DEFAULT_COLUMNS = ['health', 'status', 'index', 'uuid', 'pri', 'rep', 'docs.count', 'docs.deleted', 'store.size', 'pri.store.size', 'dataset.size'];
const SIZE_COLUMNS = new Set(['store.size', 'pri.store.size', 'dataset.size']);

function findColumn(name: string): Column {
  const c = COLUMNS.find((c) => c.name === name || c.aliases.includes(name));
  if (!c) throw new EsError(400, 'illegal_argument_exception', `Unable to find column [${name}]`);
  return c;
}

function catIndices(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = ctx.indices.resolve(req.pathParams.index, {
    expandWildcards: req.params.get('expand_wildcards') ?? undefined,
    defaultStates: { open: true, closed: true, hidden: false },
  });
  const columns = (req.params.get('h')?.split(',').map((s) => s.trim()).filter(Boolean) ?? DEFAULT_COLUMNS).map(findColumn);
  const bytesUnit = req.params.get('bytes');
  const render = (c: Column, h: IndexHandle): string => {
    const v = c.value(h);
    if (v === null) return '';
    if (SIZE_COLUMNS.has(c.name)) {
      const n = v as number;
      if (bytesUnit === 'b') return String(n);
      if (bytesUnit === 'kb') return String(Math.floor(n / 1024));
      if (bytesUnit === 'mb') return String(Math.floor(n / 1024 ** 2));
      return formatBytes(n);
    }
    return String(v);
  };
  let rows = handles.filter((h) => {
    const health = req.params.get('health');
    return health === null || indexHealth(h) === health;
  });
  const sort = req.params.get('s');
  if (sort) {
    const keys = sort.split(',').map((k) => {
      const [name, dir] = k.split(':');
      return { col: findColumn(name), desc: dir === 'desc' };
    });
    rows = rows.sort((a, b) => {
      for (const { col, desc } of keys) {
        const va = col.value(a);
        const vb = col.value(b);
        const cmp = va === vb ? 0 : va === null ? -1 : vb === null ? 1 : va < vb ? -1 : 1;
        if (cmp) return desc ? -cmp : cmp;
      }
      return 0;
    });
  }
  const format = req.params.get('format');
  if (format === 'json') {
    return { status: 200, body: rows.map((h) => Object.fromEntries(columns.map((c) => [c.name, c.value(h) === null ? null : render(c, h)]))) };
  }
  if (format !== null && format !== 'text' && format !== 'txt') {
    throw new EsError(400, 'illegal_argument_exception', `Unsupported format [${format}]`);
  }
  const table = rows.map((h) => columns.map((c) => render(c, h)));
  const verbose = req.params.get('v') === '' || req.params.get('v') === 'true';
  if (verbose) table.unshift(columns.map((c) => c.name));
  const widths = columns.map((_, i) => Math.max(0, ...table.map((r) => r[i].length)));
  const lines = table.map((r, rowIndex) =>
    r
      .map((cell, i) => (columns[i].numeric && !(verbose && rowIndex === 0) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join(' ')
      .trimEnd(),
  );
  return { status: 200, text: lines.map((l) => l + '\n').join('') };
}

const CAT_PARAMS = ['v', 'h', 's', 'help', 'bytes', 'health', 'pri', 'local', 'master_timeout', 'expand_wildcards', 'include_unloaded_segments', 'time'];

export const catRoutes: Route[] = [
  { methods: ['GET'], pattern: '/_cat/indices', params: CAT_PARAMS, handler: catIndices },
  { methods: ['GET'], pattern: '/_cat/indices/{index}', params: CAT_PARAMS, handler: catIndices },
];
