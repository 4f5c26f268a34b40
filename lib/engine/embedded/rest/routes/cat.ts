import { EsError } from '../../../../errors/index.js';
import type { IndexHandle } from '../../indices/index.js';
import type { AliasDefinition } from '../../store/types.js';
import { simpleMatch } from '../../../../wildcard/index.js';
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

interface Column<Row = IndexHandle> {
  name: string;
  aliases: string[];
  numeric: boolean;
  value(row: Row): string | number | null;
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

function findColumn<Row>(columns: Column<Row>[], name: string): Column<Row> {
  const c = columns.find((c) => c.name === name || c.aliases.includes(name));
  if (!c) throw new EsError(400, 'illegal_argument_exception', `Unable to find column [${name}]`);
  return c;
}

/**
 * A `_cat` answer: the columns `h` asks for (or the defaults), rows sorted by `s`, as a text
 * table (`v` for the header row; numbers right-aligned) or as JSON (`format=json`).
 */
function catTable<Row>(req: RestRequest, all: Column<Row>[], defaults: string[], rows: Row[], render: (c: Column<Row>, row: Row) => string = (c, row) => String(c.value(row) ?? '')): RestResponse {
  const columns = (req.params.get('h')?.split(',').map((s) => s.trim()).filter(Boolean) ?? defaults).map((n) => findColumn(all, n));
  const sort = req.params.get('s');
  if (sort) {
    const keys = sort.split(',').map((k) => {
      const [name, dir] = k.split(':');
      return { col: findColumn(all, name), desc: dir === 'desc' };
    });
    rows = [...rows].sort((a, b) => {
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
    return { status: 200, body: rows.map((row) => Object.fromEntries(columns.map((c) => [c.name, c.value(row) === null ? null : render(c, row)]))) };
  }
  if (format !== null && format !== 'text' && format !== 'txt') {
    throw new EsError(400, 'illegal_argument_exception', `Unsupported format [${format}]`);
  }
  const table = rows.map((row) => columns.map((c) => render(c, row)));
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

function catIndices(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = ctx.indices.resolve(req.pathParams.index, {
    expandWildcards: req.params.get('expand_wildcards') ?? undefined,
    defaultStates: { open: true, closed: true, hidden: false },
  });
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
  const health = req.params.get('health');
  const rows = handles.filter((h) => health === null || indexHealth(h) === health);
  return catTable(req, COLUMNS, DEFAULT_COLUMNS, rows, render);
}

interface AliasRow {
  alias: string;
  index: string;
  definition: AliasDefinition;
}

const ALIAS_COLUMNS: Column<AliasRow>[] = [
  { name: 'alias', aliases: ['a'], numeric: false, value: (r) => r.alias },
  { name: 'index', aliases: ['i', 'idx'], numeric: false, value: (r) => r.index },
  { name: 'filter', aliases: ['f', 'fi'], numeric: false, value: (r) => (r.definition.filter === undefined ? '-' : '*') },
  { name: 'routing.index', aliases: ['ri', 'routingIndex'], numeric: false, value: (r) => r.definition.index_routing ?? '-' },
  { name: 'routing.search', aliases: ['rs', 'routingSearch'], numeric: false, value: (r) => r.definition.search_routing ?? '-' },
  { name: 'is_write_index', aliases: ['w', 'isWriteIndex'], numeric: false, value: (r) => (r.definition.is_write_index === undefined ? '-' : String(r.definition.is_write_index)) },
];

/** `_cat/aliases[/{name}]`: one row per alias and index, for the aliases named (patterns) or all. */
function catAliases(req: RestRequest, ctx: EngineContext): RestResponse {
  const patterns = (req.pathParams.name ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  const rows: AliasRow[] = [];
  for (const h of ctx.indices.all()) {
    for (const [alias, definition] of Object.entries(h.meta.aliases)) {
      if (!patterns.length || patterns.some((p) => p === '_all' || simpleMatch(p, alias))) rows.push({ alias, index: h.name, definition });
    }
  }
  rows.sort((a, b) => (a.alias === b.alias ? (a.index < b.index ? -1 : 1) : a.alias < b.alias ? -1 : 1));
  return catTable(req, ALIAS_COLUMNS, ALIAS_COLUMNS.map((c) => c.name), rows);
}

interface CountRow {
  at: number;
  count: number;
}

const COUNT_COLUMNS: Column<CountRow>[] = [
  { name: 'epoch', aliases: ['t', 'time'], numeric: true, value: (r) => Math.floor(r.at / 1000) },
  { name: 'timestamp', aliases: ['ts', 'hms', 'hhmmss'], numeric: false, value: (r) => new Date(r.at).toISOString().slice(11, 19) },
  { name: 'count', aliases: ['dc', 'docs.count', 'docsCount'], numeric: true, value: (r) => r.count },
];

/** `_cat/count[/{index}]`: the documents of the open indices named (or all), as one row. */
function catCount(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = ctx.indices.resolve(req.pathParams.index, { defaultStates: { open: true, closed: false, hidden: false } });
  const count = handles.reduce((n, h) => n + (h.isOpen ? h.docCount : 0), 0);
  return catTable(req, COUNT_COLUMNS, COUNT_COLUMNS.map((c) => c.name), [{ at: Date.now(), count }]);
}

const CAT_PARAMS = ['v', 'h', 's', 'help', 'bytes', 'health', 'pri', 'local', 'master_timeout', 'expand_wildcards', 'include_unloaded_segments', 'time'];

export const catRoutes: Route[] = [
  { methods: ['GET'], pattern: '/_cat/indices', params: CAT_PARAMS, handler: catIndices },
  { methods: ['GET'], pattern: '/_cat/indices/{index}', params: CAT_PARAMS, handler: catIndices },
  { methods: ['GET'], pattern: '/_cat/aliases', params: CAT_PARAMS, handler: catAliases },
  { methods: ['GET'], pattern: '/_cat/aliases/{name}', params: CAT_PARAMS, handler: catAliases },
  { methods: ['GET'], pattern: '/_cat/count', params: CAT_PARAMS, handler: catCount },
  { methods: ['GET'], pattern: '/_cat/count/{index}', params: CAT_PARAMS, handler: catCount },
];
