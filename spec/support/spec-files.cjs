// Which compiled spec files a run takes, and in what order; read by .mocharc.cjs.
//
// Every dist/spec/**/*.spec.js is taken (a new spec file is picked up wherever it is). The files
// are split by what they touch, read from their imports: a spec whose own code (its file and the
// spec/ helpers it imports) imports no server, process, socket, file or client module is a unit
// spec — it runs in seconds with SPEC=unit. Everything else is integration (SPEC=integration).
//
// Parallel workers take files in list order as they come free, so the list is sorted longest
// first by spec/support/durations.json (per-file wall times of a serial run, written by the
// tally reporter with SPEC_TIMINGS=<file>): the long files start at once and the short ones fill
// the gaps at the end. A file the table does not know yet goes first, as if it were long.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const SPEC_DIR = path.join(ROOT, 'dist/spec');

// Modules that mean I/O: servers, processes, sockets, files, clients of a server.
const IO_MODULES = /^(node:)?(child_process|net|http|https|http2|tls|dgram|fs|fs\/promises|worker_threads|cluster)$|^(ws|undici|ioredis|lmdb|testcontainers|appbase-js.*|@elastic\/.*|@opensearch-project\/.*)$/;
// Gateway code that starts a server or opens a store when a spec calls it.
const IO_LIB = /\/lib\/(server|main|engine\/(http|embedded\/standalone))(\/|\.js$)|\/lib\/engine\/embedded\/(index|engine|store)/;

function specFiles(dir = SPEC_DIR) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== path.join(SPEC_DIR, 'browser/app')) out.push(...specFiles(full));
    } else if (entry.name.endsWith('.spec.js')) out.push(full);
  }
  return out;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(?\s*['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Does this file, or a spec/ helper it imports, import an I/O module? */
function touchesIo(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec.startsWith('.')) {
      const target = path.resolve(path.dirname(file), spec);
      if (IO_LIB.test(target)) return true;
      if (target.startsWith(SPEC_DIR + path.sep) && touchesIo(target, seen)) return true;
    } else if (IO_MODULES.test(spec)) return true;
  }
  return false;
}

function durations() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, 'durations.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** `which`: 'unit', 'integration' or 'all'. Paths relative to the repository root. */
function selectSpecFiles(which = 'all') {
  const known = durations();
  const rel = (f) => path.relative(ROOT, f);
  const files = specFiles()
    .map(rel)
    .filter((f) => which === 'all' || (which === 'unit') === !touchesIo(path.join(ROOT, f)));
  const cost = (f) => (f in known ? known[f] : Infinity);
  return files.sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
}

/** Merges the timing lines of a run (SPEC_TIMINGS) into durations.json; files not in the run keep theirs. */
function recordDurations(timingsFile) {
  const fresh = {};
  for (const line of fs.readFileSync(timingsFile, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const { file, ms } = JSON.parse(line);
    fresh[file] = Math.max(ms, fresh[file] ?? 0); // several top-level suites: the longest span
  }
  const table = { ...durations(), ...fresh };
  const kept = Object.keys(table)
    .filter((file) => fs.existsSync(path.join(ROOT, file)))
    .sort()
    .map((file) => [file, table[file]]);
  fs.writeFileSync(path.join(__dirname, 'durations.json'), JSON.stringify(Object.fromEntries(kept), null, 1) + '\n');
}

module.exports = { selectSpecFiles };

// `node spec/support/spec-files.cjs [all|unit|integration]` lists a selection;
// `node spec/support/spec-files.cjs --record <timings>` updates durations.json.
if (require.main === module) {
  if (process.argv[2] === '--record') recordDurations(process.argv[3]);
  else for (const f of selectSpecFiles(process.argv[2] ?? 'all')) console.log(f);
}
