/** What the kernel says about a process: CPU time and resident memory, from /proc (Linux). */
import { readdirSync, readFileSync } from 'node:fs';
import { clockTicksPerSecond } from './machine.js';

/** User + system CPU seconds a process (all its threads) has used so far, or undefined when gone. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond();
  } catch {
    return undefined;
  }
}

/** Resident set size in bytes, or undefined when the process is gone. */
export function rssBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resident set size of a process and every process under it, in bytes (a server that forks, as
 * `prism mock --multiprocess` does, uses the memory of all of them), or undefined when it is gone.
 */
export function treeRssBytes(pid: number): number | undefined {
  const own = rssBytes(pid);
  if (own === undefined) return undefined;
  let total = own;
  for (const child of childrenOf(pid)) total += treeRssBytes(child) ?? 0;
  return total;
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
}
