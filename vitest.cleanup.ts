/**
 * Run before every test file (vitest's `setupFiles`), so its hooks belong to each file even when
 * files share modules (`isolate: false`): what a test or a file started through the shared helpers
 * is stopped when that test or file ends, never left to the next file.
 */
import { afterAll, afterEach } from 'vitest';
import { closeProviders } from './mocks/proxy/test/providers.js';
import { killFileProcesses, killTestProcesses } from './mocks/test/processes.js';

afterEach(killTestProcesses);
afterAll(async () => {
  killFileProcesses();
  await closeProviders();
});
