/**
 * The servers the bench compares, each started as its own process (pinned to the server core)
 * exactly as a developer would start it, and probed until it answers a valid POST /plants with 200.
 * A target may be several replicas of the mock on one Redis, each its own process, loaded at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { request } from 'node:http';
import type { Writable } from 'node:stream';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { MOCK_NODE_FLAGS, MOCK_START } from '../mocks/node-flags.js';
import { PACKAGE_ROOT } from '../package/root.js';

export type TargetId = 'limit' | 'memory' | 'state-file' | 'redis' | 'redis-2' | 'prism' | 'prism-cli' | 'baseline' | 'proxy' | 'memory-50' | 'image';

/** The repository root (the bench runs from dist/bench/ or, under tests, from bench/). */
/** The package's root, from the sources (vitest) and from dist/bench alike. */
export const ROOT = PACKAGE_ROOT;

export interface TargetSpec {
  id: TargetId;
  label: string;
  /** Command and arguments; `{port}`, `{stateFile}` and `{redisUrl}` are filled in at start. */
  command: readonly string[];
  /** Processes of this command behind the target, each on its own port and loaded by its own wrk (1 unless said). */
  replicas?: number;
  /** The target keeps its plants in the bench's redis-server. */
  redis?: true;
  /** Status a schema-invalid body earns from this server (Prism may answer 422). */
  invalidStatuses: readonly number[];
  /** Where the start-up probe POSTs its `{id, name}` body (default /plants). */
  probePath?: string;
  /** The request that tells the server is ready (a valid POST /plants answered 200 unless said). */
  probe?: Probe;
}

/** A valid create (or, with `method: 'GET'`, a read) the bench sends until it is answered `status`: the server is then ready. */
export interface Probe {
  path: string;
  status: number;
  /** The body, with an id no other probe of the run used (a GET sends none). */
  body: (id: number) => unknown;
  method?: 'GET' | 'POST';
  /** A GET's headers (credentials). */
  headers?: Readonly<Record<string, string>>;
}

export const PLANT_PROBE: Probe = { path: '/plants', status: 200, body: (id) => ({ id, name: 'Probe' }) };

export const BENCH_TOKEN = 'bench-token';

/** How each server is named in the log, the results and the docs table. */
export const TARGET_LABELS: Readonly<Record<TargetId, string>> = {
  limit: 'bare node:http, fixed 200 (the limit)',
  memory: 'mock, in memory',
  'state-file': 'mock, `--state-file`',
  redis: 'mock on Redis, one replica (`--store redis://…`)',
  'redis-2': 'mock on Redis, two replicas loaded at once',
  prism: 'Prism mock (ours: prism-http behind our edge, `npm run mock:prism`)',
  'prism-cli': 'Prism CLI (stock `prism mock`)',
  baseline: 'mock, baseline build',
  proxy: 'mock `--proxy` in front of the bare server',
  'memory-50': 'mock, in memory, on a spec of 50 operations (`bench/specs/workshop.openapi.yaml`)',
  image: 'the Docker image (`docker run`, `--state-file` in its volume)',
};
/** Servers measured by the start-up step only (bench/startup.ts). */
export const STARTUP_ONLY: readonly TargetId[] = ['memory-50', 'image'];
/**
 * The servers of the load rounds; the proxy runs in its own step, in front of a limit server of
 * its own (bench/proxy.ts), and the start-up step's own targets only start.
 */
export const TARGET_IDS = (Object.keys(TARGET_LABELS) as TargetId[]).filter((id) => id !== 'proxy' && !STARTUP_ONLY.includes(id));

/** A spec of 50 operations (ten collections of five), written for the start-up bench. */
export const FIFTY_OPERATIONS_SPEC = join(ROOT, 'bench/specs/workshop.openapi.yaml');

