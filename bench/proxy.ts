/**
 * What proxy mode adds to a call: the bare limit server as the provider, called directly, and
 * the mock `--proxy` in front of that same server, driven by the same wrk load in alternating
 * rounds; per round the difference of the two p50s, then the median over rounds.
 *
 * Few connections (1 by default): the goal is the latency one call gains by going through the
 * proxy. At the load rounds' 50 connections both servers run at their limit and p50 is mostly
 * time spent queueing, which measures throughput again, not the proxy's added latency.
 */
import { join } from 'node:path';
import { runLoad, type LoadResult } from './load.js';
import { median } from './summary.js';
import { availableTargets, proxyTarget, startTarget, type RunningTarget } from './targets.js';

export interface ProxyRound {
  round: number;
  direct: LoadResult;
  proxied: LoadResult;
  /** p50 through the proxy minus p50 of the direct call, in this round. */
  addedP50Ms: number;
}

export interface ProxyLatencyResult {
  connections: number;
  rounds: ProxyRound[];
  /** Medians over rounds. */
  directP50Ms: number;
  proxiedP50Ms: number;
  addedP50Ms: number;
  directRequestsPerSecond: number;
  proxiedRequestsPerSecond: number;
  /** Answers other than 200, and socket errors, over every round. */
  errors: number;
}

export interface ProxyBenchOptions {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** taskset CPU lists: the provider and the proxy share the server core. */
  serverCpu?: string;
  loadCpu?: string;
  /** Directory for the two servers' logs. */
  work: string;
  log?: (line: string) => void;
  /** A pause before each request (LoadOptions.paceMs): the harness tests' load. */
  paceMs?: number;
}

export async function measureProxyLatency(options: ProxyBenchOptions): Promise<ProxyLatencyResult> {
  const limit = availableTargets().targets.find((t) => t.id === 'limit');
  if (!limit) throw new Error('no limit server in this checkout (dist/bench/limit-server.js)');
  const running: RunningTarget[] = [];
  try {
    const direct = await startTarget(limit, { cpus: options.serverCpu, logFile: join(options.work, 'proxy-upstream.log') });
    running.push(direct);
    const proxied = await startTarget(proxyTarget(direct.url), { cpus: options.serverCpu, logFile: join(options.work, 'proxy.log') });
    running.push(proxied);
    let run = 0;
    const drive = (target: RunningTarget, seconds: number): Promise<LoadResult> =>
      runLoad({
        url: target.url,
        scenario: 'valid',
        idBase: 5e12 + ++run * 1e9,
        durationSeconds: seconds,
        connections: options.connections,
        cpus: options.loadCpu,
        serverPid: target.pid,
        paceMs: options.paceMs,
      });
    if (options.warmupSeconds > 0) {
      await drive(direct, options.warmupSeconds);
      await drive(proxied, options.warmupSeconds);
    }
    const rounds: ProxyRound[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      // Alternate which goes first, so a drift in machine load does not favour one.
      const results = new Map<RunningTarget, LoadResult>();
      for (const target of round % 2 ? [direct, proxied] : [proxied, direct]) results.set(target, await drive(target, options.durationSeconds));
      const d = results.get(direct) as LoadResult;
      const p = results.get(proxied) as LoadResult;
      const addedP50Ms = (p.latencyUs.p50 - d.latencyUs.p50) / 1000;
      rounds.push({ round, direct: d, proxied: p, addedP50Ms });
      options.log?.(
        `round ${round} proxy: direct p50 ${(d.latencyUs.p50 / 1000).toFixed(3)} ms (${Math.round(d.requestsPerSecond)} req/s), ` +
          `through the proxy p50 ${(p.latencyUs.p50 / 1000).toFixed(3)} ms (${Math.round(p.requestsPerSecond)} req/s): +${addedP50Ms.toFixed(3)} ms`,
      );
    }
    const errors = rounds.reduce((sum, r) => sum + wrongAnswers(r.direct) + wrongAnswers(r.proxied), 0);
    return {
      connections: options.connections,
      rounds,
      directP50Ms: median(rounds.map((r) => r.direct.latencyUs.p50)) / 1000,
      proxiedP50Ms: median(rounds.map((r) => r.proxied.latencyUs.p50)) / 1000,
      addedP50Ms: median(rounds.map((r) => r.addedP50Ms)),
      directRequestsPerSecond: Math.round(median(rounds.map((r) => r.direct.requestsPerSecond))),
      proxiedRequestsPerSecond: Math.round(median(rounds.map((r) => r.proxied.requestsPerSecond))),
      errors,
    };
  } finally {
    for (const target of running.reverse()) await target.stop();
  }
}

/** Anything but a 200 (the provider answers a valid Plant; the proxy passes it on), plus socket errors. */
function wrongAnswers(result: LoadResult): number {
  const { connect, read, write, timeout } = result.socketErrors;
  return connect + read + write + timeout + result.requests - (result.statuses['200'] ?? 0);
}
