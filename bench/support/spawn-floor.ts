import { spawn } from 'node:child_process';
import type { ChildServer } from '../../spec/support/servers.js';

/**
 * The slow-body crowd's floor (crowd-floor.ts: a bare `node:http` server held to the gateway's
 * connection limits by the same connection guard, no koa, no gateway) in a child process of its
 * own, as the gateway runs: `nodeArgs` its Node flags, `env` added to this process's.
 */
export function spawnCrowdFloor(nodeArgs: string[], env: Record<string, string> = {}): Promise<ChildServer> {
  const proc = spawn(process.execPath, [...nodeArgs, new URL('./crowd-floor.js', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  let out = '';
  return new Promise((resolve, reject) => {
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /floor listening on (\S+)/.exec(out);
      if (m) resolve({
        url: m[1]!, proc, output: () => out,
        stop: () => new Promise((done) => { proc.once('exit', done); proc.kill('SIGTERM'); }),
      });
    });
    proc.once('exit', (code) => reject(new Error(`the floor exited (${code}): ${out}`)));
  });
}
