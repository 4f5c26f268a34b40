/**
 * bench:isolation — every hostile case of "no request starves a node" and "every unit of work is
 * bounded", in one command: its three parts run one after another, each in its own process and
 * against its own gateway or engine, their tables printed as they come:
 * - loads (bench/isolation.ts, also `npm run bench:isolation-loads`): big bodies, slow clients,
 *   heavy but legal requests, failed logins;
 * - bounds (bench/isolation-scripts.ts, `npm run bench:bounds`): scripts, aggregations, background
 *   tasks;
 * - data (bench/bounds-data.ts, `npm run bench:bounds-data`): ingest, points in time, query rules,
 *   index count, change history.
 * Each case prints whether its goal was met (others' `GET /` p99 ≤ 2 × baseline + 50 ms, no failed
 * probe, RSS up by at most 1 GB, the hostile request answered); the last line counts them, and the
 * exit code is 1 when one was missed. BENCH_SUITES=loads,bounds runs only those parts; each part's
 * own variables (BENCH_LOADS, BENCH_PARTS…) reach it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PARTS = [
  { name: 'loads', script: 'isolation.js', args: [] as string[] },
  { name: 'bounds', script: 'isolation-scripts.js', args: [] },
  { name: 'data', script: 'bounds-data.js', args: ['--expose-gc'] },
];
const chosen = (process.env.BENCH_SUITES ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** A case's verdict in a part's output: a table row's `| met |`, or bench:bounds-data's `, met;`. */
const MET = /\|\s+met\s+\||, met;/;
const MISSED = /\|\s+missed\s+\||, MISSED;/;

async function run(part: (typeof PARTS)[number]): Promise<{ met: number; missed: string[]; code: number | null }> {
  const child = spawn(process.execPath, [...part.args, fileURLToPath(new URL(`./${part.script}`, import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  let met = 0;
  const missed: string[] = [];
  let pending = '';
  let named = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      // a case's name: a table row's first column (a row without one continues the row above:
      // bench:bounds-data's ingest table), or a line's `part:` prefix (bench:bounds-data's others)
      const column = line.includes('|') ? line.split('|')[0].trim() : '';
      if (column) named = column;
      if (MET.test(line)) met++;
      else if (MISSED.test(line)) missed.push(line.includes('|') ? named : line.slice(0, line.indexOf(':')));
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { met, missed, code };
}

async function main(): Promise<void> {
  let met = 0;
  const missed: string[] = [];
  let failed = false;
  for (const part of PARTS.filter((p) => !chosen.length || chosen.includes(p.name))) {
    console.log(`\n== bench:isolation, part "${part.name}" (dist/bench/${part.script})`);
    const r = await run(part);
    met += r.met;
    missed.push(...r.missed.map((m) => `${part.name}: ${m}`));
    if (r.code !== 0) {
      failed = true;
      console.log(`part "${part.name}" exited with ${r.code}`);
    }
  }
  console.log(`\nbench:isolation: ${met} of ${met + missed.length} cases met${missed.length ? `; missed: ${missed.join('; ')}` : ''}`);
  process.exit(failed || missed.length ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
