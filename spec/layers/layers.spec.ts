import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface Cruise {
  modules: Array<{ source: string; dependencies: Array<{ resolved: string }> }>;
  summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
}

/** lib/'s folder of a module (`main` for lib/main.ts), or undefined outside lib/. */
function folderOf(file: string): string | undefined {
  const m = /^lib\/([^/]+)\//.exec(file);
  return m ? m[1] : file.startsWith('lib/') ? 'main' : undefined;
}

/** The folder graph's strongly connected components of more than one folder (Tarjan). */
function folderCycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/**
 * The layer order of lib/ (.dependency-cruiser.cjs: core → engine → changes/records → interceptors
 * and features → metrics/server → main), imports through index.ts barrels, and no two folders
 * importing each other, directly or through others.
 */
describe('layers of lib/ (dependency-cruiser)', function () {
  this.timeout(180_000);
  let cruise: Cruise;
  before(async () => {
    const { stdout } = await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/depcruise'), ['lib', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 });
    cruise = JSON.parse(stdout) as Cruise;
  });

  it('reports no violation of the layer and barrel rules', () => {
    const violations = cruise.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(violations).to.deep.equal([]);
  });

  it('finds no cycle between folders', () => {
    expect(cruise.modules.length).to.be.above(100); // the cruise did read lib/
    const graph = new Map<string, Set<string>>();
    for (const m of cruise.modules) {
      const from = folderOf(m.source);
      if (!from) continue;
      for (const d of m.dependencies) {
        const to = folderOf(d.resolved);
        if (!to || to === from) continue;
        if (!graph.has(from)) graph.set(from, new Set());
        graph.get(from)!.add(to);
      }
    }
    expect(folderCycles(graph)).to.deep.equal([]);
    // the check itself finds a cycle where there is one
    expect(folderCycles(new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])]]))).to.deep.equal([['a', 'b', 'c']]);
  });
});
