/** The machine a run was measured on, and the tools it measured with. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { satisfies } from 'semver';
import { packageFile } from '../package/root.js';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  /** The Node versions the package supports (`engines.node` of package.json). */
  supportedNode: string;
  /** Whether `node` is one of them: a run on another Node does not measure what users run. */
  nodeSupported: boolean;
  wrk: string | undefined;
  kernel: string;
}

export function describeMachine(): MachineInfo {
  const kernel = spawnSync('uname', ['-sr'], { encoding: 'utf8' }).stdout?.trim() ?? 'unknown';
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    supportedNode: SUPPORTED_NODE,
    nodeSupported: nodeSupported(process.version),
    wrk: wrkVersion(),
    kernel,
  };
}

/** `engines.node` of the package: the versions users run it on. */
export const SUPPORTED_NODE = (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/** Whether a Node version (`v24.21.0`) is one the package supports. */
export function nodeSupported(version: string, range: string = SUPPORTED_NODE): boolean {
  return satisfies(version, range);
}

/** `wrk 4.1.0 ...`, or undefined when wrk is not installed. */
export function wrkVersion(): string | undefined {
  const result = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (result.error) return undefined;
  return /wrk \S*?(\d[\d.]*\d)/.exec(`${result.stdout}${result.stderr}`)?.[0];
}

export function hasCommand(command: string, args: string[] = ['--version']): boolean {
  return !spawnSync(command, args, { stdio: 'ignore' }).error;
}

/** The 1-minute load average: how busy the machine was (other processes share its cores). */
export function load1(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

let ticks: number | undefined;
export function clockTicksPerSecond(): number {
  ticks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
  return ticks;
}

/** The machine's CPU counters (all cores, clock ticks) from /proc/stat: for steal and busy shares over a run. */
export function cpuCounters(): { total: number; idle: number; steal: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] as string;
    const [, ...fields] = line.trim().split(/\s+/);
    const n = fields.map(Number);
    const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
    return { total, idle: (n[3] ?? 0) + (n[4] ?? 0), steal: n[7] ?? 0 };
  } catch {
    return undefined;
  }
}

/** Percent of CPU time stolen by the hypervisor between two readings (other guests on the host). */
export function stealPercent(before: ReturnType<typeof cpuCounters>, after: ReturnType<typeof cpuCounters>): number | undefined {
  if (!before || !after || after.total === before.total) return undefined;
  return Math.round((1000 * (after.steal - before.steal)) / (after.total - before.total)) / 10;
}
