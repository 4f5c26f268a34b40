import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { REPO_ROOT } from '../../../support/servers.js';

/**
 * The gateways the specs and benches spawn run an esbuild bundle built with keepNames
 * (spec/support/bundle.mjs), which names every function expression as it is made, with
 * Object.defineProperty (~1.4 µs). In code that runs for each value indexed, a closure made per
 * call cost ~8% of a 50 MB _bulk's main-thread time (bench:isolation's 50 MB _bulk load).
 */
describe('indexing values, as the bundle runs it', () => {
  let dir: string;
  let toIndexedValue: (value: unknown, mapping: Record<string, unknown>, path: string, id: string, registry: unknown) => unknown;
  const defineProperty = Object.defineProperty;
  let counting = false;
  let calls = 0;

  before(async () => {
    // the bundle's __name holds Object.defineProperty as it was when the module loaded: counted from then on
    Object.defineProperty = ((o: object, p: PropertyKey, d: PropertyDescriptor) => {
      if (counting) calls++;
      return defineProperty(o, p, d);
    }) as typeof Object.defineProperty;
    dir = await mkdtemp(path.join(os.tmpdir(), 'bundled-indexing-'));
    const outfile = path.join(dir, 'field-values.mjs');
    await build({
      entryPoints: [path.join(REPO_ROOT, 'lib/engine/embedded/mapping/field-values.ts')],
      outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20', keepNames: true, logLevel: 'error',
    });
    try {
      ({ toIndexedValue } = await import(pathToFileURL(outfile).href));
    } finally {
      Object.defineProperty = defineProperty;
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('names no function per value (no Object.defineProperty call while a value is converted)', () => {
    const values: Array<[unknown, Record<string, unknown>]> = [
      [42, { type: 'long' }], ['7', { type: 'integer' }], [1.5, { type: 'double' }], [true, { type: 'boolean' }],
      ['2024-01-02', { type: 'date' }], ['10.0.0.1', { type: 'ip' }],
    ];
    counting = true;
    try {
      for (let i = 0; i < 100; i++) for (const [value, mapping] of values) toIndexedValue(value, mapping, 'f', String(i), undefined);
    } finally {
      counting = false;
    }
    expect(calls).to.equal(0);
  });

  it('still refuses a value that does not fit, naming the field, type, document and value', () => {
    expect(() => toIndexedValue('x', { type: 'long' }, 'count', 'doc-1', undefined)).to.throw(
      "failed to parse field [count] of type [long] in document with id 'doc-1'. Preview of field's value: 'x'",
    );
    let caught: unknown;
    try {
      toIndexedValue(2 ** 40, { type: 'integer' }, 'n', 'd', undefined);
    } catch (err) {
      caught = err;
    }
    expect(JSON.stringify(caught)).to.include('is out of range for an integer');
  });
});
