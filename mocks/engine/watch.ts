/**
 * `--watch`, as `prism mock` has it: when the spec file changes, the engine is rebuilt from it and
 * replaces the running one; the store is kept. A broken edit keeps the last good engine and says
 * why. The file's metadata is polled (fs.watchFile), which also follows editors that save by
 * renaming a new file over the old one.
 */
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import type { Logger } from 'pino';
import { loadEngine, type Engine, type EngineOptions } from './engine.js';

/** How often the spec file's metadata is read. */
const POLL_MS = 250;

export interface SpecWatch {
  /** Resolves once any reload under way has finished. */
  settled(): Promise<void>;
  close(): void;
}

export function watchSpec(path: string, options: EngineOptions, install: (engine: Engine) => void, logger: Logger): SpecWatch {
  let reload: Promise<void> = Promise.resolve();
  const changed = (current: Stats, previous: Stats): void => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size && current.ino === previous.ino) return;
    // One reload at a time, in the order the changes were seen.
    reload = reload.then(async () => {
      try {
        install(await loadEngine({ ...options, spec: path }));
        logger.info({ spec: path }, `the spec changed: reloaded ${path}`);
      } catch (error) {
        logger.error({ spec: path, err: error }, `the spec changed but cannot be served; still serving the last good version: ${(error as Error).message}`);
      }
    });
  };
  watchFile(path, { interval: POLL_MS, persistent: false }, changed);
  return {
    settled: () => reload,
    close: () => unwatchFile(path, changed),
  };
}
