/**
 * RSS per stored plant: a fresh server seeded with `plants` plants (unique short names, no tag)
 * through the admin seed route in batches, its resident memory read from /proc before and after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rssBytes } from './process-stats.js';
import { postPlant, startTarget, type TargetId, type TargetSpec } from './targets.js';

export interface MemoryResult {
  target: TargetId;
  plants: number;
  rssBeforeBytes: number;
  rssAfterBytes: number;
  bytesPerPlant: number;
  seedSeconds: number;
}

const BATCH = 10_000;
const SETTLE_MS = 3000;

export async function measurePlantMemory(spec: TargetSpec, plants: number, cpus: string | undefined): Promise<MemoryResult> {
  const dir = mkdtempSync(join(tmpdir(), 'plant-bench-memory-'));
  const target = await startTarget(spec, { cpus, stateFile: join(dir, 'state.log') });
  try {
    await sleep(SETTLE_MS);
    const rssBeforeBytes = readRss(target.pid);
    const started = performance.now();
    // The probe that saw the first 200 stored one plant already: seed ids start far from it.
    for (let first = 1; first <= plants; first += BATCH) {
      const batch = [];
      for (let id = first; id < first + BATCH && id <= plants; id++) batch.push({ id, name: `Fern ${id.toString(36)}` });
      const status = await postPlant(target.url, batch, '/__mock/plants');
      if (status !== 200) throw new Error(`seeding ${spec.label}: batch at id ${first} answered ${status}`);
    }
    const seedSeconds = (performance.now() - started) / 1000;
    await sleep(SETTLE_MS);
    const rssAfterBytes = readRss(target.pid);
    return {
      target: spec.id,
      plants,
      rssBeforeBytes,
      rssAfterBytes,
      bytesPerPlant: Math.round((rssAfterBytes - rssBeforeBytes) / plants),
      seedSeconds: Math.round(seedSeconds * 10) / 10,
    };
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function readRss(pid: number): number {
  const bytes = rssBytes(pid);
  if (bytes === undefined) throw new Error(`cannot read the resident memory of process ${pid} (/proc/<pid>/status: Linux only)`);
  return bytes;
}
