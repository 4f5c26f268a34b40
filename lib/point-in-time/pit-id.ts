import { randomBytes } from 'node:crypto';

/**
 * The embedded engine's point-in-time id: base64url of `{"indices":[…],"key":"…"}`. The indices
 * are the concrete indices the point in time reads, so that the gateway's classifier can
 * authorize a search that names nothing but the id. The engine looks contexts up by the whole id
 * string, so an id re-encoded with other indices names no context: it cannot reach another's.
 */
export interface PitIdContent {
  indices: string[];
  key: string;
}

export function encodePitId(indices: readonly string[]): string {
  const content: PitIdContent = { indices: [...indices], key: randomBytes(18).toString('base64url') };
  return Buffer.from(JSON.stringify(content)).toString('base64url');
}

/** The indices and key of an id this engine made; undefined for anything else (another engine's id, garbage). */
export function decodePitId(id: unknown): PitIdContent | undefined {
  if (typeof id !== 'string' || id.length === 0 || id.length > 65_536 || !/^[A-Za-z0-9_-]+={0,2}$/.test(id)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(id, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { indices, key } = value as Record<string, unknown>;
  if (!Array.isArray(indices) || !indices.every((i) => typeof i === 'string' && i.length > 0) || typeof key !== 'string' || !key) return undefined;
  if (Object.keys(value).length !== 2) return undefined;
  return { indices: indices as string[], key };
}
