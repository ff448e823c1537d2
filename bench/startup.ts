/**
 * Spawn → first 200: how long a developer waits between starting a server and using it, measured
 * as a ratio to a bare node:http server spawned the same way in the same round (an absolute figure
 * does not carry from one machine, or one load, to another). Also the time `npm start` takes to
 * print "listening", as a user runs it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './summary.js';
import { ROOT, serverEnvironment, startTarget, type StartOptions, type TargetId, type TargetSpec } from './targets.js';

export interface StartupResult {
  target: TargetId;
  samplesMs: number[];
  medianMs: number;
  /** Each start ÷ the bare server's start of the same round, median over rounds (undefined for the bare server). */
  ratioToLimit?: number;
}

/** Starts each target `times` times, alternating targets; every state file starts empty. */
export async function measureStartup(specs: readonly TargetSpec[], times: number, cpus: string | undefined, extra: Pick<StartOptions, 'redisUrl'> = {}): Promise<StartupResult[]> {
  const samples = new Map<TargetId, number[]>(specs.map((s) => [s.id, []]));
  const dir = mkdtempSync(join(tmpdir(), 'plant-bench-startup-'));
  try {
    for (let i = 0; i < times; i++) {
      for (const spec of specs) {
        // A docker pull or first run may take long: the image gets more time than a process.
        const timeoutMs = spec.id === 'image' ? 300_000 : 30_000;
        const target = await startTarget(spec, { ...extra, cpus, stateFile: join(dir, `state-${spec.id}-${i}.log`), timeoutMs });
        samples.get(spec.id)?.push(Math.round(target.spawnToFirst200Ms));
        await target.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const limit = samples.get('limit');
  return specs.map((spec) => {
    const samplesMs = samples.get(spec.id) ?? [];
    return { target: spec.id, samplesMs, medianMs: median(samplesMs), ratioToLimit: spec.id === 'limit' ? undefined : roundRatios(samplesMs, limit) };
  });
}

/** Each sample ÷ the limit's sample of the same round; the median, to two decimals. */
export function roundRatios(samples: readonly number[], limit: readonly number[] | undefined): number | undefined {
  if (!limit?.length) return undefined;
  const ratios = samples.flatMap((sample, i) => (limit[i] ? [sample / (limit[i] as number)] : []));
  return ratios.length ? Math.round(median(ratios) * 100) / 100 : undefined;
}

export interface NpmStartResult {
  samplesMs: number[];
  medianMs: number;
}

/**
 * `npm start -- --port 0` as a user runs it (its pre-scripts included), from spawn to the
 * "listening on" line; then its process group is stopped. `times` starts, one after another.
 */
export async function measureNpmStart(times: number, cpus: string | undefined, timeoutMs = 180_000): Promise<NpmStartResult> {
  const samplesMs: number[] = [];
  for (let i = 0; i < times; i++) samplesMs.push(Math.round(await timeToListening(cpus, timeoutMs)));
  return { samplesMs, medianMs: median(samplesMs) };
}

async function timeToListening(cpus: string | undefined, timeoutMs: number): Promise<number> {
  const args = ['start', '--', '--port', '0'];
  const [command, ...rest] = cpus ? ['taskset', '-c', cpus, 'npm', ...args] : ['npm', ...args];
  const started = performance.now();
  // Its own process group: npm, the shell it runs the script in and node are stopped together.
  const child = spawn(command as string, rest, { cwd: ROOT, env: serverEnvironment(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  let output = '';
  let gone = false;
  void exited.then(() => (gone = true));
  try {
    return await new Promise<number>((resolve, fail) => {
      const timer = setTimeout(() => fail(new Error(`npm start printed no "listening on" line within ${timeoutMs} ms:\n${output.slice(-2000)}`)), timeoutMs);
      const onData = (chunk: Buffer): void => {
        output += chunk;
        if (/listening on http/.test(output)) {
          clearTimeout(timer);
          resolve(performance.now() - started);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      void exited.then(() => {
        clearTimeout(timer);
        fail(new Error(`npm start exited before listening:\n${output.slice(-2000)}`));
      });
    });
  } finally {
    if (!gone && child.pid) {
      signalGroup(child.pid, 'SIGTERM');
      const guard = setTimeout(() => signalGroup(child.pid as number, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(guard);
    }
  }
}

/** Signals the process group the bench started; one already gone is no error. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
