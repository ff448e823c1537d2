/**
 * `--watch`, as `prism mock` has it: when the spec file changes, the engine is rebuilt from it and
 * replaces the running one; the store is kept. A broken edit keeps the last good engine and says
 * why. The file's metadata is polled, which also follows editors that save by renaming a new file
 * over the old one; it is compared with what it was when the served spec was read, so a save that
 * lands before the first poll is not missed.
 */
import { statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import { loadEngine, type Engine, type EngineOptions } from './engine.js';

/** How often the spec file's metadata is read. */
const POLL_MS = 250;

export interface SpecWatch {
  close(): void;
}

type Seen = Pick<Stats, 'mtimeMs' | 'size' | 'ino'> | undefined;

export function watchSpec(path: string, options: EngineOptions, install: (engine: Engine) => void, logger: Logger): SpecWatch {
  let seen: Seen = metadata(() => statSync(path));
  let reload: Promise<void> = Promise.resolve();
  let polling = false;
  const poll = async (): Promise<void> => {
    if (polling) return;
    polling = true;
    try {
      const now = await stat(path).then(pick, () => undefined);
      if (now === undefined || (seen && now.mtimeMs === seen.mtimeMs && now.size === seen.size && now.ino === seen.ino)) return;
      seen = now;
      // One reload at a time, in the order the changes were seen.
      reload = reload.then(async () => {
        try {
          install(await loadEngine({ ...options, spec: path }));
          logger.info({ spec: path }, `the spec changed: reloaded ${path}`);
        } catch (error) {
          logger.error({ spec: path, err: error }, `the spec changed but cannot be served; still serving the last good version: ${(error as Error).message}`);
        }
      });
      await reload;
    } finally {
      polling = false;
    }
  };
  const timer = setInterval(() => void poll(), POLL_MS);
  timer.unref();
  return {
    close: () => clearInterval(timer),
  };
}

function pick(stats: Stats): NonNullable<Seen> {
  return { mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino };
}

function metadata(read: () => Stats): Seen {
  try {
    return pick(read());
  } catch {
    return undefined;
  }
}
