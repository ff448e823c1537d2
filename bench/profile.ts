#!/usr/bin/env node
/**
 * `npm run bench:profile [-- --target memory --duration 8 --scenario valid]`: runs one server
 * under `node --cpu-prof` with the bench's wrk load, then prints where its CPU went, as
 * microseconds per request (self time by function, and by package), so two profiles of
 * different servers or commits compare directly. The .cpuprofile is kept for DevTools.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { REDIS_SERVER_PATH, RedisServer } from '../mocks/test/redis-server.js';
import { runLoad, type Scenario } from './load.js';
import { hasCommand } from './machine.js';
import { availableTargets, ROOT, startTarget, type TargetId } from './targets.js';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileLine {
  name: string;
  usPerRequest: number;
  share: number;
}

/** Self time per function and per package, in µs per request. */
export function summariseProfile(profile: CpuProfile, requests: number, top = 30): { functions: ProfileLine[]; packages: ProfileLine[]; busyUsPerRequest: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    if (byId.get(id)?.callFrame.functionName === '(idle)') return;
    self.set(id, (self.get(id) ?? 0) + dt);
    busy += dt;
  });
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = (byId.get(id) as CpuProfile['nodes'][number]).callFrame;
    const where = url.replace(/^.*node_modules\//, '').replace(`file://${ROOT}/`, '');
    const key = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + us);
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.startsWith('node:') ? 'node (internal JS)' : url ? 'project' : 'native, GC and V8');
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  }
  const lines = (m: Map<string, number>, n: number): ProfileLine[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, usPerRequest: us / requests, share: us / busy }));
  return { functions: lines(functions, top), packages: lines(packages, 20), busyUsPerRequest: busy / requests };
}

async function main(): Promise<void> {
  const command = new Command('bench:profile')
    .addOption(new Option('--target <id>', 'server to profile').default('memory'))
    .addOption(new Option('--scenario <name>', 'valid or mixed').default('valid'))
    .addOption(new Option('--duration <s>', 'seconds of load').default(8).argParser(Number))
    .addOption(new Option('--connections <n>', 'wrk connections').default(50).argParser(Number))
    .addOption(new Option('--top <n>', 'functions to list').default(30).argParser(Number));
  command.parse(process.argv.slice(2), { from: 'user' });
  const o = command.opts<{ target: TargetId; scenario: Scenario; duration: number; connections: number; top: number }>();
  const spec = availableTargets(undefined, REDIS_SERVER_PATH).targets.find((t) => t.id === o.target);
  if (!spec) throw new Error(`no target ${o.target} in this checkout`);
  if ((spec.replicas ?? 1) > 1) throw new Error(`${o.target} runs several processes; profile one replica (--target redis)`);
  const dir = join(ROOT, 'bench/results', `profile-${o.target}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const [node, ...rest] = spec.command;
  const profiled = { ...spec, command: [node as string, '--cpu-prof', `--cpu-prof-dir=${dir}`, ...rest] };
  // Pinned as `npm run bench` pins them, where taskset exists.
  const [serverCpu, loadCpu] = hasCommand('taskset', ['-V']) ? ['0', '1'] : [undefined, undefined];
  // A target on Redis gets its own redis-server, beside wrk as in the bench.
  const redis = spec.redis ? await RedisServer.start({ persistence: 'aof-everysec' }) : undefined;
  if (redis && loadCpu) spawnSync('taskset', ['-a', '-p', '-c', loadCpu, String(redis.pid)], { stdio: 'ignore' });
  const running = await startTarget(profiled, { cpus: serverCpu, stateFile: join(dir, 'state.log'), redisUrl: redis?.url }).catch(async (error: unknown) => {
    await redis?.stop();
    throw error;
  });
  let requests = 0;
  try {
    const warm = await runLoad({ url: running.url, scenario: o.scenario, idBase: 5e12, durationSeconds: 2, connections: o.connections, cpus: loadCpu });
    const load = await runLoad({ url: running.url, scenario: o.scenario, idBase: 6e12, durationSeconds: o.duration, connections: o.connections, cpus: loadCpu, serverPid: running.pid });
    requests = warm.requests + load.requests + 1;
    process.stdout.write(`${o.target} under --cpu-prof: ${Math.round(load.requestsPerSecond)} req/s, server cpu ${load.serverCpu}\n`);
  } finally {
    // SIGTERM: the servers exit through process.exit, which writes the profile.
    await running.stop();
    await redis?.stop();
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
  const summary = summariseProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, requests, o.top);
  const row = (l: ProfileLine): string => `${l.usPerRequest.toFixed(2).padStart(7)} µs  ${(100 * l.share).toFixed(1).padStart(5)} %  ${l.name}`;
  process.stdout.write(`busy CPU per request (whole run, start-up included): ${summary.busyUsPerRequest.toFixed(1)} µs\n\nself time by package\n`);
  process.stdout.write(`${summary.packages.map(row).join('\n')}\n\nself time by function\n${summary.functions.map(row).join('\n')}\n\nprofile: ${join(dir, file)}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() as string)) {
  main().catch((error: unknown) => {
    process.stderr.write(`bench:profile: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  });
}
