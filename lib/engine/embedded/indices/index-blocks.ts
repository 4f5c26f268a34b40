import { EsError } from '../../../errors/index.js';
import type { FlatSettings } from '../store/index.js';

/** What an operation does to an index, as Elasticsearch's block levels name it. */
export type BlockLevel = 'read' | 'write' | 'metadata_read' | 'metadata_write';

/** Elasticsearch's index blocks (IndexMetadata.INDEX_*_BLOCK): id, description, levels, status. */
interface IndexBlock {
  setting: string;
  id: number;
  description: string;
  levels: BlockLevel[];
  retryable: boolean;
  status: 403 | 429;
}

const BLOCKS: IndexBlock[] = [
  { setting: 'index.blocks.read_only', id: 5, description: 'index read-only (api)', levels: ['write', 'metadata_write'], retryable: false, status: 403 },
  { setting: 'index.blocks.read', id: 7, description: 'index read (api)', levels: ['read'], retryable: false, status: 403 },
  { setting: 'index.blocks.write', id: 8, description: 'index write (api)', levels: ['write'], retryable: false, status: 403 },
  { setting: 'index.blocks.metadata', id: 9, description: 'index metadata (api)', levels: ['metadata_read', 'metadata_write'], retryable: false, status: 403 },
  {
    setting: 'index.blocks.read_only_allow_delete', id: 12, description: 'disk usage exceeded flood-stage watermark, index has read-only-allow-delete block',
    levels: ['write', 'metadata_write'], retryable: true, status: 429,
  },
];

/** The block a closed index has (IndexMetadata.INDEX_CLOSED_BLOCK), for the cluster state. */
const CLOSED_BLOCK = { id: 4, description: 'index closed', retryable: false, levels: ['read', 'write'] };

const isOn = (settings: FlatSettings, key: string) => String(settings[key] ?? 'false') === 'true';

/** The `add_block` names and the settings they set. */
export const BLOCK_SETTINGS: Record<string, string> = {
  metadata: 'index.blocks.metadata',
  read: 'index.blocks.read',
  read_only: 'index.blocks.read_only',
  write: 'index.blocks.write',
};

const ACTIVE = new WeakMap<FlatSettings, IndexBlock[]>();

/** The blocks an index's settings set, read once per settings object (they are replaced, never changed in place): every write asks. */
function activeBlocks(settings: FlatSettings): IndexBlock[] {
  let active = ACTIVE.get(settings);
  if (!active) {
    active = BLOCKS.filter((b) => isOn(settings, b.setting));
    ACTIVE.set(settings, active);
  }
  return active;
}

/** Whether the settings block operations at `level`. */
export function isBlocked(settings: FlatSettings, level: BlockLevel): boolean {
  return activeBlocks(settings).some((b) => b.levels.includes(level));
}

/**
 * Refuses an operation at `level` on an index whose settings set a block at that level, with
 * Elasticsearch's cluster_block_exception (403; 429 when every block is retryable).
 */
export function checkIndexBlocks(name: string, settings: FlatSettings, level: BlockLevel): void {
  const all = activeBlocks(settings);
  if (!all.length) return;
  const active = all.filter((b) => b.levels.includes(level));
  if (!active.length) return;
  const status = active.every((b) => b.retryable) ? 429 : 403;
  const listed = active.map((b) => `${b.status === 429 ? 'TOO_MANY_REQUESTS' : 'FORBIDDEN'}/${b.id}/${b.description}`).join(', ');
  throw new EsError(status, 'cluster_block_exception', `index [${name}] blocked by: [${listed}];`);
}

/** A settings update that only sets or clears blocks passes a metadata-write block (ES lets a block be lifted). */
export function onlyBlockSettings(update: Record<string, unknown>): boolean {
  return Object.keys(update).every((k) => k.startsWith('index.blocks.'));
}

/** The cluster state's `blocks.indices.{name}`: the index's blocks by id. */
export function blocksView(settings: FlatSettings, open: boolean): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  if (!open) out[CLOSED_BLOCK.id] = { description: CLOSED_BLOCK.description, retryable: false, levels: CLOSED_BLOCK.levels };
  for (const b of activeBlocks(settings)) out[b.id] = { description: b.description, retryable: b.retryable, levels: b.levels };
  return Object.keys(out).length ? out : undefined;
}
