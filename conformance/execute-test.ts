import { buildCall, ParamError, type ApiSpecs, type HttpCall } from './api-spec.js';
import {
  AssertionFailure,
  assertCloseTo,
  assertComparison,
  assertContains,
  assertExists,
  assertIsAfter,
  assertIsFalse,
  assertIsTrue,
  assertLength,
  assertMatch,
} from './assertions.js';
import type { EsClient, EsResponse } from './es-client.js';
import { compileJavaRegex, slashedPattern } from './extended-regex.js';
import type { Step } from './load-suite.js';
import { lookup } from './object-path.js';
import { Stash } from './stash.js';
import type { Failure } from './test-result.js';

/** `catch` values naming one status code. */
const CATCH_STATUS: Readonly<Record<string, number>> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  missing: 404,
  request_timeout: 408,
  conflict: 409,
  unavailable: 503,
};

/** Keys of a `do` that steer the runner rather than name the API. */
export const DO_OPTIONS: ReadonlySet<string> = new Set([
  'catch',
  'headers',
  'warnings',
  'warnings_regex',
  'allowed_warnings',
  'allowed_warnings_regex',
  'node_selector',
]);

/** The step kinds this runner executes; a test using any other is skipped. */
export const SUPPORTED_STEPS: ReadonlySet<string> = new Set([
  'do', 'set', 'transform_and_set', 'match', 'length', 'is_true', 'is_false', 'gt', 'gte', 'lt', 'lte',
  'contains', 'close_to', 'exists', 'is_after', 'skip', 'requires',
]);

/** A step that did not hold: carries what the report shows. */
export class StepFailure extends Error {
  constructor(
    message: string,
    readonly expected?: unknown,
    readonly actual?: unknown,
  ) {
    super(message);
  }
}

/**
 * Runs the steps of one test (its file's setup, the test, the teardown) against a server,
 * with the test's own stash and "last response". One instance per test.
 */
export class TestExecution {
  private readonly stash = new Stash();
  private response?: EsResponse;
  private lastMethod = 'GET';

  constructor(
    private readonly client: EsClient,
    private readonly specs: ApiSpecs,
    private readonly signal: AbortSignal,
  ) {}

