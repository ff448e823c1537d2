import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'examples/**/node_modules/**'],
    reporters: ['default', './vitest.closing-line.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
