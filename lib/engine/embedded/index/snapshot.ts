/**
 * Binary snapshots of the in-memory index: a JSON header plus the typed-array columns, so that a
 * restart loads the index instead of re-analysing every document. The header refers to column i
 * as `{ "$b": i }`. Layout: magic, header length (u32 LE), header, then each column 8-byte aligned.
 */
const MAGIC = Buffer.from('SGIDX01\n');

type Column = Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Float64Array<ArrayBuffer>;
const KINDS = { i32: Int32Array, u8: Uint8Array, f64: Float64Array } as const;
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
      const kind: ColumnKind = c instanceof Int32Array ? 'i32' : c instanceof Float64Array ? 'f64' : 'u8';
      layout.push([kind, offset, c.length]);
      offset += (c.byteLength + 7) & ~7;
    }
    const head = Buffer.from(JSON.stringify({ layout, header }));
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

export class SnapshotReader {
  private readonly layout: Array<[ColumnKind, number, number]>;
  readonly header: unknown;
  private readonly base: number;

  private constructor(private readonly bytes: Buffer) {
    const len = bytes.readUInt32LE(MAGIC.length);
    const start = MAGIC.length + 4;
    const parsed = JSON.parse(bytes.toString('utf8', start, start + len)) as { layout: Array<[ColumnKind, number, number]>; header: unknown };
    this.layout = parsed.layout;
    this.header = parsed.header;
    this.base = (start + len + 7) & ~7;
  }

  /** Undefined when the bytes are not a snapshot of this format. */
  static open(bytes: Buffer): SnapshotReader | undefined {
    if (bytes.length < MAGIC.length + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    return new SnapshotReader(bytes);
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

/** Doc values that JSON cannot carry as numbers (-0, NaN, ±Infinity) are tagged. */
export function encodeValues(values: Array<string | number | boolean>): unknown[] {
  return values.map((v) => (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)) ? { $n: String(v) } : v));
}

export function decodeValues(values: unknown[]): Array<string | number | boolean> {
  return values.map((v) => (typeof v === 'object' && v !== null ? (v as { $n: string }).$n === '-0' ? -0 : Number((v as { $n: string }).$n) : (v as string | number | boolean)));
}
