// The processes the specs spawn (the gateway, lib/main, and the standalone engine) load one bundled
// file each, dist/bundle/lib/main.js and dist/bundle/lib/engine/embedded/standalone.js, instead of
// the ~700 modules of dist/lib and the ~650 CommonJS files of their packages: loading those one by
// one was most of a spawned gateway's start (2.7–3.3 CPU-s), and the suite spawns many.
// spec/support/servers.ts `distEntry` starts the bundle when there is one (SPEC_UNBUNDLED=1: the
// modules of dist/lib, as `make run` starts them). Built by the Makefile with the per-file transpile.
//
// Built from the TypeScript sources, with source maps beside the bundles (`node
// --enable-source-maps` names lib/*.ts in stack traces). What is not bundled stays a package
// loaded from node_modules as before: native add-ons (lmdb, msgpackr), packages that read files
// beside themselves (QuickJS's wasm), pino's transports (worker threads), and the packages the
// gateway loads only when asked (createRequire: ioredis, yaml, ajv, pino-pretty). Each module's
// `import.meta.url` is the URL of its compiled file in dist/lib, not the bundle's, so what a module
// finds beside itself (the worker_threads entry files, the console's dist/, the engine files whose
// hash versions snapshots) is where it always was.
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'dist');
const ENTRIES = ['lib/main.ts', 'lib/engine/embedded/standalone.ts'];
const EXTERNAL = ['lmdb', 'msgpackr', 'msgpackr-extract', 'quickjs-emscripten', 'quickjs-emscripten-core', '@jitl/*',
  'pino', 'pino-pretty', 'thread-stream', 'ioredis', 'yaml', 'ajv'];

/** `import.meta.url` of a gateway module in the bundle: its own compiled file's URL, relative to the bundle's. */
function moduleUrlPlugin(outFile) {
  return {
    name: 'module-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
        const compiled = path.join(DIST, path.relative(ROOT, args.path)).replace(/\.ts$/, '.js');
        const rel = path.relative(path.dirname(outFile), compiled).split(path.sep).join('/');
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
}

await Promise.all(ENTRIES.map((entry) => {
  const outfile = path.join(DIST, 'bundle', entry.replace(/\.ts$/, '.js'));
  return build({
    entryPoints: [path.join(ROOT, entry)],
    outfile,
    bundle: true,
    external: EXTERNAL,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    keepNames: true, // class and function names as written (error types, logs)
    logLevel: 'warning',
    // the CommonJS packages inside an ES module bundle require Node's built-ins through this
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    plugins: [moduleUrlPlugin(outfile)],
  });
}));
