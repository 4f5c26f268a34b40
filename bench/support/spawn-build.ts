import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { ChildServer } from '../../spec/support/servers.js';

/**
 * A gateway of a built tree (`root`'s dist/lib/main.js) on an ephemeral port, for the A/B benches:
 * `prof` a --cpu-prof directory, `nodeArgs` more node flags (with AB_NODE_ARGS), `keepOutput` a file
 * its stdout goes to (`<file>.<pid>`) once it listens; otherwise that output is dropped.
 */
export function spawnBuild(root: string, env: Record<string, string>, options: { prof?: string; nodeArgs?: string; keepOutput?: string } = {}): Promise<ChildServer> {
  const args = [...(options.prof ? ['--cpu-prof', `--cpu-prof-dir=${options.prof}`] : []), ...`${process.env.AB_NODE_ARGS ?? ''} ${options.nodeArgs ?? ''}`.split(' ').filter(Boolean)];
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...args, path.join(root, 'dist/lib/main.js')], { env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const exited = new Promise<number | null>((r) => proc.once('exit', (c) => r(c)));
    proc.stderr!.on('data', (c: Buffer) => (out += c));
    const onData = (c: Buffer) => {
      out += c;
      const m = /gateway listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        proc.stdout!.off('data', onData);
        const keep = options.keepOutput ? `${options.keepOutput}.${proc.pid}` : undefined;
        proc.stdout!.on('data', keep ? (c: Buffer) => appendFileSync(keep, c) : () => {});
        resolve({ url: m[1], proc, output: () => out, stop: async () => { proc.kill('SIGTERM'); return exited; } });
      }
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}
