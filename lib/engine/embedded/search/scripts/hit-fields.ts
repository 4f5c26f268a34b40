import { simpleMatch } from '../../../../wildcard/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { DEFAULT_DATE_FORMAT, formatDate, type EpochTime } from '../../mapping/index.js';
import { FIELD_CONTEXT, ScriptDocValues, ScriptMemory, isJavaArray, toJson, type StoredScripts } from '../../painless/index.js';
import type { FieldAndFormat } from '../fields/index.js';
import type { ScriptField } from '../search-request.js';
import { DocScript, documentSource, prepareScript } from './doc-script.js';
import { runtimeFieldsOf } from './runtime-fields.js';

/** A script field's value → the hit's values: a List's elements, else the value itself. */
function valuesOf(v: unknown): unknown[] {
  if (Array.isArray(v) || isJavaArray(v) || v instanceof ScriptDocValues) return toJson(v) as unknown[];
  return [toJson(v)];
}

/** `script_fields` of the hits of one search: each script compiled once, bound once per index. */
export class ScriptFieldValues {
  private readonly scripts = new Map<IndexHandle, DocScript[]>();
  /** The values go into the response: what every hit's scripts build is charged to one account. */
  private readonly memory = new ScriptMemory();

  constructor(
    private readonly fields: ScriptField[],
    private readonly stored?: StoredScripts,
  ) {}

  private bound(handle: IndexHandle): DocScript[] {
    let scripts = this.scripts.get(handle);
    if (!scripts) {
      const source = (ord: number) => documentSource(handle, ord);
      scripts = this.fields.map((f) => new DocScript(prepareScript(f.script, FIELD_CONTEXT, this.stored), handle.inverted!, handle.mappings, handle.name, { source, memory: this.memory }));
      this.scripts.set(handle, scripts);
    }
    return scripts;
  }

  /** The script fields of the document at `ord`. */
  of(handle: IndexHandle, ord: number): Record<string, unknown[]> {
    const out: Record<string, unknown[]> = {};
    const scripts = this.bound(handle);
    this.fields.forEach((f, i) => {
      try {
        out[f.name] = valuesOf(scripts[i].run(ord));
      } catch (e) {
        if (!f.ignoreFailure) throw e;
      }
    });
    return out;
  }
}

/** The `fields` of a hit that are runtime fields: their computed values, formatted as the fields API prints them. */
export function runtimeFieldValues(requests: FieldAndFormat[], handle: IndexHandle, ord: number): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  const runtime = runtimeFieldsOf(handle);
  if (!runtime || !requests.length) return out;
  for (const f of runtime.values()) {
    const req = requests.find((r) => simpleMatch(r.field, f.name));
    if (!req) continue;
    const raw = handle.inverted!.field(f.name)?.docValues.get(ord);
    if (!raw || !raw.length) continue;
    switch (f.type) {
      case 'geo_point': {
        const points: unknown[] = [];
        for (let i = 0; i + 1 < raw.length; i += 2) points.push({ type: 'Point', coordinates: [raw[i + 1], raw[i]] });
        out[f.name] = points;
        break;
      }
      case 'date':
        out[f.name] = [...raw].sort((a, b) => Number(a) - Number(b)).map((v) => formatDate(v as EpochTime, req.format ?? f.format ?? DEFAULT_DATE_FORMAT));
        break;
      case 'keyword':
      case 'ip':
        out[f.name] = [...new Set(raw.map(String))].sort();
        break;
      case 'boolean':
        out[f.name] = [...raw].sort((a, b) => Number(a) - Number(b));
        break;
      default:
        out[f.name] = [...raw].sort((a, b) => Number(a) - Number(b));
    }
  }
  return out;
}
