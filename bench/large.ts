/**
 * The large real-world documents (issue 37): netlify (174 operations), overseerr (170) and lago
 * (202) from fixtures/real-world/. For each, the mock and Stoplight's `prism mock` CLI are started
 * on the same file, alternating (which goes first flips every round), each timed from spawn to the
 * first answered request (a GET of one of the document's lists, answered 200) and its resident
 * memory read right after (the process and any it forked). Each figure is the mock's ÷ Prism's of
 * the same round, the median over rounds; the goals: ≤ 0.25× Prism's time, ≤ 0.33× its RSS.
 * Then a CRUD collection of one of them (netlify's /sites) is driven as the crud step drives the
 * petstore's (bench/crud.ts), against a bare node:http server answering the same bytes: ≥ 0.6.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK_NODE_FLAGS, MOCK_START } from '../mocks/node-flags.js';
import { renderCrudTable, type CrudResult, type CrudWorkload } from './crud.js';
import { treeRssBytes } from './process-stats.js';
import { LARGE_RSS_GOAL, LARGE_TIME_GOAL, median } from './summary.js';
import { BENCH_TOKEN, ROOT, startTarget, type Probe, type TargetSpec } from './targets.js';

export interface LargeDocument {
  name: string;
  /** Relative to the package root. */
  file: string;
  operations: number;
  /** A list every server answers 200 once it is ready. */
  probePath: string;
}

export const LARGE_DOCUMENTS: readonly LargeDocument[] = [
  { name: 'netlify', file: 'fixtures/real-world/netlify/swagger.yml', operations: 174, probePath: '/sites' },
  { name: 'overseerr', file: 'fixtures/real-world/overseerr/overseerr-api.yml', operations: 170, probePath: '/user' },
  { name: 'lago', file: 'fixtures/real-world/lago/openapi.yaml', operations: 202, probePath: '/billable_metrics' },
];

/** netlify's sites: created without an id (the mock assigns one, 201), paged by per_page, deleted with 204. */
export const NETLIFY_SITES_WORKLOAD: CrudWorkload = {
  spec: 'fixtures/real-world/netlify/swagger.yml',
  collection: '/sites',
  createBody: '{"name":"bench-site"}',
  createStatus: 201,
  listQuery: 'per_page=20',
  header: `Authorization: Bearer ${BENCH_TOKEN}`,
  seed: (id) => `{"id":"${id}","name":"bench-site"}`,
};

/** Every scheme these documents declare is satisfied by one of these (bearer, OAuth 2, overseerr's X-Api-Key). */
const CREDENTIALS = { authorization: `Bearer ${BENCH_TOKEN}`, 'x-api-key': BENCH_TOKEN };

/** `baseline`: another build of the mock (`--baseline <its dist/start/cli.js>`), measured in the same rounds. */
export type LargeServer = 'mock' | 'prism-cli' | 'baseline';

export interface LargeStart {
  round: number;
  server: LargeServer;
  ms: number;
  rssBytes: number;
}

export interface LargeDocumentResult {
  name: string;
  file: string;
  operations: number;
  starts: LargeStart[];
  mockMedianMs: number;
  prismMedianMs: number;
  mockMedianRssMiB: number;
  prismMedianRssMiB: number;
  /** Median over rounds of the mock's ÷ Prism's of the same round. */
  timeRatio: number;
  rssRatio: number;
  /** The smallest and largest ratio of a round: the spread the shared machine gave. */
  timeSpread: [number, number];
  rssSpread: [number, number];
  /** The baseline build's figures, the same way, when one ran. */
  baseline?: { medianMs: number; medianRssMiB: number; timeRatio: number; rssRatio: number; timeSpread: [number, number]; rssSpread: [number, number] };
}

