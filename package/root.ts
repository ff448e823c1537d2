/**
 * Where the package's own files are (the bundled spec, the inspector's assets, the fixtures,
 * package.json), wherever its code runs from: the TypeScript sources (vitest), tsc's output in
 * dist/ and the start bundle in dist/start/ (sandbox/bundle.ts) sit at different depths, so the
 * root is the nearest directory above this module that holds a package.json.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest directory above `file` holding a package.json. */
export function packageRootOf(file: string): string {
  for (let dir = dirname(file); ;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json in any directory above ${file}`);
    dir = parent;
  }
}

export const PACKAGE_ROOT = packageRootOf(fileURLToPath(import.meta.url));

/** A path inside the package, e.g. `packageFile('spec', 'plant-store.openapi.yaml')`. */
export function packageFile(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}

/**
 * Where `npm start` keeps what it may reuse on the next start (Node's compile cache, the spec's parsed
 * value): beside the package's own dependencies, not in the shared temporary directory another user
 * could write to.
 */
export function cacheDirectory(): string {
  return packageFile('node_modules', '.cache', 'plant-store-mock');
}