/** The mock in memory on the 50-operation spec; ready when a valid member is created (201). */
export function fiftyOperationsTarget(): TargetSpec {
  return {
    id: 'memory-50',
    label: TARGET_LABELS['memory-50'],
    command: [process.execPath, ...MOCK_NODE_FLAGS, join(ROOT, MOCK_START), '--port', '{port}', '--spec', FIFTY_OPERATIONS_SPEC],
    invalidStatuses: [400],
    probe: { path: '/members', status: 201, body: (id) => ({ id, name: 'Probe', email: 'probe@example.test', plan: 'day' }) },
  };
}

/** The image as `docker run` starts it (the mock on 4010 inside, its state file in the volume), published on loopback. */
export function imageTarget(image: string): TargetSpec {
  return { id: 'image', label: `${TARGET_LABELS.image}: ${image}`, command: ['docker', 'run', '--rm', '-p', '127.0.0.1:{port}:4010', image], invalidStatuses: [400] };
}

/** The mock in proxy mode in front of `upstream` (a running limit server). */
export function proxyTarget(upstream: string): TargetSpec {
  return { id: 'proxy', label: TARGET_LABELS.proxy, command: [process.execPath, ...MOCK_NODE_FLAGS, join(ROOT, MOCK_START), '--port', '{port}', '--proxy', upstream], invalidStatuses: [200] };
}

/** The targets this checkout can run; `why` says why one is missing. */
export function availableTargets(baselineCli?: string, redisServer?: string): { targets: TargetSpec[]; missing: { id: TargetId; why: string }[] } {
  const targets: TargetSpec[] = [
    {
      id: 'limit',
      label: TARGET_LABELS.limit,
      command: [process.execPath, join(ROOT, 'dist/bench/limit-server.js'), '{port}'],
      invalidStatuses: [200],
    },
    {
      id: 'memory',
      label: TARGET_LABELS.memory,
      command: [process.execPath, ...MOCK_NODE_FLAGS, join(ROOT, MOCK_START), '--port', '{port}'],
      invalidStatuses: [400],
    },
  ];
  const missing: { id: TargetId; why: string }[] = [];
  targets.push({
    id: 'state-file',
    label: TARGET_LABELS['state-file'],
    command: [process.execPath, ...MOCK_NODE_FLAGS, join(ROOT, MOCK_START), '--port', '{port}', '--state-file', '{stateFile}'],
    invalidStatuses: [400],
  });
  if (redisServer) {
    // Each target under a prefix of its own on the one redis-server the bench starts.
    const onRedis = (id: 'redis' | 'redis-2'): string[] => [process.execPath, ...MOCK_NODE_FLAGS, join(ROOT, MOCK_START), '--port', '{port}', '--store', '{redisUrl}', '--store-prefix', `bench-${id}`];
    targets.push({ id: 'redis', label: TARGET_LABELS.redis, command: onRedis('redis'), invalidStatuses: [400], redis: true });
    targets.push({ id: 'redis-2', label: TARGET_LABELS['redis-2'], command: onRedis('redis-2'), invalidStatuses: [400], redis: true, replicas: 2 });
  } else {
    for (const id of ['redis', 'redis-2'] as const) missing.push({ id, why: 'redis-server is not installed (apt-get install -y redis-server)' });
  }
  if (baselineCli) {
    // Another build of the mock (say, an older commit's dist/start/cli.js or dist/mocks/cli.js), to measure a change in the same rounds.
    if (existsSync(baselineCli)) {
      targets.push({ id: 'baseline', label: `${TARGET_LABELS.baseline} (${baselineCli})`, command: [process.execPath, ...MOCK_NODE_FLAGS, baselineCli, '--port', '{port}'], invalidStatuses: [400] });
    } else {
      missing.push({ id: 'baseline', why: `${baselineCli} does not exist` });
    }
  }
  const prism = prismCommand();
  if (prism) targets.push({ id: 'prism', label: TARGET_LABELS.prism, command: prism, invalidStatuses: [400, 422] });
  else missing.push({ id: 'prism', why: 'no Prism mock entry point (dist/mocks/prism/cli.js) in this checkout' });
  // Stoplight's own `prism mock`, as a team would run it instead of us (and as the issue measured Prism).
  const prismCli = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
  if (existsSync(prismCli)) {
    targets.push({
      id: 'prism-cli',
      label: TARGET_LABELS['prism-cli'],
      command: [process.execPath, prismCli, 'mock', join(ROOT, 'spec/plant-store.openapi.yaml'), '--port', '{port}', '--host', '127.0.0.1'],
      invalidStatuses: [400, 422],
    });
  } else {
    missing.push({ id: 'prism-cli', why: '@stoplight/prism-cli is not installed (a devDependency: npm ci)' });
  }
  return { targets, missing };
}

