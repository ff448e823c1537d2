/**
 * What each file of this folder does: starts a process for the file, one for its test and a
 * provider; writes their ids to STARTED_FILE (given by shared-modules.test.ts); and checks that what
 * the files before it started (in the same worker, sharing this module) is stopped, and what they
 * set in process.env is undone.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { expect } from 'vitest';
import { startProvider } from '../../proxy/test/providers.js';
import { startServer } from '../processes.js';

const IDLE_SERVER = ['-e', 'console.log("listening on http://127.0.0.1:1/"); setInterval(() => {}, 60_000)'];

export interface Started {
  pids: number[];
  providerPorts: number[];
}

/** The ids of the processes and ports of the providers the files wrote to `file`. */
export function readStarted(file: string): Started {
  const lines = (existsSync(file) ? readFileSync(file, 'utf8') : '').split('\n').filter(Boolean);
  const records = lines.map((line) => JSON.parse(line) as { pids: number[]; port: number });
  return { pids: records.flatMap((record) => record.pids), providerPorts: records.map((record) => record.port) };
}

/** Whether a process with this id still runs (a zombie, killed and not yet reaped, counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Whether something still accepts connections on this loopback port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export async function startAndCheckEarlier(): Promise<void> {
  const file = process.env.STARTED_FILE as string;
  const earlier = readStarted(file);
  for (const pid of earlier.pids) await expect.poll(() => alive(pid)).toBe(false);
  for (const port of earlier.providerPorts) expect(await listening(port)).toBe(false);
  // What a file left in process.env is gone too (a leaked NODE_ENV=production changed a later file's children).
  expect(process.env.SHARED_MODULES_LEFT).toBeUndefined();
  expect(process.env.NODE_ENV).toBe('test');
  process.env.SHARED_MODULES_LEFT = 'by an earlier file';
  process.env.NODE_ENV = 'production';
  const forFile = await startServer(process.execPath, IDLE_SERVER, {}, undefined, 'file');
  const forTest = await startServer(process.execPath, IDLE_SERVER, {}, undefined, 'test');
  const provider = await startProvider();
  appendFileSync(file, `${JSON.stringify({ pids: [forFile.child.pid, forTest.child.pid], port: Number(new URL(provider.url).port) })}\n`);
}
