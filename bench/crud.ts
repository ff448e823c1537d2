/**
 * The multi-operation workload: the mock in memory serving a collection of a spec — by default
 * one of the petstore-expanded shape (fixtures/specs/petstore-expanded-3.0: ids the mock assigns);
 * the `large` step one of a large real-world document (bench/large.ts) — driven by wrk one
 * operation at a time — create, read by id, a list of 20, delete — against a bare node:http server
 * answering each operation with the same bytes and status (bench/crud-limit-server.ts). Each
 * operation's figure is the median over the rounds of mock ÷ limit in the same round; the goal is
 * ≥ 0.6 for each.
 *
 * Reads and deletes address records seeded through the admin route at ids far above the mock's
 * own sequence, so the creates of the rounds never meet them; deletes take each seeded id once,
 * and more are seeded before a delete run that could run out.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK_NODE_FLAGS, MOCK_START } from '../mocks/node-flags.js';
import { packageFile } from '../package/root.js';
import { runLoad, type LoadResult } from './load.js';
import { median } from './summary.js';
import { ROOT, startTarget, type RunningTarget, type TargetSpec } from './targets.js';

export const CRUD_OPERATIONS = ['create', 'read', 'list', 'delete'] as const;
export type CrudOperation = (typeof CRUD_OPERATIONS)[number];

export const CRUD_GOAL = 0.6;

const SCRIPT = packageFile('bench/wrk/crud.lua');

/** What the workload drives: a collection of a spec, and how each operation of it is sent. */
export interface CrudWorkload {
  /** The spec, relative to the package root. */
  spec: string;
  /** The collection's path (its items at `<collection>/<id>`). */
  collection: string;
  /** The create's JSON body (no id: the mock assigns one) and the status it is answered with. */
  createBody: string;
  createStatus: number;
  /** The list's query (a page of 20). */
  listQuery: string;
  /** One header line every request carries (credentials), or '' for none. */
  header: string;
  /** A seeded record with identity `id` (JSON). */
  seed: (id: number) => string;
}

export const PETSTORE_WORKLOAD: CrudWorkload = {
  spec: 'fixtures/specs/petstore-expanded-3.0/openapi.yaml',
  collection: '/pets',
  createBody: '{"name":"Biscuit","tag":"dog"}',
  createStatus: 200,
  listQuery: 'limit=20',
  header: '',
  seed: (id) => `{"id":${id},"name":"Biscuit","tag":"dog"}`,
};
/** Seeded ids start here: far above any id the mock's sequence reaches during a run. */
const SEEDED = 1_000_000_000;
/** Ids the reads cycle through. */
const READ_SPAN = 1000;
const SEED_CHUNK = 5000;

export interface CrudOptions {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  serverCpu?: string;
  loadCpu?: string;
  work: string;
  log: (line: string) => void;
  /** The collection driven (PETSTORE_WORKLOAD unless said). */
  workload?: CrudWorkload;
  /** A pause before each request (LoadOptions.paceMs): the harness tests' load. */
  paceMs?: number;
}

export interface CrudOperationResult {
  operation: CrudOperation;
  mockRequestsPerSecond: number[];
  limitRequestsPerSecond: number[];
  /** mock ÷ limit per round. */
  ratios: number[];
  medianRatio: number;
  /** Answers that were not the operation's success (2xx), and socket errors, over the mock's measured runs. */
  errors: number;
  mockP50Ms: number;
}

export interface CrudResult {
  spec: string;
  connections: number;
  operations: CrudOperationResult[];
  goal: number;
  met: boolean;
}

