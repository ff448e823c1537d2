/**
 * The cleanup hooks (vitest.cleanup.ts) belong to every file, not to the first that imported the
 * helpers: two files run in one worker sharing their modules, each starting processes and a
 * provider and setting process.env, and none of it outlives its file (the second file checks the
 * first's; this test, the second's once the run is over).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { PATIENT_MS, run } from './processes.js';
import { alive, readStarted } from './shared-modules/started.js';

const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const CONFIG = fileURLToPath(new URL('shared-modules/vitest.config.ts', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'shared-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('stops the processes and providers of every file when files share their modules', async () => {
  const started = join(dir, 'started.jsonl');
  const { code, output } = await run(process.execPath, [VITEST, 'run', '--config', CONFIG], { env: { ...process.env, STARTED_FILE: started } }, 2 * PATIENT_MS);
  expect(code, output).toBe(0);
  const { pids, providerPorts } = readStarted(started);
  expect(pids).toHaveLength(4);
  expect(providerPorts).toHaveLength(2);
  for (const pid of pids) await expect.poll(() => alive(pid)).toBe(false);
});
