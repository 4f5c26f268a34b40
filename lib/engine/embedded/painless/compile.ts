/**
 * Compiling a Painless script once and running it many times: parse, check and generate JS
 * (codegen.ts), then build the function over the runtime. Compiled scripts are cached by context
 * and source. A run's failures come out as ES's script_exception.
 */
import { LRUCache } from 'lru-cache';
import { EsError } from '../../../errors/index.js';
import { CodeGenerator, type ContextDefinition } from './codegen.js';
import { parse } from './parser.js';
import { MAX_FUNCTION_CALLS, RUNTIME, callBudget, position } from './runtime.js';
import { CompileError, ScriptRuntimeError, scriptException, type ScriptIdentity } from './script-error.js';
import { SearchTimedOut, bounds, enterRun, leaveRun, type ScriptMemory } from './run-bounds.js';

/** Painless refuses longer sources (its Compiler's MAXIMUM_SOURCE_LENGTH). */
export const MAX_SOURCE_LENGTH = 16384;

export interface CompiledScript {
  readonly source: string;
  /**
   * Runs the script with the context's variables (`params`, `ctx`, `doc`…) within the bounds of a
   * run (run-bounds.ts); `memory`: an account the run shares with others (what they keep). Throws
   * ES's script_exception, or SearchTimedOut when the search it runs for reaches its timeout.
   */
  run(globals: Record<string, unknown>, memory?: ScriptMemory): unknown;
  /** The script reads `_score` (a score or sort script that needs scores). */
  readonly usesScore: boolean;
}

type ScriptFunction = (globals: Record<string, unknown>) => unknown;

const cache = new LRUCache<string, { fn: ScriptFunction; statements: number[]; usesScore: boolean }>({ max: 2048 });

/** Compiles `source` for `context` (cached); `name` is what errors call the script (its id when stored). */
export function compileScript(source: string, context: ContextDefinition, name: string = source): CompiledScript {
  const identity: ScriptIdentity = { source, name };
  const key = `${context.name}\u0000${source}`;
  let entry = cache.get(key);
  if (!entry) {
    try {
      if (source.length > MAX_SOURCE_LENGTH) {
        throw new CompileError(`Scripts may be no longer than ${MAX_SOURCE_LENGTH} characters.  The passed in script is ${source.length} characters.  ` +
          'Consider using a plugin if a script longer than this length is a requirement.', 0);
      }
      const program = parse(source);
      const js = new CodeGenerator(program, context).generate();
      // The generated code names nothing but `rt` and its own locals (see codegen.ts).
      const factory = new Function('rt', js) as (rt: typeof RUNTIME) => ScriptFunction;
      entry = { fn: factory(RUNTIME), statements: program.statements, usesScore: /\b_score\b/.test(source) };
    } catch (e) {
      if (e instanceof CompileError) throw scriptException(e, identity);
      if (e instanceof ScriptRuntimeError) throw scriptException(new CompileError(e.message, Math.max(0, position.at)), identity);
      // A source nested deeper than the compiler's stack (Painless's StackOverflowError), or a fault of the compiler itself.
      if (e instanceof RangeError) throw scriptException(new CompileError('too deeply nested', 0, 'stack_overflow_error'), identity);
      throw scriptException(new CompileError(e instanceof Error ? e.message : String(e), 0, 'exception'), identity);
    }
    cache.set(key, entry);
  }
  const { fn, statements, usesScore } = entry;
  return {
    source,
    usesScore,
    run(globals, memory) {
      const outer = callBudget.left;
      const { steps, deadline, clock, memory: outerMemory } = bounds;
      enterRun(memory);
      callBudget.left = MAX_FUNCTION_CALLS;
      try {
        return fn(globals);
      } catch (e) {
        throw runtimeFailure(e, identity, statements);
      } finally {
        callBudget.left = outer;
        leaveRun(steps, deadline, clock, outerMemory);
      }
    },
  };
}

function runtimeFailure(e: unknown, identity: ScriptIdentity, statements: number[]): unknown {
  if (e instanceof EsError || e instanceof SearchTimedOut) return e;
  if (e instanceof ScriptRuntimeError) {
    if (e.offset < 0) e.offset = position.at;
    return scriptException(e, identity, statements);
  }
  if (e instanceof RangeError && /call stack/i.test(e.message)) return scriptException(e, identity, statements);
  // Anything else is a fault of this implementation: reported as the script's, never as a crash.
  const wrapped = new ScriptRuntimeError('exception', e instanceof Error ? e.message : String(e));
  wrapped.offset = position.at;
  return scriptException(wrapped, identity, statements);
}