export async function measureCrud(options: CrudOptions): Promise<CrudResult> {
  const { log } = options;
  const workload = options.workload ?? PETSTORE_WORKLOAD;
  const { collection } = workload;
  const headers = headerOf(workload.header);
  const mockSpec: TargetSpec = {
    id: 'memory',
    label: `mock, in memory, ${workload.spec}`,
    command: [process.execPath, ...MOCK_NODE_FLAGS, join(ROOT, MOCK_START), '--port', '{port}', '--spec', join(ROOT, workload.spec)],
    invalidStatuses: [400],
    probe: { path: collection, status: workload.createStatus, body: () => JSON.parse(workload.createBody) as unknown },
  };
  const mock = await startTarget(mockSpec, { cpus: options.serverCpu, logFile: join(options.work, 'crud-mock.log') });
  let limit: RunningTarget | undefined;
  try {
    await resetStore(mock.url, collection);
    let seeded = 0;
    const seedUpTo = async (count: number): Promise<void> => {
      while (seeded < count) {
        const size = Math.min(SEED_CHUNK, count - seeded);
        const items = Array.from({ length: size }, (_, i) => workload.seed(SEEDED + seeded + i));
        const status = await postJson(`${mock.url}/__mock${collection}`, `[${items.join(',')}]`);
        if (status !== 200) throw new Error(`seeding ${collection} answered ${status}`);
        seeded += size;
      }
    };
    await seedUpTo(READ_SPAN + 20_000);
    // The limit answers what the mock answered.
    const bodies = {
      create: await answerOf(mock.url, 'POST', collection, workload.createBody, workload.createStatus, headers),
      createStatus: workload.createStatus,
      read: await answerOf(mock.url, 'GET', `${collection}/${SEEDED}`, undefined, 200, headers),
      list: await answerOf(mock.url, 'GET', `${collection}?${workload.listQuery}`, undefined, 200, headers),
    };
    const bodiesFile = join(options.work, 'crud-bodies.json');
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    const limitSpec: TargetSpec = {
      id: 'limit',
      label: 'bare node:http answering the same bytes',
      command: [process.execPath, join(ROOT, 'dist/bench/crud-limit-server.js'), '{port}', bodiesFile],
      invalidStatuses: [200],
      probe: { path: collection, status: workload.createStatus, body: () => ({}) },
    };
    limit = await startTarget(limitSpec, { cpus: options.serverCpu });

    let nextDelete = SEEDED + READ_SPAN;
    let deleteRate = 20_000;
    const drive = async (target: RunningTarget, operation: CrudOperation, seconds: number): Promise<LoadResult> => {
      const isMock = target === mock;
      let first = SEEDED;
      if (operation === 'delete') {
        // Each id deleted once: enough seeded for this run at twice the fastest delete rate seen of
        // either server (the bare one bounds the mock's; a shared host can double between runs).
        if (isMock) await seedUpTo(nextDelete - SEEDED + Math.ceil(deleteRate * seconds * 2));
        first = nextDelete;
      }
      const result = await runLoad({
        url: target.url,
        scenario: 'valid',
        idBase: 0,
        durationSeconds: seconds,
        connections: options.connections,
        cpus: options.loadCpu,
        serverPid: target.pid,
        paceMs: options.paceMs,
        script: { path: SCRIPT, args: [operation, String(first), String(READ_SPAN), collection, workload.createBody, workload.listQuery, workload.header] },
      });
      if (operation === 'delete') {
        if (isMock) nextDelete += result.requests + options.connections;
        deleteRate = Math.max(deleteRate, result.requestsPerSecond);
      }
      return result;
    };

    const results = new Map<CrudOperation, { mock: LoadResult[]; limit: LoadResult[] }>(CRUD_OPERATIONS.map((op) => [op, { mock: [], limit: [] }]));
    log(`crud: warm-up ${options.warmupSeconds} s per server and operation`);
    if (options.warmupSeconds > 0) for (const operation of CRUD_OPERATIONS) for (const target of [limit, mock]) await drive(target, operation, options.warmupSeconds);
    for (let round = 1; round <= options.rounds; round++) {
      // Which server goes first flips every round, so drift in the machine's load favours neither.
      const order = round % 2 === 1 ? [limit, mock] : [mock, limit];
      for (const operation of CRUD_OPERATIONS) {
        for (const target of order) {
          const result = await drive(target, operation, options.durationSeconds);
          const entry = results.get(operation) as { mock: LoadResult[]; limit: LoadResult[] };
          (target === mock ? entry.mock : entry.limit).push(result);
          log(
            `crud round ${round} ${operation.padEnd(6)} ${(target === mock ? 'mock' : 'limit').padEnd(5)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s` +
              `  p50 ${(result.latencyUs.p50 / 1000).toFixed(2)} ms  non-2xx ${result.non2xx}  server cpu ${result.serverCpu ?? '?'}`,
          );
        }
      }
    }
    const operations = CRUD_OPERATIONS.map((operation): CrudOperationResult => {
      const { mock: mocked, limit: limited } = results.get(operation) as { mock: LoadResult[]; limit: LoadResult[] };
      const ratios = mocked.map((m, i) => round3(m.requestsPerSecond / (limited[i]?.requestsPerSecond ?? Number.NaN)));
      return {
        operation,
        mockRequestsPerSecond: mocked.map((m) => Math.round(m.requestsPerSecond)),
        limitRequestsPerSecond: limited.map((l) => Math.round(l.requestsPerSecond)),
        ratios,
        medianRatio: round3(median(ratios)),
        errors: mocked.reduce((sum, m) => sum + m.non2xx + m.socketErrors.connect + m.socketErrors.read + m.socketErrors.write + m.socketErrors.timeout, 0),
        mockP50Ms: round3(median(mocked.map((m) => m.latencyUs.p50 / 1000))),
      };
    });
    return {
      spec: workload.spec === PETSTORE_WORKLOAD.spec ? 'fixtures/specs/petstore-expanded-3.0' : `${workload.spec}, ${collection}`,
      connections: options.connections,
      operations,
      goal: CRUD_GOAL,
      met: operations.every((o) => o.medianRatio >= CRUD_GOAL && o.errors === 0),
    };
  } finally {
    await limit?.stop();
    await mock.stop();
  }
}

