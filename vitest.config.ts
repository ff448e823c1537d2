import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'examples/**/node_modules/**'],
    reporters: ['default', './vitest.closing-line.ts'],
    // The hooks that stop what each test and file started through the shared helpers.
    setupFiles: ['./vitest.cleanup.ts'],
    // Files share a worker's modules instead of each loading them anew: 35-48 % less CPU in the
    // groups measured (docs/benchmarks.md, "Test time, per file"). What a file starts is stopped by
    // its own hooks (vitest.cleanup.ts; shared-modules.test.ts), which also undo its process.env
    // edits; spies are restored by the test that made them.
    isolate: false,
    // One temporary folder per run, removed at its end (what tests leave in it goes with it).
    globalSetup: ['./vitest.tmpdir.ts'],
    // Safety nets, not timings: a test awaits what it waits for (a line, an answer, a closed socket),
    // and these only end one that hangs, sized for a machine ten times slower than a quiet 2-core one.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 60_000 } },
    // Three workers at least: vitest's default (a worker per core but one) is one on a 2-core
    // machine, and files spend part of their time waiting on the mocks, redis-server, wrk and
    // Chromium they start, not on a core: two left 7 % of a quiet 2-core run idle, three 1 %, for
    // the same CPU (the figures: docs/benchmarks.md, "Figures behind the code").
    maxWorkers: Math.max(3, availableParallelism() - 1),
  },
});
