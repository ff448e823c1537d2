/**
 * Wall time of the contract suite (`npm run contract`, run as its compiled CLI) against a local
 * in-memory mock that accepts only the bench token, so the suite's wrong-token checks apply.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { availableTargets, BENCH_TOKEN, ROOT, startTarget } from './targets.js';

export interface ContractResult {
  seconds: number | undefined;
  exitCode?: number | null;
  note: string;
}

const CLI = join(ROOT, 'dist/contract-tests/cli.js');
const TIMEOUT_MS = 180_000;

export async function measureContractSuite(cpus: string | undefined): Promise<ContractResult> {
  if (!existsSync(CLI)) return { seconds: undefined, note: 'not measured: dist/contract-tests/cli.js is not built' };
  const memory = availableTargets().targets.find((t) => t.id === 'memory');
  if (!memory) return { seconds: undefined, note: 'not measured: no mock to run it against' };
  const mock = await startTarget({ ...memory, command: [...memory.command, '--tokens', BENCH_TOKEN, '--log-level', 'warn'] }, { cpus });
  try {
    const started = performance.now();
    const { code, output } = await run(process.execPath, [CLI, '--base-url', mock.url, '--token', BENCH_TOKEN]);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const summary = output.trim().split('\n').filter(Boolean).slice(-1)[0] ?? '';
    return { seconds, exitCode: code, note: code === 0 ? `all checks passed; ${summary}` : `exit ${code}: ${summary}` };
  } finally {
    await mock.stop();
  }
}

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, fail) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const guard = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(guard);
      fail(error);
    });
    child.once('close', (code) => {
      clearTimeout(guard);
      resolve({ code, output });
    });
  });
}
