#!/usr/bin/env node
/**
 * `npm run bench`: one command, one run. Starts the limit (bare node:http), the mock in memory,
 * the mock with --state-file, the mock on Redis (one replica; two loaded at once when asked for,
 * `--targets …,redis-2`) and the Prism mocks; drives each with the same wrk load in alternating
 * rounds (valid-only and mixed), reading each server's CPU per request; measures spawn → first
 * 200, RSS per stored plant and the latency proxy mode adds (bench/proxy.ts); writes
 * bench/results/*.json and the table in docs/benchmarks.md.
 *
 * Servers run on one core and wrk on the other (taskset); redis-server runs beside wrk, and the
 * second of two replicas on wrk's core too (docs/benchmarks.md says why). Loopback only; every
 * run is bounded by its duration and every wait by a timeout.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { commaList, wholeNumber } from '../package/command-line.js';
import { DEFAULT_JOURNAL_SIZE } from '../mocks/admin/journal.js';
import { measureContractSuite, type ContractResult } from './contract.js';
import { measureCosts, type CostsResult } from './costs.js';
import { measureCrud, writeCrudDoc, type CrudResult } from './crud.js';
import { measureLargeStartup, NETLIFY_SITES_WORKLOAD, writeLargeDoc, type LargeDocumentResult } from './large.js';
import { REDIS_SERVER_PATH, RedisServer } from '../mocks/test/redis-server.js';
import { countErrors, runLoads, type LoadResult, type Scenario } from './load.js';
import { cpuCounters, describeMachine, hasCommand, load1, stealPercent, wrkVersion } from './machine.js';
import { writeBenchmarksDoc } from './markdown.js';
import { cpuSeconds } from './process-stats.js';
import { measurePlantMemory, type MemoryResult } from './memory.js';
import { measureProxyLatency, type ProxyLatencyResult } from './proxy.js';
import { measureNpmStart, measureStartup, type NpmStartResult, type StartupResult } from './startup.js';
import { cpuPerRequest, evaluateGoals, summarise, type RunRecord } from './summary.js';
import { availableTargets, fiftyOperationsTarget, getText, imageTarget, ROOT, startTarget, TARGET_IDS, type RunningTarget, type TargetId } from './targets.js';

const STEPS = ['load', 'proxy', 'crud', 'large', 'startup', 'memory', 'contract', 'costs'] as const;
type Step = (typeof STEPS)[number];

interface BenchOptions {
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
  proxyConnections: number;
  spawns: number;
  plants: number;
  targets: TargetId[];
  skip: Step[];
  only?: Step[];
  image?: string;
  serverCpu: string;
  loadCpu: string;
  docs: boolean;
  baseline?: string;
}

function parseOptions(argv: string[]): BenchOptions {
  const int = wholeNumber(0, 1_000_000_000);
  const list = commaList;
  const listOf =
    (allowed: readonly string[]) =>
    (value: string): string[] => {
      const items = list(value);
      const unknown = items.filter((item) => !allowed.includes(item));
      if (unknown.length) throw new InvalidArgumentError(`unknown ${unknown.join(', ')} (choose from ${allowed.join(', ')})`);
      return items;
    };
  const command = new Command('bench')
    .description('Benchmark the mock against the bare node:http limit and Prism (see docs/benchmarks.md).')
    .addOption(new Option('--rounds <n>', 'alternating rounds per scenario').default(5).argParser(int))
    .addOption(new Option('--duration <s>', 'seconds per load run').default(4).argParser(int))
    .addOption(new Option('--warmup <s>', 'seconds of unrecorded load per server before the rounds').default(3).argParser(int))
    .addOption(new Option('--connections <n>', 'wrk connections').default(50).argParser(int))
    .addOption(new Option('--proxy-connections <n>', 'wrk connections for the proxy step (direct call against --proxy in front of it)').default(1).argParser(int))
    .addOption(new Option('--spawns <n>', 'starts per server for spawn → first 200').default(5).argParser(int))
    .addOption(new Option('--plants <n>', 'plants stored for RSS per plant').default(1_000_000).argParser(int))
    .addOption(
      new Option('--targets <list>', 'servers to run (redis-2, two replicas on one Redis, needs a core per replica and one for Redis and wrk)')
        .default(['limit', 'memory', 'state-file', 'redis', 'prism', 'prism-cli'])
        .argParser(listOf(TARGET_IDS)),
    )
    .addOption(new Option('--skip <steps>', `steps to leave out (${STEPS.join(', ')})`).default([]).argParser(listOf(STEPS)))
    .addOption(new Option('--only <steps>', `run only these steps (${STEPS.join(', ')}); \`--only crud\` runs the multi-operation workload alone`).argParser(listOf(STEPS)))
    .option('--image <image>', 'the Docker image whose start the startup step measures (default: plant-store-mock:bench, built from the Dockerfile, when a Docker engine answers)')
    .addOption(new Option('--server-cpu <list>', 'taskset CPU list for the servers').default('0'))
    .addOption(new Option('--load-cpu <list>', 'taskset CPU list for wrk and the bench itself').default('1'))
    .option('--no-docs', 'do not rewrite the table in docs/benchmarks.md')
    .option('--baseline <cli.js>', 'also run another build of the mock (its dist/start/cli.js) in the same rounds');
  command.parse(argv, { from: 'user' });
  return command.opts<BenchOptions>();
}

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const skipped = new Set<Step>(options.only ? STEPS.filter((step) => !options.only?.includes(step)) : options.skip);
  if ((['load', 'proxy', 'crud', 'large'] as const).some((step) => !skipped.has(step)) && !wrkVersion())
    throw new Error('wrk is not installed: `apt-get install -y wrk` (Debian) or `brew install wrk`.');
  const pinned = hasCommand('taskset', ['-V']);
  const serverCpu = pinned ? options.serverCpu : undefined;
  const loadCpu = pinned ? options.loadCpu : undefined;
  if (pinned) spawnSync('taskset', ['-a', '-p', '-c', options.loadCpu, String(process.pid)], { stdio: 'ignore' });
  else log('taskset not found: servers and wrk run unpinned, figures are noisier.');

  const { targets: all, missing: allMissing } = availableTargets(options.baseline, REDIS_SERVER_PATH);
  const specs = all.filter((t) => options.targets.includes(t.id) || t.id === 'limit' || t.id === 'baseline');
  const missing = allMissing.filter((m) => options.targets.includes(m.id) || m.id === 'baseline');
  for (const m of missing) log(`skipping ${m.id}: ${m.why}`);
  const machine = describeMachine();
  const startedAt = new Date();
  const loadBefore = load1();
  const countersBefore = cpuCounters();
  log(`bench: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ${machine.wrk}; load average ${loadBefore}`);
  // Every server runs on this Node (process.execPath); on one the package does not support, the figures are not what users get.
  if (!machine.nodeSupported) log(`bench: Node ${machine.node} is not one the package supports (engines: ${machine.supportedNode}); run the bench on a supported Node (docs/benchmarks.md says how).`);

  const work = mkdtempSync(join(tmpdir(), 'plant-bench-'));
  // One redis-server for the targets on Redis, AOF with an fsync every second as in the compose
  // profile, pinned beside wrk: the replica's core stays the replica's.
  // No automatic AOF rewrite: a rewrite forked while another server is measured would load its core.
  const redis = specs.some((spec) => spec.redis) ? await RedisServer.start({ persistence: 'aof-everysec', args: ['--auto-aof-rewrite-percentage', '0'] }) : undefined;
  if (redis && loadCpu) spawnSync('taskset', ['-a', '-p', '-c', loadCpu, String(redis.pid)], { stdio: 'ignore' });
  /** Where each target's processes run: the second replica of a pair on wrk's core (one core each). */
  const placement = { cpus: serverCpu, replicaCpus: [serverCpu, loadCpu], redisUrl: redis?.url };
  const runs: RunRecord[] = [];
  let durable: boolean | undefined;
  let journalEntries: number | undefined;
  let memoryRequests = 0;
  let startup: StartupResult[] = [];
  let npmStart: NpmStartResult | undefined;
  let imageSkipped: string | undefined;
  const memoryResults: MemoryResult[] = [];
  let contract: ContractResult | undefined;
  let proxy: ProxyLatencyResult | undefined;
  let crud: CrudResult | undefined;
  let large: LargeDocumentResult[] | undefined;
  let largeCrud: CrudResult | undefined;
  let costs: CostsResult | undefined;
  const notes: string[] = [];
  const failures: string[] = [];
  /** Runs one step; a failure is reported and recorded, and the steps after it still run. */
  const attempt = async (step: string, body: () => Promise<void>): Promise<void> => {
    try {
      await body();
    } catch (error) {
      const message = `${step} failed: ${(error as Error)?.message ?? String(error)}`;
      failures.push(message);
      notes.push(message);
      log(message);
    }
  };

  if (!skipped.has('load')) {
    const running = new Map<TargetId, RunningTarget>();
    const sent200 = new Map<TargetId, number>();
    try {
      await attempt('load', async () => {
        for (const spec of specs) {
          running.set(spec.id, await startTarget(spec, { ...placement, logFile: join(work, `${spec.id}.log`), stateFile: join(work, 'state.log') }));
          sent200.set(spec.id, 1); // the probe's plant
        }
        let run = 0;
        const drive = async (id: TargetId, scenario: Scenario, seconds: number, round: number): Promise<void> => {
          const target = running.get(id) as RunningTarget;
          const redisCpuBefore = target.spec.redis && redis?.pid ? cpuSeconds(redis.pid) : undefined;
          const started = performance.now();
          // One wrk per replica, all at once, each with the full connections.
          const result = await runLoads(target.urls, target.pids, {
            scenario,
            idBase: 1e12 + ++run * 1e9,
            durationSeconds: seconds,
            connections: options.connections,
            cpus: loadCpu,
          });
          const redisCpuAfter = redisCpuBefore === undefined ? undefined : cpuSeconds(redis?.pid as number);
          if (redisCpuBefore !== undefined && redisCpuAfter !== undefined) {
            result.redisCpu = Math.round(((redisCpuAfter - redisCpuBefore) / ((performance.now() - started) / 1000)) * 100) / 100;
          }
          sent200.set(id, (sent200.get(id) ?? 0) + (result.statuses['200'] ?? 0));
          if (id === 'memory') memoryRequests += result.requests;
          if (round === 0) return;
          const errors = countErrors(result, scenario, target.spec.invalidStatuses);
          runs.push({ round, target: id, result, errors });
          log(
            `round ${round} ${scenario.padEnd(5)} ${id.padEnd(10)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s` +
              `  p50 ${(result.latencyUs.p50 / 1000).toFixed(2)} ms  p99 ${(result.latencyUs.p99 / 1000).toFixed(2)} ms` +
              `  errors ${errors}  server cpu ${result.serverCpu ?? '?'} (${perRequestUs(result)} µs a request)  wrk cpu ${result.loadGeneratorCpu ?? '?'}` +
              (result.redisCpu === undefined ? '' : `  redis cpu ${result.redisCpu}`),
          );
        };
        // Each scenario the rounds measure is warmed up: a refusal's code (the 400's words, the 401)
        // is run by mixed load only, and would otherwise be compiled during the first measured round.
        const scenarios = ['valid', 'mixed'] as const satisfies readonly Scenario[];
        log(`warm-up: ${options.warmup} s per server and scenario`);
        if (options.warmup > 0) for (const spec of specs) for (const scenario of scenarios) await drive(spec.id, scenario, options.warmup, 0);
        for (let round = 1; round <= options.rounds; round++) {
          // Rotate the order each round so drift in machine load does not favour one server.
          const order = specs.map((_, i) => specs[(i + round - 1) % specs.length]!);
          // Alternate which scenario goes first: every run leaves the stores larger for the next, and
          // mixed ÷ valid must not carry that growth one way only.
          const roundScenarios = round % 2 === 1 ? scenarios : ([...scenarios].reverse() as readonly Scenario[]);
          for (const scenario of roundScenarios) {
            for (const spec of order) await drive(spec.id, scenario, options.duration, round);
          }
        }
      });
      const memory = running.get('memory');
      if (memory) {
        await attempt('journal', async () => {
          journalEntries = (JSON.parse(await getOk(`${memory.url}/__mock/requests?limit=1`)) as { journal: { entries: number } }).journal.entries;
        });
      }
      const stateFile = running.get('state-file');
      if (stateFile) {
        await attempt('durability', async () => {
          durable = await checkDurable(stateFile, sent200.get('state-file') ?? 0, options.connections * (options.rounds * 2 + 2), work, serverCpu, notes);
        });
      }
    } finally {
      // (The --state-file mock was killed by the durability check; stopping it again is a no-op.)
      for (const target of running.values()) await target.stop();
    }
  }

  if (!skipped.has('proxy')) {
    await attempt('proxy', async () => {
      log(`proxy: the bare server called directly and through the mock --proxy, ${options.proxyConnections} connection(s)`);
      proxy = await measureProxyLatency({
        rounds: options.rounds,
        durationSeconds: options.duration,
        warmupSeconds: options.warmup,
        connections: options.proxyConnections,
        serverCpu,
        loadCpu,
        work,
        log,
      });
      log(`  proxy adds ${proxy.addedP50Ms.toFixed(3)} ms p50 (direct ${proxy.directP50Ms.toFixed(3)} ms, through the proxy ${proxy.proxiedP50Ms.toFixed(3)} ms; errors ${proxy.errors})`);
    });
  }

  if (!skipped.has('crud')) {
    await attempt('crud', async () => {
      log(`crud: create, read by id, a list of 20, delete on a petstore-expanded spec, the mock ÷ a bare server answering the same bytes`);
      crud = await measureCrud({
        rounds: options.rounds,
        durationSeconds: options.duration,
        warmupSeconds: options.warmup,
        connections: options.connections,
        serverCpu,
        loadCpu,
        work,
        log,
      });
      for (const o of crud.operations) log(`  ${o.operation.padEnd(6)} mock ÷ limit ${o.medianRatio.toFixed(3)} (${o.ratios.join(', ')}), errors ${o.errors}`);
    });
  }

  if (!skipped.has('large')) {
    await attempt('large', async () => {
      log(`large: netlify, overseerr and lago, the mock and the Prism CLI on each, spawn → first 200 and RSS, ${options.rounds} alternating rounds`);
      large = await measureLargeStartup({ rounds: options.rounds, serverCpu, log, baselineCli: options.baseline });
      for (const r of large) {
        log(`  ${r.name.padEnd(9)} time ÷ Prism ${r.timeRatio} (${r.timeSpread.join('–')}), RSS ÷ Prism ${r.rssRatio} (${r.rssSpread.join('–')})`);
        if (r.baseline)
          log(`  ${r.name.padEnd(9)} baseline: time ÷ Prism ${r.baseline.timeRatio} (${r.baseline.timeSpread.join('–')}), RSS ÷ Prism ${r.baseline.rssRatio} (${r.baseline.rssSpread.join('–')})`);
      }
    });
    await attempt('large crud', async () => {
      log(`large: CRUD of ${NETLIFY_SITES_WORKLOAD.collection} (${NETLIFY_SITES_WORKLOAD.spec}), the mock ÷ a bare server answering the same bytes`);
      largeCrud = await measureCrud({
        rounds: options.rounds,
        durationSeconds: options.duration,
        warmupSeconds: options.warmup,
        connections: options.connections,
        serverCpu,
        loadCpu,
        work,
        log,
        workload: NETLIFY_SITES_WORKLOAD,
      });
      for (const o of largeCrud.operations) log(`  ${o.operation.padEnd(6)} mock ÷ limit ${o.medianRatio.toFixed(3)} (${o.ratios.join(', ')}), errors ${o.errors}`);
    });
  }

  if (!skipped.has('startup') && options.spawns > 0) {
    await attempt('spawn → first 200', async () => {
      const image = dockerImage(options.image);
      if ('why' in image) {
        imageSkipped = image.why;
        log(`the Docker image's start is not measured: ${image.why}`);
      }
      // A pair of replicas starts as two single ones do; the 50-operation spec and the image only start here.
      const startSpecs = [...specs.filter((spec) => (spec.replicas ?? 1) === 1), fiftyOperationsTarget(), ...('image' in image ? [imageTarget(image.image)] : [])];
      log(`spawn → first 200: ${options.spawns} starts per server, alternating`);
      startup = await measureStartup(startSpecs, options.spawns, serverCpu, { redisUrl: redis?.url });
      for (const s of startup) {
        log(`  ${s.target.padEnd(10)} median ${s.medianMs} ms${s.ratioToLimit === undefined ? '' : ` (${s.ratioToLimit}× bare node)`}  (${s.samplesMs.join(', ')})`);
      }
    });
    await attempt('npm start', async () => {
      log(`npm start: ${options.spawns} starts, spawn → "listening"`);
      npmStart = await measureNpmStart(options.spawns, serverCpu);
      log(`  npm start  median ${npmStart.medianMs} ms  (${npmStart.samplesMs.join(', ')})`);
    });
  }
  // (Should the bench die before this, the harness kills redis-server as the process exits.)
  await redis?.stop();

  if (!skipped.has('memory') && options.plants > 0) {
    for (const spec of specs.filter((s) => s.id === 'memory' || s.id === 'state-file')) {
      await attempt(`RSS per plant (${spec.id})`, async () => {
        log(`RSS per plant: seeding ${options.plants} plants into ${spec.label}`);
        const result = await measurePlantMemory(spec, options.plants, serverCpu);
        memoryResults.push(result);
        log(`  ${spec.id}: ${result.bytesPerPlant} B per plant (RSS ${mib(result.rssBeforeBytes)} → ${mib(result.rssAfterBytes)} MiB, seeded in ${result.seedSeconds} s)`);
      });
    }
  }

  if (!skipped.has('contract')) {
    await attempt('contract suite', async () => {
      contract = await measureContractSuite(serverCpu);
      log(contract.seconds === undefined ? `contract suite: ${contract.note}` : `contract suite against a local mock: ${contract.seconds} s (${contract.note})`);
    });
  }

  if (!skipped.has('costs')) {
    await attempt('costs', async () => {
      log('costs: what hostile input costs, each a ratio to a control of the same size in the same round');
      costs = await measureCosts({ rounds: options.rounds, serverCpu, log });
    });
  }

  const loadAfter = load1();
  const steal = stealPercent(countersBefore, cpuCounters());
  const summaries = summarise(runs);
  const goals = evaluateGoals({
    runs,
    summaries,
    connections: options.connections,
    spawnMedianMs: Object.fromEntries(startup.map((s) => [s.target, s.medianMs])),
    spawnRatio: Object.fromEntries(startup.flatMap((s) => (s.ratioToLimit === undefined ? [] : [[s.target, s.ratioToLimit]]))),
    npmStartMs: npmStart?.medianMs,
    bytesPerPlant: memoryResults.find((m) => m.target === 'memory')?.bytesPerPlant,
    plants: memoryResults.find((m) => m.target === 'memory')?.plants,
    journalEntries,
    journalCapacity: DEFAULT_JOURNAL_SIZE,
    journalAfterRequests: memoryRequests,
    contractSeconds: contract?.seconds,
    contractPassed: contract?.exitCode === undefined ? undefined : contract.exitCode === 0,
    durable,
    proxyAddedP50Ms: proxy && !proxy.errors ? proxy.addedP50Ms : undefined,
    proxyConnections: proxy?.connections,
    maskingRatio: costs?.maskingRatio,
    patternRatio: costs?.patternRatio,
    large,
    largeCrud,
  });
  const report = {
    date: startedAt.toISOString(),
    machine,
    loadAverage: { before: loadBefore, after: loadAfter },
    stealPercent: steal,
    options: { ...options, pinned },
    missing,
    notes,
    summaries,
    goals,
    startup,
    npmStart,
    imageSkipped,
    memory: memoryResults,
    contract,
    proxy,
    crud,
    large,
    largeCrud,
    costs,
    runs,
  };
  const resultsDir = join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(join(resultsDir, `bench-${stamp}.json`), json);
  // latest.json is the last run of the load rounds; a run of other steps only (`--only crud`) keeps its own file alone.
  if (!skipped.has('load')) writeFileSync(join(resultsDir, 'latest.json'), json);
  log('');
  log('server      scenario  req/s   ×limit   p50 ms  p99 ms  errors');
  for (const s of summaries) {
    log(
      `${s.target.padEnd(11)} ${s.scenario.padEnd(8)} ${String(s.requestsPerSecond).padStart(6)}  ${s.ratioToLimit?.toFixed(3) ?? '  -  '}   ` +
        `${s.p50Ms.toFixed(2).padStart(6)}  ${s.p99Ms.toFixed(2).padStart(6)}  ${s.errors}`,
    );
  }
  log('');
  for (const g of goals) log(`${g.met === undefined ? '  ?' : g.met ? ' ok' : 'MISS'}  ${g.goal}: ${g.measured} (goal ${g.target})${g.accepted ? `, accepted: ${g.accepted}` : ''}`);
  log(`\nload average ${loadBefore} → ${loadAfter}, CPU stolen by the host ${steal ?? '?'} %; results in bench/results/bench-${stamp}.json`);
  if (crud) for (const o of crud.operations) log(`${o.medianRatio >= crud.goal && o.errors === 0 ? ' ok' : 'MISS'}  crud ${o.operation} mock ÷ limit: ${o.medianRatio} (goal ≥ ${crud.goal})`);
  if (options.docs) {
    // A run of some steps only leaves the other steps' recorded tables as they were.
    if (!skipped.has('load')) {
      writeBenchmarksDoc(report);
      log('table written to docs/benchmarks.md');
    }
    if (large || largeCrud) {
      writeLargeDoc(large, largeCrud, { date: startedAt.toISOString(), loadAverage: { before: loadBefore, after: loadAfter }, pinned, rounds: options.rounds, duration: options.duration });
      log('large-documents table written to docs/benchmarks.md');
    }
    if (crud) {
      writeCrudDoc(crud, { date: startedAt.toISOString(), loadAverage: { before: loadBefore, after: loadAfter }, pinned, rounds: options.rounds, duration: options.duration });
      log('crud table written to docs/benchmarks.md');
    }
  }
  if (failures.length) {
    // The servers' output of this run stays for whoever reads the failure.
    log(`\n${failures.length} step(s) failed (${failures.join('; ')}); the servers' output is kept in ${work}`);
    process.exitCode = 1;
  } else {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Every 200 of the --state-file mock must survive a crash: kill -9 it, start it again on the
 * same file and count the plants. The count may exceed the 200s seen by up to the requests in
 * flight when each wrk run stopped (stored and answered, but the answer was never read).
 */
async function checkDurable(target: RunningTarget, answered200: number, inFlightAllowance: number, work: string, cpus: string | undefined, notes: string[]): Promise<boolean> {
  await target.kill();
  const again = await startTarget(target.spec, { cpus, logFile: join(work, 'state-file-restart.log'), stateFile: join(work, 'state.log') });
  try {
    // The restart's own probe stored one more plant.
    const stored = (await countStored(`${again.url}/__mock/plants`)) - 1;
    const ok = stored >= answered200 && stored <= answered200 + inFlightAllowance;
    notes.push(`--state-file durability: ${answered200} answered 200, ${stored} plants after kill -9 and restart`);
    log(`durability: ${answered200} plants answered 200, ${stored} found after kill -9 and restart: ${ok ? 'ok' : 'MISMATCH'}`);
    return ok;
  } finally {
    await again.stop();
  }
}

/** The image to start, or why its start is not measured (no Docker engine here, or the build failed). */
function dockerImage(requested: string | undefined): { image: string } | { why: string } {
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 30_000 });
  if (info.error) return { why: `no docker command (${(info.error as NodeJS.ErrnoException).code ?? info.error.message})` };
  if (info.status !== 0) return { why: `no Docker engine answers (docker info: ${(info.stderr || info.stdout).trim().split('\n')[0]})` };
  if (requested) return { image: requested };
  const image = 'plant-store-mock:bench';
  log(`building ${image} from the Dockerfile`);
  const build = spawnSync('docker', ['build', '-t', image, ROOT], { stdio: ['ignore', 'inherit', 'inherit'], timeout: 1_800_000 });
  return build.status === 0 ? { image } : { why: `docker build -t ${image} failed (exit ${build.status ?? build.signal})` };
}

const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);

/** The server's CPU per request of one run, in µs, as the log shows it. */
const perRequestUs = (result: LoadResult): string => {
  const seconds = cpuPerRequest(result);
  return seconds === undefined ? '?' : (seconds * 1e6).toFixed(1);
};

/** How many records a listing says its collection holds (X-Total-Count; the listing itself is paged). */
async function countStored(url: string): Promise<number> {
  const response = await fetch(`${url}?limit=1`);
  const total = Number(response.headers.get('x-total-count'));
  await response.body?.cancel();
  if (response.status !== 200 || !Number.isSafeInteger(total)) throw new Error(`GET ${url}?limit=1 answered ${response.status} without a count`);
  return total;
}

/** The body of a GET that must answer 200 (an admin route the bench reads). */
async function getOk(url: string): Promise<string> {
  const { status, text } = await getText(url);
  if (status !== 200) throw new Error(`GET ${url} answered ${status}: ${text.slice(0, 200)}`);
  return text;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
