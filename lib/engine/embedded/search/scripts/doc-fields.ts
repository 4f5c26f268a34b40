import type { InvertedIndex } from '../../index/index.js';
import { fieldType, resolveFieldMapping, type FieldMapping, type IndexableField, type Mappings } from '../../mapping/index.js';
import type { DocFields } from '../../painless/index.js';

/** The mapping a script reads a field by: through an alias to its target. */
function resolved(mappings: Mappings, field: string): { name: string; mapping: FieldMapping } | undefined {
  const mapping = resolveFieldMapping(mappings, field);
  if (!mapping) return undefined;
  if (mapping.type === 'alias' && typeof mapping.path === 'string') {
    const target = resolveFieldMapping(mappings, mapping.path);
    return target ? { name: mapping.path, mapping: target } : undefined;
  }
  return { name: field, mapping };
}

/** A script's `doc` over an index: the doc values of the document at `ord`. */
export class IndexDocFields implements DocFields {
  ord = 0;
  private readonly types = new Map<string, { name: string; type: string; fielddata: boolean } | null>();

  constructor(
    private readonly index: InvertedIndex,
    private readonly mappings: Mappings,
    readonly indexName: string,
  ) {}

  private field(field: string) {
    let f = this.types.get(field);
    if (f === undefined) {
      const r = resolved(this.mappings, field);
      f = r ? { name: r.name, type: fieldType(r.mapping), fielddata: r.mapping.fielddata === true } : null;
      this.types.set(field, f);
    }
    return f;
  }

  typeOf(field: string): string | undefined {
    return this.field(field)?.type;
  }

  fielddata(field: string): boolean {
    return this.field(field)?.fielddata === true;
  }

  values(field: string): readonly unknown[] | undefined {
    const f = this.field(field);
    return f ? this.index.field(f.name)?.docValues.get(this.ord) : undefined;
  }

  documentKey(): number {
    return this.ord;
  }

  vector(field: string): Float32Array | undefined {
    const f = this.field(field);
    return f ? this.index.field(f.name)?.vectors?.get(this.ord) : undefined;
  }
}

/** A script's `doc` over one parsed document (the live-stream matcher, `_execute` with a document). */
export class ParsedDocFields implements DocFields {
  constructor(
    private readonly fields: ReadonlyMap<string, IndexableField>,
    private readonly mappings: Mappings,
    readonly indexName: string,
  ) {}

  typeOf(field: string): string | undefined {
    const r = resolved(this.mappings, field);
    return r ? fieldType(r.mapping) : undefined;
  }

  fielddata(field: string): boolean {
    return resolved(this.mappings, field)?.mapping.fielddata === true;
  }

  values(field: string): readonly unknown[] | undefined {
    const r = resolved(this.mappings, field);
    return r ? this.fields.get(r.name)?.values : undefined;
  }

  vector(field: string): Float32Array | undefined {
    const r = resolved(this.mappings, field);
    return r ? this.fields.get(r.name)?.vector : undefined;
  }
}
