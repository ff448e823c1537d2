/**
 * `.ci/run`'s runs on each supported Node after the whole suite: only the Node-specific test files
 * (vitest.node-specific.ts says which and why), with the settings of vitest.config.ts.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';
import { nodeSpecificFiles } from './vitest.node-specific.js';

// In place of the base's include, not merged with it (mergeConfig would add the lists up).
export default defineConfig({ ...base, test: { ...base.test, include: nodeSpecificFiles(fileURLToPath(new URL('.', import.meta.url))) } });
