import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'examples/**/node_modules/**'],
    reporters: ['default', './vitest.closing-line.ts'],
    // Safety nets, not timings: a test awaits what it waits for (a line, an answer, a closed socket),
    // and these only end one that hangs, sized for a machine ten times slower than a quiet 2-core one.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 60_000 } },
    // The default of vitest run: one worker per core but one. Each test file also starts mocks,
    // redis-server or Chromium beside it, so more workers would only oversubscribe a small machine.
  },
});
