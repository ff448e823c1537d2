/** Spawn → first 200: how long a developer waits between starting a server and using it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './summary.js';
import { startTarget, type StartOptions, type TargetId, type TargetSpec } from './targets.js';

export interface StartupResult {
  target: TargetId;
  samplesMs: number[];
  medianMs: number;
}

/** Starts each target `times` times, alternating targets; every state file starts empty. */
export async function measureStartup(
  specs: readonly TargetSpec[],
  times: number,
  cpus: string | undefined,
  extra: Pick<StartOptions, 'redisUrl'> = {},
): Promise<StartupResult[]> {
  const samples = new Map<TargetId, number[]>(specs.map((s) => [s.id, []]));
  const dir = mkdtempSync(join(tmpdir(), 'plant-bench-startup-'));
  try {
    for (let i = 0; i < times; i++) {
      for (const spec of specs) {
        const target = await startTarget(spec, { ...extra, cpus, stateFile: join(dir, `state-${spec.id}-${i}.log`), timeoutMs: 30_000 });
        samples.get(spec.id)?.push(Math.round(target.spawnToFirst200Ms));
        await target.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return specs.map((spec) => {
    const samplesMs = samples.get(spec.id) ?? [];
    return { target: spec.id, samplesMs, medianMs: median(samplesMs) };
  });
}