  /** Runs a section; returns the first failure, or undefined when every step held. */
  async runSection(section: Failure['section'], steps: readonly Step[]): Promise<Failure | undefined> {
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      try {
        await this.runStep(step);
      } catch (err) {
        if (this.signal.aborted) throw err;
        const detail = err instanceof StepFailure || err instanceof AssertionFailure ? err : undefined;
        return {
          section,
          step: i + 1,
          op: describeStep(step),
          message: err instanceof Error ? err.message : String(err),
          expected: detail?.expected,
          actual: detail?.actual,
        };
      }
    }
    return undefined;
  }

  private async runStep({ op, arg }: Step): Promise<void> {
    switch (op) {
      case 'skip':
      case 'requires':
        return; // decided before the test runs
      case 'do':
        return this.runDo(asRecord(arg, 'do'));
      case 'set':
        for (const [path, name] of Object.entries(asRecord(arg, 'set'))) this.stash.set(String(name), this.actual(path));
        return;
      case 'transform_and_set':
        for (const [name, expression] of Object.entries(asRecord(arg, 'transform_and_set'))) {
          this.stash.set(name, this.transform(String(expression)));
        }
        return;
      case 'is_true':
        return assertIsTrue(String(arg ?? ''), this.actual(String(arg ?? '')));
      case 'is_false':
        return assertIsFalse(String(arg ?? ''), this.actual(String(arg ?? '')));
      case 'exists':
        return assertExists(String(arg ?? ''), this.actual(String(arg ?? '')));
      case 'match':
      case 'length':
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
      case 'contains':
      case 'close_to':
      case 'is_after':
        for (const [field, expectedRaw] of Object.entries(asRecord(arg, op))) {
          this.assertField(op, field, this.stash.resolve(expectedRaw));
        }
        return;
      default:
        throw new StepFailure(`unsupported step [${op}]`);
    }
  }

  private assertField(op: string, field: string, expected: unknown): void {
    const actual = this.actual(field);
    switch (op) {
      case 'match':
        return assertMatch(field, actual, expected);
      case 'length':
        return assertLength(field, actual, expected);
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return assertComparison(op, field, actual, expected);
      case 'contains':
        return assertContains(field, actual, expected);
      case 'close_to':
        return assertCloseTo(field, actual, expected);
      case 'is_after':
        return assertIsAfter(field, actual, expected);
    }
  }

  /** The value an assertion examines: a stashed value, or a path into the last response. */
  private actual(field: string): unknown {
    // `$name`, `$name.path` and a lone `${name}` read the stash; any other `${…}` is a path segment.
    if ((field.startsWith('$') && !field.startsWith('${')) || /^\$\{[^}]+\}$/.test(field)) {
      return this.stash.resolveString(field);
    }
    const response = this.response;
    if (!response) return undefined;
    if (field === '' && this.lastMethod === 'HEAD') return response.status < 400;
    return lookup(response.body, this.stash.resolvePath(field));
  }

  private transform(expression: string): unknown {
    const match = /^#base64EncodeCredentials\(([^,]+),([^)]+)\)$/.exec(expression.trim());
    if (!match) return expression;
    const user = this.actual(match[1].trim());
    const secret = this.actual(match[2].trim());
    return Buffer.from(`${String(user)}:${String(secret)}`).toString('base64');
  }

  private async runDo(spec: Record<string, unknown>): Promise<void> {
    const apis = Object.keys(spec).filter((key) => !DO_OPTIONS.has(key));
    if (apis.length !== 1) throw new StepFailure(`a do must name exactly one API, got [${apis.join(', ')}]`);
    const api = apis[0];
    const catchParam = spec.catch === undefined ? undefined : String(spec.catch);
    const headers = this.stash.resolve((spec.headers ?? {}) as Record<string, unknown>);
    const args = this.stash.resolve(asRecord(spec[api] ?? {}, api));

    const apiSpec = this.specs.get(api);
    if (!apiSpec) throw new StepFailure(`no REST API spec for [${api}]`);
    let call: HttpCall;
    try {
      call = buildCall(apiSpec, args, stringRecord(headers));
    } catch (err) {
      if (err instanceof ParamError && catchParam === 'param') return;
      throw err;
    }
    if (catchParam === 'param') throw new StepFailure(`expected a client-side param error for [${api}], but the request is valid`);

    this.response = undefined;
    this.lastMethod = call.method;
    const response = await this.client.send(call, this.signal);
    this.response = response;
    this.stash.set('body', response.body);

    const ignored = ignoredStatuses(args.ignore);
    const isError = response.status >= 400 && !(call.method === 'HEAD' && response.status === 404) && !ignored.has(response.status);
    if (catchParam === undefined) {
      if (isError) {
        throw new StepFailure(`${call.method} ${call.url} returned ${response.status}`, 'a successful response', abbreviate(response.text));
      }
      return;
    }
    this.checkCatch(catchParam, call, response);
  }

  private checkCatch(catchParam: string, call: HttpCall, response: EsResponse): void {
    const where = `${call.method} ${call.url}`;
    const named = CATCH_STATUS[catchParam];
    if (named !== undefined) {
      if (response.status !== named) {
        throw new StepFailure(`${where}: expected status ${named} (${catchParam})`, named, `${response.status} ${abbreviate(response.text)}`);
      }
      return;
    }
    if (response.status < 400) {
      throw new StepFailure(`${where}: expected an error (catch: ${catchParam})`, catchParam, `${response.status} ${abbreviate(response.text)}`);
    }
    if (catchParam === 'request') return;
    const pattern = slashedPattern(catchParam);
    if (pattern === undefined) throw new StepFailure(`unsupported catch [${catchParam}]`);
    const regex = compileJavaRegex(pattern);
    if (!regex.test(response.text) && !regex.test(errorText(response.body))) {
      throw new StepFailure(`${where}: error does not match ${catchParam}`, catchParam, abbreviate(response.text));
    }
  }
}

function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new StepFailure(`[${what}] expects a map, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

function stringRecord(value: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) out[key] = String(item);
  return out;
}

function ignoredStatuses(value: unknown): Set<number> {
  if (value === undefined || value === null) return new Set();
  return new Set((Array.isArray(value) ? value : [value]).map(Number));
}

/** The strings of an error body, one per line: what a Java error's message would show. */
function errorText(body: unknown): string {
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(body);
  return strings.join('\n');
}

function abbreviate(text: string, max = 600): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function describeStep({ op, arg }: Step): string {
  if (op === 'do' && arg !== null && typeof arg === 'object') {
    const api = Object.keys(arg).find((key) => !DO_OPTIONS.has(key));
    return `do ${api ?? '?'}`;
  }
  const text = JSON.stringify(arg) ?? '';
  return `${op} ${text.length > 120 ? `${text.slice(0, 120)}…` : text}`;
}
