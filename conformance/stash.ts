import { lookup, splitPath } from './object-path.js';

/** A `$name` or `${name}` that has no stashed value: the step using it fails. */
export class StashMissError extends Error {
  constructor(readonly key: string) {
    super(`stashed value not found for key [${key}]`);
  }
}

const EMBEDDED_KEY = /\$\{([^}]+)\}/g;

/**
 * The values a test saved with `set` (and the last response body, as `body`). Lives for one
 * test: the runner creates a fresh stash before each setup.
 *
 * Substitution follows the Java runner: a string that starts with `$` (not `${`) is replaced
 * by the stashed value itself, keeping its type (`$id`, `$body`, `$body.hits.total`); a
 * string holding `${name}` anywhere has each occurrence replaced by the value's text.
 */
export class Stash {
  private readonly values = new Map<string, unknown>();

  set(name: string, value: unknown): void {
    this.values.set(name, value);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** True when `text` refers to the stash (and so would be replaced by `resolveString`). */
  static refersToStash(text: string): boolean {
    return (text.startsWith('$') && !text.startsWith('${')) || text.includes('${');
  }

  /** Resolves a string that may be (or embed) a stash reference. */
  resolveString(text: string): unknown {
    if (text.startsWith('$') && !text.startsWith('${') && text.length > 1) {
      return this.lookupStashed(text.slice(1));
    }
    if (!text.includes('${')) return text;
    // A string that is exactly one `${name}` keeps the stashed value's type.
    const whole = /^\$\{([^}]+)\}$/.exec(text);
    if (whole) return this.lookupStashed(whole[1]);
    return text.replace(EMBEDDED_KEY, (_m, name: string) => textOf(this.lookupStashed(name)));
  }

  /** Replaces stash references in every string value and key of `value` (deeply). */
  resolve<T>(value: T): T {
    return this.resolveAny(value) as T;
  }

  private resolveAny(value: unknown): unknown {
    if (typeof value === 'string') return this.resolveString(value);
    if (Array.isArray(value)) return value.map((item) => this.resolveAny(item));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        out[this.resolveKey(key)] = this.resolveAny(item);
      }
      return out;
    }
    return value;
  }

  /** A key (object key or path segment) with its stash reference replaced by text. */
  resolveKey(key: string): string {
    return Stash.refersToStash(key) ? textOf(this.resolveString(key)) : key;
  }

  /**
   * Splits a response path and resolves stash references in each segment
   * (`nodes.$master.http`, `field.e${placeholder}ments`).
   */
  resolvePath(path: string): string[] {
    return splitPath(path).map((segment) => this.resolveKey(segment));
  }

  private lookupStashed(reference: string): unknown {
    const [name, ...rest] = splitPath(reference);
    if (!this.values.has(name)) throw new StashMissError(name);
    const value = this.values.get(name);
    return rest.length === 0 ? value : lookup(value, rest);
  }
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
