/**
 * Reading a processor's options as Elasticsearch's ConfigurationUtils does: each option is
 * taken out of the configuration as it is read, so what remains at the end is what the processor
 * does not support, and every mistake is a `parse_exception` naming the processor type, its tag
 * and the property (`[field] required property is missing`).
 */
import { EsError } from '../../../errors/index.js';
import { isMap, javaText, type JsonMap } from './ingest-document.js';

export function configError(type: string | undefined, tag: string | undefined, property: string | undefined, reason: string): EsError {
  const extra: Record<string, unknown> = {};
  if (property !== undefined) extra.property_name = property;
  if (type !== undefined) extra.processor_type = type;
  if (tag !== undefined) extra.processor_tag = tag;
  return new EsError(400, 'parse_exception', property !== undefined ? `[${property}] ${reason}` : reason, extra);
}

export class ConfigReader {
  constructor(
    readonly type: string,
    readonly tag: string | undefined,
    private readonly config: JsonMap,
  ) {}

  error(property: string | undefined, reason: string): EsError {
    return configError(this.type, this.tag, property, reason);
  }

  has(name: string): boolean {
    return this.config[name] !== undefined;
  }

  /** Takes an option out of the configuration (undefined when absent). */
  take(name: string): unknown {
    const v = this.config[name];
    delete this.config[name];
    return v === null ? undefined : v;
  }

  requiredString(name: string): string {
    const v = this.optionalString(name);
    if (v === undefined) throw this.error(name, 'required property is missing');
    return v;
  }

  optionalString(name: string, fallback?: string): string | undefined {
    const v = this.take(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'string') throw this.error(name, `property isn't a string, but of type [${javaTypeName(v)}]`);
    return v;
  }

  /** A string option that may also be given as a number (ES's readStringOrIntProperty). */
  optionalStringOrNumber(name: string): string | undefined {
    const v = this.take(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'string' && typeof v !== 'number') throw this.error(name, `property isn't a string or int, but of type [${javaTypeName(v)}]`);
    return String(v);
  }

  boolean(name: string, fallback: boolean): boolean {
    const v = this.take(name);
    if (v === undefined) return fallback;
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    throw this.error(name, `property isn't a boolean, but of type [${javaTypeName(v)}]`);
  }

  /** A list option; a single value is a one-element list where ES accepts one (`stringOrList`). */
  optionalList(name: string, stringOrList = false): unknown[] | undefined {
    const v = this.take(name);
    if (v === undefined) return undefined;
    if (Array.isArray(v)) return v;
    if (stringOrList && typeof v === 'string') return [v];
    throw this.error(name, `property isn't a list, but of type [${javaTypeName(v)}]`);
  }

  requiredList(name: string, stringOrList = false): unknown[] {
    const v = this.optionalList(name, stringOrList);
    if (v === undefined) throw this.error(name, 'required property is missing');
    return v;
  }

  optionalMap(name: string): JsonMap | undefined {
    const v = this.take(name);
    if (v === undefined) return undefined;
    if (!isMap(v)) throw this.error(name, `property isn't a map, but of type [${javaTypeName(v)}]`);
    return v;
  }

  /** Refuses options the processor did not read. */
  finish(): void {
    const left = Object.keys(this.config);
    if (left.length) throw this.error(undefined, `processor [${this.type}] doesn't support one or more provided configuration parameters [${left.join(', ')}]`);
  }
}

function javaTypeName(v: unknown): string {
  if (typeof v === 'string') return 'java.lang.String';
  if (typeof v === 'boolean') return 'java.lang.Boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'java.lang.Integer' : 'java.lang.Double';
  if (Array.isArray(v)) return 'java.util.ArrayList';
  return v === null ? 'null' : 'java.util.LinkedHashMap';
}

export { javaText };