function prismCommand(): string[] | undefined {
  const entry = join(ROOT, 'dist/mocks/prism/cli.js');
  if (!existsSync(entry)) return undefined;
  return [process.execPath, entry, '--port', '{port}'];
}

export interface StartOptions {
  /** `taskset -c` CPU list for the server, or undefined to run unpinned. */
  cpus?: string;
  /** For a target of several replicas: the CPU list of each (`cpus` for those not named). */
  replicaCpus?: readonly (string | undefined)[];
  /** The redis-server of a target on Redis. */
  redisUrl?: string;
  /**
   * Where the server's request log ends up (/dev/null when undefined). It always travels through a
   * pipe that another process (`cat`) drains, as under docker or a terminal, so writing it costs
   * the server what it costs a user.
   */
  logFile?: string;
  stateFile?: string;
  /** Give up when the first 200 takes longer than this. */
  timeoutMs?: number;
}

export interface RunningTarget {
  spec: TargetSpec;
  /** The first replica's URL and pid (the only ones of a single-process target). */
  url: string;
  pid: number;
  /** Every replica's URL and pid, in order. */
  urls: string[];
  pids: number[];
  /** Wall time from spawn to the end of the first 200 answer. */
  spawnToFirst200Ms: number;
  /** SIGTERM, then SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
  /** SIGKILL at once: a crash, for the durability check. */
  kill(): Promise<void>;
}

/** Starts every replica of the target (one after another, each until its first 200). */
export async function startTarget(spec: TargetSpec, options: StartOptions = {}): Promise<RunningTarget> {
  if (spec.redis && !options.redisUrl) throw new Error(`${spec.label} needs the bench's redis-server (redisUrl)`);
  const replicas: RunningTarget[] = [];
  try {
    for (let i = 0; i < (spec.replicas ?? 1); i++) {
      const cpus = options.replicaCpus?.[i] ?? options.cpus;
      const logFile = options.logFile && i > 0 ? options.logFile.replace(/(\.log)?$/, `-${i + 1}$1`) : options.logFile;
      replicas.push(await startProcess(spec, { ...options, cpus, logFile }));
    }
  } catch (error) {
    for (const replica of replicas) await replica.stop();
    throw error;
  }
  if (replicas.length === 1) return replicas[0] as RunningTarget;
  const first = replicas[0] as RunningTarget;
  return {
    ...first,
    urls: replicas.map((replica) => replica.url),
    pids: replicas.map((replica) => replica.pid),
    spawnToFirst200Ms: Math.max(...replicas.map((replica) => replica.spawnToFirst200Ms)),
    stop: async () => {
      for (const replica of replicas) await replica.stop();
    },
    kill: async () => {
      for (const replica of replicas) await replica.kill();
    },
  };
}

