/**
 * vitest's globalSetup: the run's temporary files in one folder of its own, removed when the run
 * ends. Tests make their folders under `os.tmpdir()` (state files, specs, recordings, redis-server's
 * and Chromium's profiles); pointing TMPDIR here before the workers start gives the same folder to
 * the workers and to every process a test starts with the run's environment, so a run no longer
 * leaves thousands of folders in /tmp, whatever each test removes itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The prefix of a run's folder under the system's temporary directory. */
export const RUN_TMPDIR_PREFIX = 'plant-store-test-run-';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), RUN_TMPDIR_PREFIX));
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
