/**
 * Run before every test file (vitest's `setupFiles`), so its hooks belong to each file even when
 * files share modules (`isolate: false`): what a test or a file started through the shared helpers
 * is stopped when that test or file ends, never left to the next file; so is what it set in process.env.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { closeProviders } from './mocks/proxy/test/providers.js';
import { killFileProcesses, killTestProcesses } from './mocks/test/processes.js';

/** process.env as the file found it: what one file sets must not reach the next file's children. */
let envAtStart: Record<string, string | undefined> = {};
beforeAll(() => {
  envAtStart = { ...process.env };
});

afterEach(killTestProcesses);
afterAll(async () => {
  killFileProcesses();
  await closeProviders();
  for (const name of Object.keys(process.env)) if (!(name in envAtStart)) delete process.env[name];
  Object.assign(process.env, envAtStart);
});
