/**
 * The table in docs/benchmarks.md. The bench rewrites only what lies between the two markers,
 * so the notes around it (how to run, what the profile showed) are kept.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractResult } from './contract.js';
import type { MachineInfo } from './machine.js';
import type { MemoryResult } from './memory.js';
import type { ProxyLatencyResult } from './proxy.js';
import type { NpmStartResult, StartupResult } from './startup.js';
import type { Goal, ScenarioSummary } from './summary.js';
import { ROOT, TARGET_LABELS, type TargetId } from './targets.js';

const BEGIN = '<!-- bench:begin (written by npm run bench) -->';
const END = '<!-- bench:end -->';

export interface ReportForDoc {
  date: string;
  machine: MachineInfo;
  loadAverage: { before: number; after: number };
  stealPercent?: number;
  options: { rounds: number; duration: number; connections: number; spawns: number; plants: number; pinned?: boolean };
  summaries: readonly ScenarioSummary[];
  goals: readonly Goal[];
  startup: readonly StartupResult[];
  npmStart?: NpmStartResult;
  /** Why the Docker image's start was not measured. */
  imageSkipped?: string;
  memory: readonly MemoryResult[];
  contract: ContractResult | undefined;
  proxy?: ProxyLatencyResult;
  missing: readonly { id: TargetId; why: string }[];
}

