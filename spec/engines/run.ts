/**
 * `npm run test:engines`: the HTTP-backend specs (spec/engines/.mocharc.cjs) against Elasticsearch 8
 * and OpenSearch 2 in Docker. Each engine is started once for the whole run and handed to the specs
 * as a BACKENDS target (spec/support/backends.ts) through TEST_ENGINES and TEST_ENGINE_URL_<NAME>.
 * Two mocha passes share the containers: every spec with live searches matched in the gateway
 * (STREAM_MATCHING=local), then the stream specs again with every live search decided by the
 * engine (STREAM_MATCHING=engine).
 *
 * TEST_ENGINES=elasticsearch (or opensearch) picks one; an engine whose TEST_ENGINE_URL_<NAME> is
 * already set is used as it is, without a container. Without Docker: one line, exit 0.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../support/servers.js';
import { containerRuntime, startEngineContainer, type StartedEngine } from './containers.js';
import { REAL_ENGINES, selectedEngines, urlVariable } from './engines.js';

const MOCHA = path.join(REPO_ROOT, 'node_modules', '.bin', 'mocha');
const CONFIG = path.join(REPO_ROOT, 'spec', 'engines', '.mocharc.cjs');

function mocha(env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(MOCHA, ['--config', CONFIG], { cwd: REPO_ROOT, env, stdio: 'inherit' });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

async function main(): Promise<number> {
  const engines = selectedEngines(process.env.TEST_ENGINES || Object.keys(REAL_ENGINES).join(','));
  const toStart = engines.filter((e) => !process.env[urlVariable(e)]);
  if (toStart.length > 0) {
    const runtime = await containerRuntime();
    if (!runtime.available) {
      console.log(`test:engines skipped: no Docker here (${runtime.reason}); it starts ${toStart.map((e) => e.label).join(' and ')} with testcontainers`);
      return 0;
    }
  }

  const env: NodeJS.ProcessEnv = { ...process.env, TEST_ENGINES: engines.map((e) => e.name).join(',') };
  const started: StartedEngine[] = [];
  const stopAll = () => Promise.allSettled(started.map((s) => s.stop()));
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    console.log(`starting ${toStart.map((e) => `${e.label} (${e.image})`).join(', ') || 'no container'}…`);
    await Promise.all(
      toStart.map(async (engine) => {
        const s = await startEngineContainer(engine);
        started.push(s);
        env[urlVariable(engine)] = s.url.href;
      }),
    );
    delete env.STREAM_MATCHING;
    const local = await mocha(env);
    const engineMatching = await mocha({ ...env, STREAM_MATCHING: 'engine' });
    return local || engineMatching;
  } finally {
    await stopAll();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
