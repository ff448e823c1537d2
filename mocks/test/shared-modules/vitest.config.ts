/**
 * Two files run in one worker sharing their modules (`isolate: false`), with the repository's
 * cleanup hooks: what shared-modules.test.ts runs to see that each file's processes and providers
 * are stopped when that file ends, not only the first file's.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.file.ts'],
    setupFiles: [fileURLToPath(new URL('../../../vitest.cleanup.ts', import.meta.url))],
    isolate: false,
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 60_000 } },
  },
});
