/**
 * `npm start`'s entry (mocks/cli.ts) turns Node's compile cache on where Node has one (22.1 and
 * later): a start leaves V8's compiled code for this Node version in the package's own
 * node_modules/.cache, and the next start reads it instead of compiling every module again. Beside
 * it, on every Node, the spec's parsed value (openapi/document/parsed-text-cache.ts), which a start
 * on an edited spec never takes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

describe("the spec's parsed value", () => {
  const spec = (greeting: string): string =>
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Kept between starts', version: '1' },
      paths: { '/greeting': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { example: { greeting } } } } } } } },
    });
  const kept = (text: string): boolean => {
    try {
      return readdirSync(CACHE).some((name) => name.startsWith('parsed-') && readFileSync(join(CACHE, name), 'utf8') === JSON.stringify(JSON.parse(text)));
    } catch {
      return false;
    }
  };

  it('is kept beside the compile cache by a start, and a start on the edited spec answers the edit', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'parsed-start-'));
    const file = join(directory, 'openapi.yaml');
    // A text of its own (no other test's start may have kept it): the run's time in it.
    const first = spec(`hello ${Date.now()} ${process.pid}`);
    writeFileSync(file, first);
    expect(kept(first)).toBe(false);
    for (const [text, greeting] of [
      [first, JSON.parse(first).paths['/greeting'].get.responses[200].content['application/json'].example.greeting],
      [first, JSON.parse(first).paths['/greeting'].get.responses[200].content['application/json'].example.greeting],
      [spec('edited'), 'edited'],
    ] as const) {
      writeFileSync(file, text);
      const mock = await startMockProcess(['--spec', file]);
      try {
        expect(await (await fetch(`${mock.url}/greeting`)).json()).toEqual({ greeting });
      } finally {
        mock.child.kill('SIGTERM');
        await mock.exit;
      }
      expect(kept(text)).toBe(true);
    }
  });
});
