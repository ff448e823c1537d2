/**
 * A test run keeps its temporary files in one folder of its own (vitest.tmpdir.ts, removed when the
 * run ends): the workers' `os.tmpdir()` and that of the processes tests start are that folder, not
 * the system's, where a run once left thousands of folders.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { RUN_TMPDIR_PREFIX } from '../../vitest.tmpdir.js';
import { runOk } from './processes.js';

it("is the run's own folder in the test's process and in the processes it starts", async () => {
  const runDir = tmpdir();
  expect(basename(runDir).startsWith(RUN_TMPDIR_PREFIX)).toBe(true);
  expect(existsSync(runDir)).toBe(true);
  const made = mkdtempSync(join(tmpdir(), 'run-tmpdir-'));
  expect(dirname(made)).toBe(runDir);
  const childs = await runOk(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], { env: { ...process.env } });
  expect(childs).toBe(runDir);
});
