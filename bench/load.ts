/**
 * One load run: wrk (bench/wrk/plants.lua) against one server for a fixed time, with the load
 * generator pinned to its own core. wrk is C with an event loop per thread, so one thread on one
 * core drives a Node server well past its limit; a Node-based generator (autocannon) would
 * share Node's per-request costs and cap the bare-node:http limit it is meant to measure.
 */
import { spawn } from 'node:child_process';
import { packageFile } from '../package/root.js';
import { cpuSeconds } from './process-stats.js';
import { BENCH_TOKEN } from './targets.js';

export type Scenario = 'valid' | 'mixed';

export const LUA_SCRIPT = packageFile('bench/wrk/plants.lua');

export interface LoadOptions {
  url: string;
  scenario: Scenario;
  /** First id of this run; runs against the same server must use bases 1e9 apart. */
  idBase: number;
  durationSeconds: number;
  connections: number;
  /** CPU list for `taskset -c` (the load generator's core), or undefined to run unpinned. */
  cpus?: string;
  /** The server's pid, to read how much CPU it used during the run. */
  serverPid?: number;
  /** Another wrk script and its arguments (bench/crud.ts), in place of plants.lua's id base, scenario and token. */
  script?: { path: string; args: readonly string[] };
  /**
   * Milliseconds each connection waits before each request (wrk's `delay`, read by both scripts):
   * the harness tests check what a run sends and counts, not how fast, and need not take two
   * cores for it. Unset (0) in the bench: as fast as the server answers.
   */
  paceMs?: number;
}

/** What wrk's `done` hook reports (see bench/wrk/plants.lua). */
export interface WrkReport {
  requests: number;
  durationUs: number;
  bytes: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
  non2xx: number;
  latencyUs: { p50: number; p90: number; p99: number; max: number; mean: number };
  statuses: Record<string, number>;
}

export interface LoadResult extends WrkReport {
  scenario: Scenario;
  requestsPerSecond: number;
  /** Server CPU seconds per wall second during the run (1 = one core busy all the time). */
  serverCpu: number | undefined;
  /** Server CPU seconds used during the run (user + system, every replica's summed). */
  serverCpuSeconds?: number;
  /** Load generator CPU seconds per wall second: near 1 would mean wrk, not the server, was the limit. */
  loadGeneratorCpu: number | undefined;
  /** redis-server CPU seconds per wall second, for a target on Redis. */
  redisCpu?: number;
}

/** Runs wrk once; rejects when wrk fails or overruns its time by more than 20 s. */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const wrkArgs = [
    '-t1',
    `-c${options.connections}`,
    `-d${options.durationSeconds}s`,
    '--timeout',
    '10s',
    '-s',
    options.script?.path ?? LUA_SCRIPT,
    options.url,
    '--',
    ...(options.script?.args ?? [String(options.idBase), options.scenario, BENCH_TOKEN]),
  ];
  const [command, args] = options.cpus ? ['taskset', ['-c', options.cpus, 'wrk', ...wrkArgs]] : ['wrk', wrkArgs];
  const serverCpuBefore = options.serverPid ? cpuSeconds(options.serverPid) : undefined;
  const started = performance.now();
  return new Promise((resolve, fail) => {
    // Set either way, so a WRK_PACE_MS in the shell cannot slow what the bench measures.
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WRK_PACE_MS: String(options.paceMs ?? 0) } });
    let out = '';
    let err = '';
    let wrkCpu: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    // wrk's CPU can only be read while it runs: sampled every 50 ms, the last reading is at most
    // 50 ms short of the whole run (about 1 % of a 4 s run).
    const sampler = setInterval(() => {
      if (child.pid) wrkCpu = cpuSeconds(child.pid) ?? wrkCpu;
    }, 50);
    const guard = setTimeout(() => child.kill('SIGKILL'), (options.durationSeconds + 20) * 1000);
    child.on('error', (error) => {
      clearInterval(sampler);
      clearTimeout(guard);
      fail(error);
    });
    child.on('close', (code) => {
      clearInterval(sampler);
      clearTimeout(guard);
      const wallSeconds = (performance.now() - started) / 1000;
      const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
      if (code !== 0 || !line) {
        fail(new Error(`wrk ${args.join(' ')} exited with ${code}: ${err.trim() || out.trim()}`));
        return;
      }
      const report = parseWrkReport(line);
      const serverCpuAfter = options.serverPid ? cpuSeconds(options.serverPid) : undefined;
      const serverCpuUsed = serverCpuBefore !== undefined && serverCpuAfter !== undefined ? serverCpuAfter - serverCpuBefore : undefined;
      resolve({
        ...report,
        scenario: options.scenario,
        requestsPerSecond: report.requests / (report.durationUs / 1e6),
        serverCpu: serverCpuUsed === undefined ? undefined : round(serverCpuUsed / wallSeconds, 2),
        serverCpuSeconds: serverCpuUsed === undefined ? undefined : round(serverCpuUsed, 2),
        loadGeneratorCpu: wrkCpu === undefined ? undefined : round(wrkCpu / (report.durationUs / 1e6), 2),
      });
    });
  });
}