/** The crud figures as a Markdown table (docs/benchmarks.md). */
export function renderCrudTable(result: CrudResult): string {
  const rows = result.operations.map(
    (o) =>
      `| ${o.operation} | ${median(o.mockRequestsPerSecond)} | ${median(o.limitRequestsPerSecond)} | **${o.medianRatio.toFixed(2)}** (${o.ratios.map((r) => r.toFixed(2)).join(', ')}) | ${o.mockP50Ms.toFixed(2)} | ${o.errors} | ${o.medianRatio >= result.goal && o.errors === 0 ? 'met' : 'MISSED'} |`,
  );
  return [
    `| operation | mock req/s (median) | limit req/s (median) | mock ÷ limit, median (per round) | mock p50 ms | errors | goal ≥ ${result.goal} |`,
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

async function resetStore(url: string, collection: string): Promise<void> {
  const response = await fetch(`${url}/__mock${collection}`, { method: 'DELETE' });
  await response.body?.cancel();
  if (response.status !== 204) throw new Error(`DELETE /__mock${collection} answered ${response.status}`);
}

/** A header line (`Name: value`) as fetch's headers. */
function headerOf(line: string): Record<string, string> {
  const colon = line.indexOf(':');
  return colon === -1 ? {} : { [line.slice(0, colon).trim()]: line.slice(colon + 1).trim() };
}

async function postJson(url: string, body: string): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  await response.body?.cancel();
  return response.status;
}

async function answerOf(url: string, method: string, path: string, body: string | undefined, status: number, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${url}${path}`, { method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, body });
  const text = await response.text();
  if (response.status !== status) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
  return text;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

const BEGIN = '<!-- bench-crud:begin (written by npm run bench; `npm run bench -- --only crud` alone) -->';
const END = '<!-- bench-crud:end -->';

/** Rewrites the crud table between its markers in docs/benchmarks.md (appended with them when absent). */
export function writeCrudDoc(result: CrudResult, run: { date: string; loadAverage: { before: number | string; after: number | string }; pinned: boolean; rounds: number; duration: number }): void {
  const file = join(ROOT, 'docs/benchmarks.md');
  const doc = readFileSync(file, 'utf8');
  const section = [
    BEGIN,
    `Run of ${run.date.slice(0, 16).replace('T', ' ')} UTC: ${run.rounds} rounds of ${run.duration} s per operation and server, ${result.connections} connections,` +
      ` ${run.pinned ? 'server and wrk on a core each' : 'unpinned'}, load average ${run.loadAverage.before} → ${run.loadAverage.after}; spec ${result.spec}.`,
    '',
    renderCrudTable(result),
    END,
  ].join('\n');
  const start = doc.indexOf(BEGIN.slice(0, 25));
  const end = doc.indexOf(END);
  const next = start !== -1 && end > start ? doc.slice(0, start) + section + doc.slice(end + END.length) : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