/** The two servers on one document, as a developer would start each. */
export function largeTargets(document: LargeDocument, baselineCli?: string): Partial<Record<LargeServer, TargetSpec>> | undefined {
  const file = join(ROOT, document.file);
  const prismCli = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
  if (!existsSync(prismCli)) return undefined;
  const probe: Probe = { path: document.probePath, status: 200, method: 'GET', headers: CREDENTIALS, body: () => undefined };
  return {
    mock: {
      id: 'memory',
      label: `mock, in memory, ${document.name}`,
      command: [process.execPath, ...MOCK_NODE_FLAGS, join(ROOT, MOCK_START), '--port', '{port}', '--spec', file],
      invalidStatuses: [400],
      probe,
    },
    // One process, as a user starts it: under NODE_ENV=production Prism would fork a worker (its -m default).
    'prism-cli': {
      id: 'prism-cli',
      label: `Prism CLI (stock \`prism mock\`), ${document.name}`,
      command: [process.execPath, prismCli, 'mock', file, '--port', '{port}', '--host', '127.0.0.1', '--multiprocess=false'],
      invalidStatuses: [400, 422],
      probe,
    },
    ...(baselineCli
      ? {
          baseline: {
            id: 'baseline' as const,
            label: `mock, baseline build (${baselineCli}), ${document.name}`,
            command: [process.execPath, ...MOCK_NODE_FLAGS, baselineCli, '--port', '{port}', '--spec', file],
            invalidStatuses: [400],
            probe,
          },
        }
      : {}),
  };
}

export async function measureLargeStartup(options: {
  rounds: number;
  documents?: readonly LargeDocument[];
  serverCpu?: string;
  log: (line: string) => void;
  /** Another build's dist/start/cli.js, started in the same rounds (before and after a change). */
  baselineCli?: string;
}): Promise<LargeDocumentResult[]> {
  const documents = options.documents ?? LARGE_DOCUMENTS;
  const starts = new Map<string, LargeStart[]>(documents.map((d) => [d.name, []]));
  for (let round = 1; round <= options.rounds; round++) {
    for (const document of documents) {
      const targets = largeTargets(document, options.baselineCli);
      if (!targets) throw new Error('@stoplight/prism-cli is not installed (a devDependency: npm ci)');
      // Which server starts first rotates every round, so drift in the machine's load favours none.
      const servers = ORDER.filter((server) => targets[server]);
      const order = servers.map((_, i) => servers[(i + round - 1) % servers.length] as LargeServer);
      for (const server of order) {
        const spec = targets[server] as TargetSpec;
        // Prism takes seconds on these documents, longer on a busy machine.
        const running = await startTarget(spec, { cpus: options.serverCpu, timeoutMs: 180_000 });
        try {
          const rssBytes = treeRssBytes(running.pid);
          if (rssBytes === undefined) throw new Error(`cannot read the resident memory of ${spec.label}`);
          const start = { round, server, ms: Math.round(running.spawnToFirst200Ms), rssBytes };
          starts.get(document.name)?.push(start);
          options.log(`large round ${round} ${document.name.padEnd(9)} ${server.padEnd(9)} ${String(start.ms).padStart(6)} ms  RSS ${mib(rssBytes)} MiB`);
        } finally {
          await running.stop();
        }
      }
    }
  }
  return documents.map((document) => summariseLarge(document, starts.get(document.name) ?? []));
}

const ORDER: readonly LargeServer[] = ['mock', 'prism-cli', 'baseline'];

/** The medians and the per-round ratios of one document's starts. */
export function summariseLarge(document: LargeDocument, starts: readonly LargeStart[]): LargeDocumentResult {
  const of = (server: LargeServer) => starts.filter((s) => s.server === server);
  const ratios = (server: LargeServer, measure: (s: LargeStart) => number): number[] =>
    of(server).flatMap((mine) => {
      const theirs = starts.find((s) => s.server === 'prism-cli' && s.round === mine.round);
      return theirs ? [measure(mine) / measure(theirs)] : [];
    });
  const figures = (server: LargeServer) => ({
    medianMs: median(of(server).map((s) => s.ms)),
    medianRssMiB: round1(median(of(server).map((s) => s.rssBytes)) / 2 ** 20),
    ...ratioFigures(
      ratios(server, (s) => s.ms),
      ratios(server, (s) => s.rssBytes),
    ),
  });
  const { medianMs, medianRssMiB, ...mock } = figures('mock');
  return {
    name: document.name,
    file: document.file,
    operations: document.operations,
    starts: [...starts],
    mockMedianMs: medianMs,
    prismMedianMs: median(of('prism-cli').map((s) => s.ms)),
    mockMedianRssMiB: medianRssMiB,
    prismMedianRssMiB: round1(median(of('prism-cli').map((s) => s.rssBytes)) / 2 ** 20),
    ...mock,
    ...(of('baseline').length ? { baseline: figures('baseline') } : {}),
  };
}

