import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN, REPO_ROOT, spawnEngine, startTestGateway, tempDir, type TestGateway } from '../support/servers.js';
import { missingFrom, shellBlocks, type ShellBlock } from './shell-examples.js';

/**
 * Every shell example of README.md and docs/*.md, run as written: the blocks of a page in order,
 * in one bash, against a fresh gateway of the page's own, with `GW` and `ADMIN` set to it (the
 * README's tour defines them). A command must succeed (`set -e -o pipefail`); where the page shows
 * its answer, the status, the keys and the headers shown are checked (see ./shell-examples.ts).
 */

const PAGES = ['README.md', ...readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** What a page's gateway needs beyond the defaults, as the page says it is started. */
const PAGE_GATEWAYS: Record<string, { env?: Record<string, string>; httpBackend?: boolean }> = {
  // "start it with CORS_ORIGINS=http://localhost:3000" (the tour's browser page)
  'README.md': { env: { CORS_ORIGINS: 'http://localhost:3000' } },
  'docs/access-control.md': { env: { CORS_ORIGINS: 'https://shop.example,http://localhost:3000' } },
  // the page is about the HTTP backend: a standalone engine behind ENGINE_URL
  'docs/running-at-scale.md': { httpBackend: true },
};

const PAGE_TIMEOUT_MS = 60_000;

interface BlockOutcome {
  block: number;
  exit?: number;
  line?: number;
}

interface PageRun {
  remove(): Promise<void>;
  outcomes: Map<number, BlockOutcome>;
  output: string;
  dir: string;
  lineOf: Map<number, number>;
}

/** The curl every example calls: the answer goes where the example sends it, its head and body are kept for the checks. */
const PRELUDE = String.raw`
set -e -o pipefail
__docs_n=0
curl() {
  __docs_n=$((__docs_n + 1))
  local __docs_last="$__docs_dir/call.$BASHPID.$__docs_n"
  # a file, not a variable: CRED=$(curl …) runs the call in a subshell
  echo "$__docs_last" > "$__docs_dir/last"
  echo "$__docs_last" > "$__docs_dir/last.$BASHPID"
  local rc=0
  command curl -sS -D "$__docs_last.head" "$@" | tee "$__docs_last.body" || rc="\${PIPESTATUS[0]}"
  echo >&2
  return "$rc"
}
# the answer is read once the page has run: a stream's body is complete then
__docs_expect() { cp "$__docs_dir/last" "$__docs_dir/expect.$1"; }
# a call in the background (curl … &): wait until it has started, then name it
__docs_expect_bg() { until [ -s "$__docs_dir/last.$2" ]; do sleep 0.05; done; cp "$__docs_dir/last.$2" "$__docs_dir/expect.$1"; }
__docs_begin() { __docs_block=$1; }
__docs_end() { echo "$1 0" >> "$__docs_dir/blocks"; }
trap '__docs_rc=$?; echo "$__docs_block $__docs_rc $LINENO" >> "$__docs_dir/blocks"; kill $(jobs -p) 2>/dev/null || true' ERR
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
`.replaceAll('\\${', '${');

function scriptOf(blocks: ShellBlock[]): { script: string; lineOf: Map<number, number> } {
  const out = PRELUDE.split('\n');
  const lineOf = new Map<number, number>();
  const push = (text: string, pageLine?: number) => {
    out.push(text);
    if (pageLine !== undefined) lineOf.set(out.length, pageLine);
  };
  blocks.forEach((block, b) => {
    if (block.notRun) return;
    push(`__docs_begin ${b}`);
    let c = 0;
    for (const { text, line } of block.source) {
      push(text, line);
      const cmd = block.commands[c];
      if (cmd && line === cmd.line + cmd.lines.length - 1) {
        // every call is checked: the status shown, else a success (2xx/3xx)
        if (/(^|[\s|($])curl\s/.test(cmd.lines.join('\n'))) push(/&\s*(#.*)?$/.test(text) ? `__docs_expect_bg ${b}.${c} $!` : `__docs_expect ${b}.${c}`);
        c++;
      }
    }
    push(`__docs_end ${b}`);
  });
  return { script: out.join('\n') + '\n', lineOf };
}

async function runPage(page: string, blocks: ShellBlock[], env: Record<string, string>): Promise<PageRun> {
  const work = await tempDir('gw-docs-');
  const dir = path.join(work.dir, 'work');
  const state = path.join(work.dir, 'state');
  await mkdir(dir);
  await mkdir(state);
  const { script, lineOf } = scriptOf(blocks);
  await writeFile(path.join(state, 'page.sh'), script);
  let output = '';
  const exit = await new Promise<number | null>((resolve) => {
    const child = spawn('bash', [path.join(state, 'page.sh')], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, LANG: 'C.UTF-8', ...env, __docs_dir: state },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      output += `\n[${page}: still running after ${PAGE_TIMEOUT_MS} ms, stopped]`;
      process.kill(-child.pid!, 'SIGKILL');
    }, PAGE_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  const outcomes = new Map<number, BlockOutcome>();
  const file = path.join(state, 'blocks');
  if (existsSync(file)) {
    for (const row of (await readFile(file, 'utf8')).trim().split('\n')) {
      const [block, rc, line] = row.split(' ').map(Number);
      if (!outcomes.has(block)) outcomes.set(block, { block, exit: rc, line: line ? lineOf.get(line) : undefined });
    }
  }
  if (exit !== 0 && outcomes.size === 0) output += `\n[bash exited ${exit}]`;
  return { outcomes, output, dir: state, lineOf, remove: work.remove };
}

function answerOf(dir: string, id: string): { status?: number; head: string; body: string } {
  const call = readFileSync(path.join(dir, `expect.${id}`), 'utf8').trim();
  const head = readFileSync(`${call}.head`, 'utf8');
  let body = readFileSync(`${call}.body`, 'utf8');
  // with curl -i the head is in the body too
  if (/^HTTP\/[\d.]+ \d{3}/.test(body)) body = body.slice(body.lastIndexOf('\r\n\r\n') + 4);
  const statuses = [...head.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)];
  return { status: statuses.length ? Number(statuses[statuses.length - 1][1]) : undefined, head, body };
}

/** The first JSON value of a body: the whole answer, or a stream's first message (concatenated JSON, NDJSON, SSE data). */
function firstJson(body: string): unknown {
  const text = body.replace(/^(?::[^\n]*\n|id:[^\n]*\n|event:[^\n]*\n|data: ?)/gm, '').trim();
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return JSON.parse(text.slice(0, i + 1));
  }
  return JSON.parse(text);
}

describe('docs examples: the tools they use', () => {
  for (const tool of ['bash', 'curl', 'jq']) {
    it(`${tool} is installed (make test installs jq as root; else apt-get install -y ${tool})`, async () => {
      const found = await new Promise<boolean>((resolve) => {
        spawn('bash', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).once('exit', (code) => resolve(code === 0));
      });
      expect(found, `${tool} is not on PATH`).to.equal(true);
    });
  }
});

for (const page of PAGES) {
  const blocks = shellBlocks(readFileSync(path.join(REPO_ROOT, page), 'utf8'));
  if (blocks.length === 0) continue;
  describe(`docs examples: ${page}`, function () {
    this.timeout(PAGE_TIMEOUT_MS + 30_000);
    let run: PageRun;
    let stopServers: () => Promise<void> = async () => {};

    before(async function () {
      if (blocks.every((b) => b.notRun)) return;
      const setup = PAGE_GATEWAYS[page] ?? {};
      let gateway: TestGateway;
      if (setup.httpBackend) {
        const data = await tempDir('gw-docs-engine-');
        const engine = await spawnEngine(data.dir, { ENGINE_AUTH: 'elastic:upstream-secret' });
        const url = new URL(engine.url);
        url.username = 'elastic';
        url.password = 'upstream-secret';
        gateway = await startTestGateway({ ENGINE_URL: url.href, ...setup.env });
        stopServers = async () => {
          await gateway.close();
          await engine.stop();
          await data.remove();
        };
      } else {
        gateway = await startTestGateway(setup.env);
        stopServers = () => gateway.close();
      }
      run = await runPage(page, blocks, { GW: gateway.url.replace(/\/$/, ''), ADMIN: `${ADMIN.user}:${ADMIN.password}` });
    });

    after(async () => {
      await run?.remove();
      await stopServers();
    });

    blocks.forEach((block, b) => {
      const title = `${page}:${block.line}`;
      if (block.notRun) {
        it.skip(`${title} (not run: ${block.notRun})`);
        return;
      }
      it(`${title} runs as written`, function () {
        const outcome = run.outcomes.get(b);
        const where = outcome?.line ? ` (line ${outcome.line})` : '';
        expect(outcome, `the block was not reached (an earlier block failed)`).to.not.equal(undefined);
        expect(outcome!.exit, `a command failed${where}; the page's last output:\n${run.output.slice(-3000)}`).to.equal(0);
        block.commands.forEach((cmd, c) => {
          if (!existsSync(path.join(run.dir, `expect.${b}.${c}`))) return;
          const answer = answerOf(run.dir, `${b}.${c}`);
          const shown = cmd.expectation;
          if (shown?.status === undefined) {
            expect(answer.status, `${page}:${cmd.line} shows no status, so it must succeed; got ${answer.status}: ${answer.body.slice(0, 500)}`).to.be.below(400);
          }
          if (!shown) return;
          const at = `${page}:${cmd.line} shows ${JSON.stringify(shown.text)}`;
          if (shown.status !== undefined) expect(answer.status, `${at}; got ${answer.status}: ${answer.body.slice(0, 500)}`).to.equal(shown.status);
          for (const header of shown.headers) expect(answer.head.toLowerCase(), `${at}; the head was:\n${answer.head}`).to.include(`\n${header.toLowerCase()}:`);
          if (shown.shape) {
            let actual: unknown;
            try {
              actual = firstJson(answer.body);
            } catch {
              expect.fail(`${at}; the answer is not JSON: ${answer.body.slice(0, 500)}`);
            }
            expect(missingFrom(actual, shown.shape), `${at}; got ${answer.body.slice(0, 800)}`).to.deep.equal([]);
          }
        });
      });
    });
  });
}