export function parseWrkReport(line: string): WrkReport {
  return JSON.parse(line.slice('WRK_JSON '.length)) as WrkReport;
}

/**
 * Answers that are wrong for the scenario, plus socket errors and timeouts. Valid-only load
 * must get 200 every time; mixed load may also get the 400 and 401 its bad requests earn
 * (or, for a server that answers schema failures with 422, as Prism does, 422).
 */
export function countErrors(result: WrkReport, scenario: Scenario, invalidStatuses: readonly number[] = [400]): number {
  const allowed = new Set(scenario === 'valid' ? [200] : [200, 401, ...invalidStatuses]);
  let errors = result.socketErrors.connect + result.socketErrors.read + result.socketErrors.write + result.socketErrors.timeout;
  for (const [status, count] of Object.entries(result.statuses)) if (!allowed.has(Number(status))) errors += count;
  return errors;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/**
 * Runs one wrk per URL at the same time (replicas of one target, each loaded by its own wrk with
 * the same connections) and adds them up: requests, statuses and errors summed, req/s the sum of
 * each run's, CPU summed over the replicas and over the wrk processes. Percentiles cannot be
 * merged from two reports, so each latency is the worse of the runs'.
 */
export async function runLoads(urls: readonly string[], serverPids: readonly number[], options: Omit<LoadOptions, 'url' | 'serverPid'>): Promise<LoadResult> {
  // Ids of the runs 1e8 apart within the run's block of 1e9, so no two wrk send one id.
  const results = await Promise.all(urls.map((url, i) => runLoad({ ...options, url, serverPid: serverPids[i], idBase: options.idBase + i * 1e8 })));
  return mergeLoads(results);
}

export function mergeLoads(results: readonly LoadResult[]): LoadResult {
  const [first, ...rest] = results;
  if (!first) throw new Error('no load results to merge');
  if (!rest.length) return first;
  const sum = (pick: (result: LoadResult) => number): number => results.reduce((total, result) => total + pick(result), 0);
  const worst = (pick: (result: LoadResult) => number): number => Math.max(...results.map(pick));
  const sumDefined = (pick: (result: LoadResult) => number | undefined): number | undefined =>
    results.some((result) => pick(result) === undefined)
      ? undefined
      : round(
          sum((result) => pick(result) as number),
          2,
        );
  const statuses: Record<string, number> = {};
  for (const result of results) for (const [status, count] of Object.entries(result.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  return {
    scenario: first.scenario,
    requests: sum((r) => r.requests),
    durationUs: worst((r) => r.durationUs),
    bytes: sum((r) => r.bytes),
    socketErrors: {
      connect: sum((r) => r.socketErrors.connect),
      read: sum((r) => r.socketErrors.read),
      write: sum((r) => r.socketErrors.write),
      timeout: sum((r) => r.socketErrors.timeout),
    },
    non2xx: sum((r) => r.non2xx),
    latencyUs: {
      p50: worst((r) => r.latencyUs.p50),
      p90: worst((r) => r.latencyUs.p90),
      p99: worst((r) => r.latencyUs.p99),
      max: worst((r) => r.latencyUs.max),
      mean:
        sum((r) => r.latencyUs.mean * r.requests) /
        Math.max(
          1,
          sum((r) => r.requests),
        ),
    },
    statuses,
    requestsPerSecond: sum((r) => r.requestsPerSecond),
    serverCpu: sumDefined((r) => r.serverCpu),
    serverCpuSeconds: sumDefined((r) => r.serverCpuSeconds),
    loadGeneratorCpu: sumDefined((r) => r.loadGeneratorCpu),
  };
}
