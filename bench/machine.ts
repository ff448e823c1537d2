/** The machine a run was measured on, and the tools it measured with. */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
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
    wrk: wrkVersion(),
    kernel,
  };
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
