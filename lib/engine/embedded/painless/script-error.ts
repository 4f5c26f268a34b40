/**
 * How a Painless script fails, and how Elasticsearch reports it: a `script_exception` (400) whose
 * `reason` is "compile error" or "runtime error", with the part of the script around the failure
 * (`script_stack`, `position`) and the Java exception behind it as `caused_by`.
 */
import { EsError } from '../../../errors/index.js';

/** The script could not be compiled: `offset` is where in the source. */
export class CompileError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    /** The Java exception type behind it, as ES names it. */
    readonly javaType = 'illegal_argument_exception',
  ) {
    super(message);
    this.name = 'CompileError';
  }
}

/**
 * A Java exception thrown while a script runs (null_pointer_exception, class_cast_exception…).
 * `offset` is set by the runtime helper that was running the script's expression at the time.
 */
export class ScriptRuntimeError extends Error {
  offset = -1;

  constructor(
    readonly javaType: string,
    message: string,
    /** Members ES adds beside type and reason (Debug.explain's painless_class, to_string…). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ScriptRuntimeError';
  }
}

/** The loop budget ran out: Painless's PainlessError, which scripts cannot catch. */
export const LOOP_LIMIT_MESSAGE = 'The maximum number of statements that can be executed in a loop has been reached.';

/** `offset` 0-based, into the source; ES keeps 25 characters either side in a compile error's stack. */
function compileStack(source: string, offset: number): { stack: string[]; position: Record<string, number> } {
  const start = Math.max(0, offset - 25);
  const end = Math.min(source.length, offset + 25);
  let snippet = source.slice(start, end);
  let pointer = '';
  if (start > 0) {
    snippet = '... ' + snippet;
    pointer = '    ';
  }
  if (end < source.length) snippet += ' ...';
  pointer += ' '.repeat(offset - start) + '^---- HERE';
  return { stack: [snippet, pointer], position: { offset, start, end } };
}

/** A runtime error's stack: the statement the failure is in, from its start to the next statement's. */
function runtimeStack(source: string, offset: number, statements: readonly number[]): { stack: string[]; position: Record<string, number> } {
  let start = 0;
  let end = source.length;
  for (const s of statements) {
    if (s <= offset) start = s;
    else {
      end = s;
      break;
    }
  }
  const stack = [source.slice(start, end), ' '.repeat(Math.max(0, offset - start)) + '^---- HERE'];
  return { stack, position: { offset, start, end } };
}

/** The script's name in an error: the source of an inline script, the id of a stored one. */
export interface ScriptIdentity {
  source: string;
  name: string;
}

/** Any failure of compiling or running a script → ES's script_exception (other errors pass through). */
export function scriptException(err: unknown, script: ScriptIdentity, statements: readonly number[] = []): unknown {
  if (err instanceof CompileError) {
    const { stack, position } = compileStack(script.source, Math.max(0, Math.min(err.offset, script.source.length)));
    return new EsError(400, 'script_exception', 'compile error', {
      script_stack: stack, script: script.name, lang: 'painless', position,
      caused_by: { type: err.javaType, reason: err.message },
    });
  }
  if (err instanceof ScriptRuntimeError) {
    const located = err.offset >= 0 ? runtimeStack(script.source, err.offset, statements) : { stack: ['<<< unknown portion of script >>>'], position: undefined };
    // A breaker's figures (bytes_wanted…) are its exception's own; Debug.explain's (painless_class…) the script_exception's.
    const breaker = err.javaType === 'circuit_breaking_exception';
    const extra: Record<string, unknown> = { ...(breaker ? {} : err.extra), script_stack: located.stack, script: script.name, lang: 'painless' };
    if (located.position) extra.position = located.position;
    // Debug.explain's painless_explain_error carries no message.
    extra.caused_by = { type: err.javaType, reason: err.javaType === 'painless_explain_error' ? null : err.message, ...(breaker ? err.extra : {}) };
    return new EsError(400, 'script_exception', 'runtime error', extra);
  }
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return new EsError(400, 'script_exception', 'runtime error', {
      script_stack: ['<<< unknown portion of script >>>'], script: script.name, lang: 'painless',
      caused_by: { type: 'stack_overflow_error', reason: null },
    });
  }
  return err;
}
