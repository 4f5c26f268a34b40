import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Binary snapshots of the in-memory index: a JSON header plus the typed-array columns, so that a
 * restart loads the index instead of re-analysing every document. The header refers to column i
 * as `{ "$b": i }`. Layout: magic, header length (u32 LE), header, then each column 8-byte aligned.
 * The header carries the code version it was written by; another version's snapshot is not read.
 */
const MAGIC = Buffer.from('SGIDX01\n');

let version: string | undefined;

/**
 * The version of the engine code that writes and reads snapshots: a hash of the engine's own
 * compiled files (everything that decides what the index holds: mapping, analysis, the index
 * structures), computed once per process. Any change to the code — an upgrade, a rebuild with an
 * edit — makes older snapshots unreadable, so they are rebuilt from the store instead of loaded
 * with a layout or analysis that no longer matches.
 */
export function codeVersion(): string {
  if (version !== undefined) return version;
  const hash = createHash('sha256');
  try {
    const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (/\.[cm]?[jt]s$/.test(e.name) && !e.name.endsWith('.d.ts')) files.push(full);
      }
    };
    walk(root);
    files.sort();
    for (const f of files) {
      hash.update(path.relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
    }
  } catch {
    // Unreadable tree (a bundle): a version that never matches, so snapshots are never trusted.
    hash.update(`unversioned:${process.pid}:${Date.now()}:${Math.random()}`);
  }
  version = hash.digest('hex').slice(0, 32);
  return version;
}

type Column = Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Float64Array<ArrayBuffer> | BigInt64Array<ArrayBuffer>;
const KINDS = { i32: Int32Array, u8: Uint8Array, f64: Float64Array, i64: BigInt64Array } as const;
type ColumnKind = keyof typeof KINDS;

export interface ColumnRef {
  $b: number;
}

export class SnapshotWriter {
  private readonly columns: Column[] = [];

  column(a: Column): ColumnRef {
    this.columns.push(a);
    return { $b: this.columns.length - 1 };
  }

  /** The file bytes for a header (which refers to the columns added so far). */
  toBuffers(header: unknown): Buffer[] {
    const layout: Array<[ColumnKind, number, number]> = [];
    let offset = 0;
    for (const c of this.columns) {
      const kind: ColumnKind = c instanceof Int32Array ? 'i32' : c instanceof Float64Array ? 'f64' : c instanceof BigInt64Array ? 'i64' : 'u8';
      layout.push([kind, offset, c.length]);
      offset += (c.byteLength + 7) & ~7;
    }
    const head = Buffer.from(JSON.stringify({ version: codeVersion(), layout, header }));
    const len = Buffer.alloc(4);
    len.writeUInt32LE(head.length);
    const pre = MAGIC.length + 4 + head.length;
    const out: Buffer[] = [MAGIC, len, head, Buffer.alloc(((pre + 7) & ~7) - pre)];
    for (const c of this.columns) {
      out.push(Buffer.from(c.buffer, c.byteOffset, c.byteLength));
      const pad = ((c.byteLength + 7) & ~7) - c.byteLength;
      if (pad) out.push(Buffer.alloc(pad));
    }
    return out;
  }
}

interface SnapshotHead {
  version: string;
  layout: Array<[ColumnKind, number, number]>;
  header: unknown;
}

export class SnapshotReader {
  private readonly layout: Array<[ColumnKind, number, number]>;
  readonly header: unknown;
  private readonly base: number;

  private constructor(
    private readonly bytes: Buffer,
    parsed: SnapshotHead,
    len: number,
  ) {
    this.layout = parsed.layout;
    this.header = parsed.header;
    this.base = (MAGIC.length + 4 + len + 7) & ~7;
  }

  /** Undefined when the bytes are not a snapshot of this format written by this code version. */
  static open(bytes: Buffer): SnapshotReader | undefined {
    if (bytes.length < MAGIC.length + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const len = bytes.readUInt32LE(MAGIC.length);
    const start = MAGIC.length + 4;
    const parsed = JSON.parse(bytes.toString('utf8', start, start + len)) as SnapshotHead;
    if (parsed.version !== codeVersion()) return undefined;
    return new SnapshotReader(bytes, parsed, len);
  }

  /** A copy of a column (its own, aligned buffer). */
  i32(ref: ColumnRef): Int32Array<ArrayBuffer> {
    return this.copy(ref, 'i32') as Int32Array<ArrayBuffer>;
  }

  u8(ref: ColumnRef): Uint8Array<ArrayBuffer> {
    return this.copy(ref, 'u8') as Uint8Array<ArrayBuffer>;
  }

  f64(ref: ColumnRef): Float64Array<ArrayBuffer> {
    return this.copy(ref, 'f64') as Float64Array<ArrayBuffer>;
  }

  i64(ref: ColumnRef): BigInt64Array<ArrayBuffer> {
    return this.copy(ref, 'i64') as BigInt64Array<ArrayBuffer>;
  }

  private copy(ref: ColumnRef, kind: ColumnKind): Column {
    const [k, offset, length] = this.layout[ref.$b];
    if (k !== kind) throw new Error(`snapshot column ${ref.$b} is ${k}, not ${kind}`);
    const Ctor = KINDS[k];
    const out = new Ctor(length);
    const start = this.bytes.byteOffset + this.base + offset;
    new Uint8Array(out.buffer).set(new Uint8Array(this.bytes.buffer, start, out.byteLength));
    return out;
  }
}

/** Doc values that JSON cannot carry as numbers (-0, NaN, ±Infinity, BigInts) are tagged. */
export function encodeValues(values: Array<string | number | bigint | boolean>): unknown[] {
  return values.map((v) => {
    if (typeof v === 'bigint') return { $i: String(v) };
    return typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)) ? { $n: String(v) } : v;
  });
}

export function decodeValues(values: unknown[]): Array<string | number | bigint | boolean> {
  return values.map((v) => {
    if (typeof v !== 'object' || v === null) return v as string | number | boolean;
    const tagged = v as { $n?: string; $i?: string };
    if (tagged.$i !== undefined) return BigInt(tagged.$i);
    return tagged.$n === '-0' ? -0 : Number(tagged.$n);
  });
}