function ratioFigures(time: readonly number[], rss: readonly number[]): Pick<LargeDocumentResult, 'timeRatio' | 'rssRatio' | 'timeSpread' | 'rssSpread'> {
  return {
    timeRatio: round2(median(time)),
    rssRatio: round2(median(rss)),
    timeSpread: [round2(Math.min(...time)), round2(Math.max(...time))],
    rssSpread: [round2(Math.min(...rss)), round2(Math.max(...rss))],
  };
}

/** The figures as a Markdown table (docs/benchmarks.md); a baseline build's, when one ran, below. */
export function renderLargeTable(results: readonly LargeDocumentResult[]): string {
  const spread = (values: readonly number[]): string => values.map((v) => v.toFixed(2)).join('–');
  const rows = results.map(
    (r) =>
      `| ${r.name} (${r.operations} operations) | ${r.mockMedianMs} ms | ${r.prismMedianMs} ms | **${r.timeRatio.toFixed(2)}** (${spread(r.timeSpread)}) | ${r.mockMedianRssMiB} MiB | ${r.prismMedianRssMiB} MiB | **${r.rssRatio.toFixed(2)}** (${spread(r.rssSpread)}) | ${r.timeRatio <= LARGE_TIME_GOAL && r.rssRatio <= LARGE_RSS_GOAL ? 'met' : 'MISSED'} |`,
  );
  const baselines = results.flatMap(({ name, prismMedianMs, prismMedianRssMiB, baseline: b }) =>
    b
      ? [
          `| ${name}, baseline build | ${b.medianMs} ms | ${prismMedianMs} ms | ${b.timeRatio.toFixed(2)} (${spread(b.timeSpread)}) | ${b.medianRssMiB} MiB | ${prismMedianRssMiB} MiB | ${b.rssRatio.toFixed(2)} (${spread(b.rssSpread)}) | |`,
        ]
      : [],
  );
  return [
    `| document | mock, spawn → first 200 | Prism CLI | mock ÷ Prism, median (spread) goal ≤ ${LARGE_TIME_GOAL} | mock RSS | Prism RSS | mock ÷ Prism, median (spread) goal ≤ ${LARGE_RSS_GOAL} | |`,
    '|---|---:|---:|---|---:|---:|---|---|',
    ...rows,
    ...baselines,
  ].join('\n');
}

const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
const round1 = (value: number): number => Math.round(value * 10) / 10;
const round2 = (value: number): number => Math.round(value * 100) / 100;

const BEGIN = '<!-- bench-large:begin (written by npm run bench; `npm run bench -- --only large` alone) -->';
const END = '<!-- bench-large:end -->';

/** Rewrites the large documents' tables between their markers in docs/benchmarks.md (appended with them when absent). */
export function writeLargeDoc(
  results: readonly LargeDocumentResult[] | undefined,
  crud: CrudResult | undefined,
  run: { date: string; loadAverage: { before: number | string; after: number | string }; pinned: boolean; rounds: number; duration: number },
): void {
  const file = join(ROOT, 'docs/benchmarks.md');
  const doc = readFileSync(file, 'utf8');
  const section = [
    BEGIN,
    `Run of ${run.date.slice(0, 16).replace('T', ' ')} UTC: ${run.rounds} alternating rounds, ${run.pinned ? 'servers on one core, the bench on the other' : 'unpinned'}, load average ${run.loadAverage.before} → ${run.loadAverage.after}.`,
    '',
    ...(results ? [renderLargeTable(results), ''] : []),
    ...(crud ? [`CRUD of ${crud.spec}, ${run.duration} s per operation and server, ${crud.connections} connections:`, '', renderCrudTable(crud)] : []),
    END,
  ].join('\n');
  const start = doc.indexOf(BEGIN.slice(0, 26));
  const end = doc.indexOf(END);
  const next = start !== -1 && end > start ? doc.slice(0, start) + section + doc.slice(end + END.length) : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
