/**
 * The engine's config directory, as Elasticsearch's `Environment.configFile()`: the files analysis
 * settings name (`hyphenation_patterns_path`, `word_list_path`) are read relative to it.
 *
 * Contract: a file is only ever read from inside the directory. A path that leaves it (`..`, an
 * absolute path elsewhere, a symbolic link pointing out) is refused as ES's security manager
 * refuses it, so that an index definition cannot read the machine's files. Reads are bounded in
 * size, and what is parsed from a file is kept per (path, size, modification time), so a grammar
 * many indices name is parsed once and a file the operator replaces is read again.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { LRUCache } from 'lru-cache';

export type ConfigFileProblem = 'not_found' | 'access_denied' | 'too_large' | 'unreadable';

/** Why a config file could not be read; `path` is the resolved path (what ES names in its errors). */
export class ConfigFileError extends Error {
  constructor(
    readonly problem: ConfigFileProblem,
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigFileError';
  }
}

/** At most this many parsed files are kept (each is small next to an index). */
const PARSED_CACHE_ENTRIES = 32;

export class ConfigFiles {
  readonly dir: string;
  private readonly parsedCache = new LRUCache<string, { value: unknown }>({ max: PARSED_CACHE_ENTRIES });

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  /** The absolute path `file` names: relative to the config directory, or absolute. */
  resolve(file: string): string {
    return path.resolve(this.dir, file);
  }

  /**
   * The bytes of `file`, at most `maxBytes` of them. Throws ConfigFileError: `access_denied` for a
   * path outside the directory, `not_found`, `too_large`, `unreadable` (a directory, permissions).
   */
  read(file: string, maxBytes: number): Buffer {
    const { path: real } = this.checked(file, maxBytes);
    return readBytes(real);
  }

  /**
   * `parse` applied to the bytes of `file`, computed once while the file keeps its size and
   * modification time. Errors (reading or parsing) are not cached.
   */
  parsed<T>(kind: string, file: string, maxBytes: number, parse: (bytes: Buffer) => T): T {
    const { path: resolved, size, mtimeMs } = this.checked(file, maxBytes);
    const key = `${kind}\u0000${resolved}\u0000${size}\u0000${mtimeMs}`;
    const hit = this.parsedCache.get(key);
    if (hit) return hit.value as T;
    const value = parse(readBytes(resolved));
    this.parsedCache.set(key, { value });
    return value;
  }

  private checked(file: string, maxBytes: number): { path: string; size: number; mtimeMs: number } {
    const resolved = this.resolve(file);
    const denied = () => new ConfigFileError('access_denied', resolved, `access denied ("java.io.FilePermission" "${resolved}" "read")`);
    if (file.includes('\u0000') || !inside(this.dir, resolved)) throw denied();
    let real: string;
    try {
      real = realpathSync(resolved);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new ConfigFileError('not_found', resolved, resolved);
      throw new ConfigFileError('unreadable', resolved, `${resolved}: ${code ?? (err as Error).message}`);
    }
    let realDir: string;
    try {
      realDir = realpathSync(this.dir);
    } catch {
      realDir = this.dir;
    }
    if (!inside(realDir, real)) throw denied();
    const stat = statSync(real);
    if (!stat.isFile()) throw new ConfigFileError('unreadable', resolved, `${resolved}: not a regular file`);
    if (stat.size > maxBytes) throw new ConfigFileError('too_large', resolved, `${resolved}: ${stat.size} bytes, more than the ${maxBytes} this engine reads`);
    return { path: real, size: stat.size, mtimeMs: stat.mtimeMs };
  }
}

function readBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new ConfigFileError('unreadable', file, `${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function inside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}