async function startProcess(spec: TargetSpec, options: StartOptions): Promise<RunningTarget> {
  const port = await freePort();
  const args = spec.command.map((part) =>
    part
      .replace('{port}', String(port))
      .replace('{stateFile}', options.stateFile ?? '')
      .replace('{redisUrl}', options.redisUrl ?? ''),
  );
  const [command, ...rest] = options.cpus ? ['taskset', '-c', options.cpus, ...args] : args;
  const log = openSync(options.logFile ?? '/dev/null', 'a');
  let drain: ChildProcess;
  try {
    drain = spawn('cat', [], { stdio: ['pipe', log, 'ignore'] });
  } finally {
    closeSync(log);
  }
  const started = performance.now();
  let child: ChildProcess;
  try {
    child = spawn(command as string, rest, { stdio: ['ignore', drain.stdin as Writable, drain.stdin as Writable], cwd: ROOT, env: serverEnvironment() });
  } finally {
    // The server holds the pipe's write end now; `cat` ends when the server does.
    drain.stdin?.destroy();
  }
  let spawnError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    // A command that cannot start (taskset or node missing) emits 'error' and never 'exit'.
    child.once('error', (error) => {
      spawnError = error;
      resolve();
    });
  });
  let exitedEarly = false;
  void exited.then(() => (exitedEarly = true));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    if (exitedEarly) return;
    child.kill(signal);
    const guard = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(guard);
  };
  try {
    await waitForFirst200(url, options.timeoutMs ?? 20_000, () => exitedEarly, spec.probe ?? (spec.probePath ? { ...PLANT_PROBE, path: spec.probePath } : PLANT_PROBE));
  } catch (error) {
    await stop('SIGKILL');
    const why = spawnError ? `could not start ${command}: ${spawnError.message}` : (error as Error).message;
    const where = options.logFile ? `see ${options.logFile}` : `its output was not kept; run it by hand to see it: ${[command, ...rest].join(' ')}`;
    throw new Error(`${spec.label} did not answer 200 (${why}); ${where}`);
  }
  const spawnToFirst200Ms = performance.now() - started;
  const pid = child.pid as number;
  return { spec, url, pid, urls: [url], pids: [pid], spawnToFirst200Ms, stop: () => stop(), kill: () => stop('SIGKILL') };
}

/**
 * The bench's own environment without the settings the servers read (MOCK_*, PORT, HOST,
 * LOG_LEVEL…): a token or port exported in the shell must not change what is measured.
 */
export function serverEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(MOCK_|PRISM_)|^(PORT|HOST|LOG_LEVEL|NODE_OPTIONS)$/.test(name)) env[name] = value;
  }
  return env;
}

let probeId = 9_000_000_000_000;

/** Polls with the probe (a valid POST /plants) every 2 ms until one is answered as it expects (200); bounded by `timeoutMs`. */
export async function waitForFirst200(url: string, timeoutMs: number, gone: () => boolean = () => false, probe: Probe = PLANT_PROBE): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    if (gone()) throw new Error('the process exited');
    try {
      const status = probe.method === 'GET' ? await getStatus(`${url}${probe.path}`, probe.headers ?? {}) : await postPlant(url, probe.body(probeId++), probe.path);
      if (status === probe.status) return;
      last = `status ${status}`;
    } catch (error) {
      last = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out after ${timeoutMs} ms, last: ${last}`);
}

/** One POST /plants with the bench token; resolves with the status once the body is read. */
export function postPlant(url: string, body: unknown, path = '/plants', token = BENCH_TOKEN): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, fail) => {
    const req = request(
      `${url}${path}`,
      {
        method: 'POST',
        agent: false,
        timeout: 30_000,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
        res.once('error', fail);
      },
    );
    req.once('timeout', () => req.destroy(new Error('request timed out')));
    req.once('error', fail);
    req.end(payload);
  });
}

/** One GET; resolves with the status once the body is read. */
function getStatus(url: string, headers: Readonly<Record<string, string>>): Promise<number> {
  return new Promise((resolve, fail) => {
    const req = request(url, { agent: false, timeout: 30_000, headers }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', fail);
    });
    req.once('timeout', () => req.destroy(new Error('request timed out')));
    req.once('error', fail);
    req.end();
  });
}

/** GET a JSON document (the mock's admin routes). */
export function getText(url: string): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, fail) => {
    const req = request(url, { agent: false, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.once('error', fail);
    });
    req.once('timeout', () => req.destroy(new Error('request timed out')));
    req.once('error', fail);
    req.end();
  });
}

/** A port nothing listens on right now (loopback). */
export function freePort(): Promise<number> {
  return new Promise((resolve, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