export function renderTable(report: ReportForDoc): string {
  const { machine, options } = report;
  const lines = [
    `Measured ${report.date.slice(0, 16).replace('T', ' ')} UTC on ${machine.cpu} (${machine.cores} cores, ${machine.memoryGiB} GiB), ` +
      `${machine.kernel}, Node ${machine.node}${machine.nodeSupported === false ? ` (not one the package supports: engines ${machine.supportedNode})` : ''}, ${machine.wrk ?? 'wrk'}; load average ${report.loadAverage.before} → ${report.loadAverage.after}` +
      `${report.stealPercent === undefined ? '' : `, ${report.stealPercent} % of CPU stolen by the host`}. ` +
      `${options.rounds} alternating rounds of ${options.duration} s per server and scenario, ${options.connections} connections, ` +
      `${options.pinned === false ? 'servers and wrk not pinned (taskset missing)' : 'server and wrk pinned to different cores'}; medians over rounds, each ratio taken within its round.`,
    '',
    '| server | scenario | req/s | × limit | p50 | p99 | errors | spawn → first 200 | RSS per plant |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of report.summaries) {
    const startup = report.startup.find((r) => r.target === s.target);
    const memory = report.memory.find((m) => m.target === s.target);
    lines.push(
      `| ${TARGET_LABELS[s.target]} | ${s.scenario === 'valid' ? 'valid' : 'mixed (10 % invalid, 5 % no auth)'} | ${s.requestsPerSecond} | ` +
        `${s.ratioToLimit?.toFixed(3) ?? '–'} | ${s.p50Ms.toFixed(2)} ms | ${s.p99Ms.toFixed(2)} ms | ${s.errors} | ` +
        `${s.scenario === 'valid' && startup ? `${startup.medianMs} ms` : ''} | ${s.scenario === 'valid' && memory ? `${memory.bytesPerPlant} B` : ''} |`,
    );
  }
  for (const m of report.missing) lines.push(`| ${TARGET_LABELS[m.id]} | not run: ${m.why} | | | | | | | |`);
  if (report.summaries.some((s) => s.target === 'redis' || s.target === 'redis-2')) {
    const pinned = options.pinned !== false;
    const pair = report.summaries.some((s) => s.target === 'redis-2');
    const memory = report.summaries.find((s) => s.target === 'memory' && s.scenario === 'valid');
    lines.push(
      '',
      `On Redis: one redis-server (AOF, \`appendfsync everysec\`) ${pinned ? 'on the core of wrk' : 'unpinned'}; one replica ${pinned ? "on the servers' core " : ''}under one wrk` +
        (pair
          ? `; two replicas ${pinned ? 'one on each core (the second beside Redis and the wrk processes) ' : ''}each under its own wrk of ${options.connections} connections at once: ` +
            'their req/s summed, their p50 and p99 the worse of the two runs'
          : '') +
        ". A replica's CPU per request is the CPU its process used over a run (user + system, from /proc) ÷ the requests it answered; " +
        `the in-memory mock's, taken the same way: ${memory?.cpuPerRequestUs ?? '?'} µs (valid load, median). ` +
        report.summaries
          .filter((s) => s.scenario === 'valid' && (s.target === 'redis' || s.target === 'redis-2'))
          .map(
            (s) =>
              `${TARGET_LABELS[s.target]}: replica CPU ${s.serverCpu ?? '?'} cores, ${s.cpuPerRequestUs ?? '?'} µs a request, wrk ${s.loadGeneratorCpu ?? '?'}, Redis ${s.redisCpu ?? '?'} (valid load, medians).`,
          )
          .join(' '),
    );
  }
  if (report.proxy) {
    const { proxy } = report;
    lines.push(
      '',
      `Proxy mode (${proxy.connections} connection, ${proxy.rounds.length} alternating rounds; medians over rounds, the difference taken within each round):`,
      '',
      '| server | req/s | p50 | p50 added | errors |',
      '|---|---:|---:|---:|---:|',
      `| ${TARGET_LABELS.limit}, called directly | ${proxy.directRequestsPerSecond} | ${proxy.directP50Ms.toFixed(3)} ms |  | |`,
      `| ${TARGET_LABELS.proxy} | ${proxy.proxiedRequestsPerSecond} | ${proxy.proxiedP50Ms.toFixed(3)} ms | ${proxy.addedP50Ms.toFixed(3)} ms | ${proxy.errors} |`,
    );
  }
  if (report.startup.length) {
    lines.push(
      '',
      `Start-up (${options.spawns} starts per server, alternating; spawn → the end of the first 200 to a valid create, polled every 2 ms; ` +
        "each start ÷ the bare server's start of the same round, median over rounds):",
      '',
      '| server | median | × bare node:http | starts |',
      '|---|---:|---:|---|',
      ...report.startup.map(
        (s) => `| ${s.target === 'image' ? TARGET_LABELS.image : TARGET_LABELS[s.target]} | ${s.medianMs} ms | ${s.ratioToLimit?.toFixed(2) ?? '1'} | ${s.samplesMs.join(', ')} ms |`,
      ),
    );
    if (report.npmStart) lines.push(`| \`npm start\` → "listening" (its pre-scripts included) | ${report.npmStart.medianMs} ms | | ${report.npmStart.samplesMs.join(', ')} ms |`);
    if (report.imageSkipped) lines.push(`| ${TARGET_LABELS.image} | not run: ${report.imageSkipped} | | |`);
  }
  lines.push('', '| goal | target | measured | |', '|---|---|---|---|');
  for (const g of report.goals) lines.push(`| ${g.goal} | ${g.target} | ${g.measured} | ${g.met === undefined ? '–' : g.accepted ? `accepted: ${g.accepted}` : g.met ? 'met' : '**missed**'} |`);
  if (report.memory.length) {
    lines.push('', `RSS per plant: ${report.options.plants} plants (short unique names, no tag) seeded through \`POST /__mock/plants\` in batches of 10 000; RSS from /proc before and after.`);
  }
  return lines.join('\n');
}

export function writeBenchmarksDoc(report: ReportForDoc): void {
  const path = join(ROOT, 'docs/benchmarks.md');
  const table = `${BEGIN}\n${renderTable(report)}\n${END}`;
  let doc = existsSync(path) ? readFileSync(path, 'utf8') : `# Benchmarks\n\n${BEGIN}\n${END}\n`;
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  doc = begin === -1 || end === -1 ? `${doc.trimEnd()}\n\n${table}\n` : doc.slice(0, begin) + table + doc.slice(end + END.length);
  mkdirSync(join(ROOT, 'docs'), { recursive: true });
  writeFileSync(path, doc);
}
