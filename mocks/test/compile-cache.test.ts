/**
 * `npm start`'s entry (mocks/cli.ts) turns Node's compile cache on where Node has one (22.1 and
 * later): a start leaves V8's compiled code for this Node version in the package's own
 * node_modules/.cache, and the next start reads it instead of compiling every module again.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { START_METAFILE, staticClosure } from '../../sandbox/bundle.js';
import { MOCK_START } from '../node-flags.js';
import { startMockProcess } from './processes.js';

/** The start bundle's files a start loads once the cache is on: the mock's and what it imports, less what the entry loaded before. */
function loadedAfterTheCacheIsOn(): number {
  const metafile = JSON.parse(readFileSync(START_METAFILE, 'utf8')) as Metafile;
  const main = Object.keys(metafile.outputs).find((file) => metafile.outputs[file]?.entryPoint === 'dist/mocks/main.js') as string;
  const before = staticClosure(metafile, [MOCK_START]);
  return [...staticClosure(metafile, [main])].filter((file) => !before.has(file)).length;
}

const CACHE = join(import.meta.dirname, '../../node_modules/.cache/plant-store-mock');
const HAS_CACHE = 'enableCompileCache' in module;

describe('the compile cache', () => {
  it.skipIf(!HAS_CACHE)(`is written for ${process.version} by a start and its shutdown, beside the package's dependencies`, async () => {
    const mine = (): string[] => {
      try {
        return readdirSync(CACHE).filter((name) => name.startsWith(`${process.version}-`));
      } catch {
        return [];
      }
    };
    for (const name of mine()) rmSync(join(CACHE, name), { recursive: true, force: true });
    const mock = await startMockProcess();
    mock.child.kill('SIGTERM');
    expect(await mock.exit).toBe(0);
    const written = mine();
    expect(written).toHaveLength(1);
    const expected = loadedAfterTheCacheIsOn();
    expect(expected).toBeGreaterThan(1);
    expect(readdirSync(join(CACHE, written[0] as string)).length).toBeGreaterThanOrEqual(expected);
  });

  it.skipIf(HAS_CACHE)(`is not there on ${process.version} (Node 22.1 and later have it): the mock starts without it`, async () => {
    const mock = await startMockProcess();
    mock.child.kill('SIGTERM');
    expect(await mock.exit).toBe(0);
  });
});
