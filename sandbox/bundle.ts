/**
 * `npm run build`'s second step: the start bundle that `npm start`, the package's bin and the
 * image run (dist/start/cli.js). esbuild joins tsc's output of the mock and the packages a start
 * loads into one file, so a start compiles one file instead of resolving, reading and linking
 * hundreds of modules one by one (docs/benchmarks.md, "Start-up"). What the mock imports only when
 * a run needs it (openapi-backend, the Redis store, the proxy, the recorder…) stays a file
 * of its own (code splitting), loaded as before only by the runs that need it.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { PACKAGE_ROOT } from '../package/root.js';

/** Where the bundle goes; its entry is `cli.js`, what `npm start` runs. */
export const START_DIR = join(PACKAGE_ROOT, 'dist', 'start');
/** esbuild's account of the bundle (which inputs each output holds, what each output imports). */
export const START_METAFILE = join(START_DIR, 'meta.json');

/**
 * Loaded from node_modules as they are: a native addon cannot be bundled, and ioredis names its
 * own `__dirname` (which an ES module bundle has not) when a command fails.
 */
export const OUTSIDE_THE_BUNDLE: readonly string[] = ['fs-native-extensions', 'ioredis'];

/** The outputs `from` loads, following static imports only (what loads with them, whatever the run). */
export function staticClosure(metafile: Metafile, from: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const next = [...from];
  for (let file = next.pop(); file !== undefined; file = next.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of metafile.outputs[file]?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) next.push(imported.path);
  }
  return seen;
}

/**
 * Node's modules, imported by the bundle's ES modules, are loaded through `require` as the CommonJS
 * packages inside already load them. An ES import of a builtin builds its namespace by reading every
 * export, getters included: `node:http`'s `WebSocket`, `CloseEvent` and `MessageEvent` load undici,
 * about 90 ms of CPU and 14 MiB of RSS at every start (Node 24), for classes the mock never uses.
 * esbuild's interop reads a CommonJS module's exports only when the code does.
 */
const BUILTINS_BY_REQUIRE: Plugin = {
  name: 'builtins-by-require',
  setup(bundle) {
    bundle.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'import-statement' && isBuiltin(args.path) ? { path: args.path, namespace: 'builtin-by-require' } : undefined));
    bundle.onLoad({ filter: /.*/, namespace: 'builtin-by-require' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

export async function bundleStart(): Promise<Metafile> {
  rmSync(START_DIR, { recursive: true, force: true });
  const result = await build({
    entryPoints: { cli: join(PACKAGE_ROOT, 'dist', 'mocks', 'cli.js') },
    absWorkingDir: PACKAGE_ROOT,
    outdir: START_DIR,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: [...OUTSIDE_THE_BUNDLE],
    plugins: [BUILTINS_BY_REQUIRE],
    // Whitespace and syntax only: names stay, so a stack trace still says which function failed.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    metafile: true,
    // The CommonJS packages inside call require() for Node's modules and for what they load by name.
    banner: { js: "import { createRequire as __startRequire } from 'node:module'; const require = __startRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  writeFileSync(START_METAFILE, JSON.stringify(result.metafile));
  return result.metafile;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await bundleStart();
