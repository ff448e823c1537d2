/** Child processes for tests: started, waited for (bounded) and always killed after. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MOCK_START } from '../node-flags.js';

/** What `npm start` runs (the start bundle); `npm test` builds it before the tests. */
export const MOCK_CLI = fileURLToPath(new URL(`../../${MOCK_START}`, import.meta.url));
/** tsc's build of the same entry, module by module (what the bundle is made from). */
export const MOCK_CLI_MODULES = fileURLToPath(new URL('../../dist/mocks/cli.js', import.meta.url));

/** How long a process lives at most: to the end of the test that started it, or of its file (started in `beforeAll`). */
export type Lifetime = 'test' | 'file';

/**
 * A safety limit, never a timing: how long a step that takes a second or two on a quiet machine may
 * take on one ten times slower and busy before the test gives up on it. Tests await the event (a line
 * printed, an answer, a socket closed); this only ends a test that would otherwise hang.
 */
export const PATIENT_MS = 60_000;

// Drained by vitest.cleanup.ts after every test and every file: hooks registered here would belong
// to the first file that imported this module when files share modules (vitest's isolate: false).
const running = new Set<ChildProcess>();
const runningForFile = new Set<ChildProcess>();

/** Kills what the test that just ended started (lifetime 'test', and `run`'s commands). */
export function killTestProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Kills what the file that just ended started for all its tests (lifetime 'file'). */
export function killFileProcesses(): void {
  for (const child of runningForFile) child.kill('SIGKILL');
  runningForFile.clear();
}

export interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
  exit: Promise<number | null>;
}

/** Starts a server process and waits (at most `timeoutMs`) for its `listening on URL` line. */
export function startServer(command: string, args: string[], options: SpawnOptions = {}, timeoutMs = PATIENT_MS, lifetime: Lifetime = 'test'): Promise<Server> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  (lifetime === 'file' ? runningForFile : running).add(child);
  let output = '';
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, fail) => {
    const timer = setTimeout(() => fail(new Error(`${command} ${args.join(' ')}: no listening line within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk;
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] as string, output: () => output, exit });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exit.then((code) => {
      clearTimeout(timer);
      fail(new Error(`${command} ${args.join(' ')} exited with ${code} before listening:\n${output}`));
    });
  });
}

/** Starts the mock's CLI on a free port with `args` and extra environment. */
export function startMockProcess(args: string[] = [], env: Record<string, string> = {}, lifetime: Lifetime = 'test'): Promise<Server> {
  return startServer(process.execPath, [MOCK_CLI, '--port', '0', ...args], { env: { ...process.env, ...env } }, PATIENT_MS, lifetime);
}

/** Runs a command to its end (killed after `timeoutMs`); returns its exit code and output. */
export function run(command: string, args: string[], options: SpawnOptions = {}, timeoutMs = PATIENT_MS): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, output: signal ? `${output}\n[killed by ${signal}]` : output });
    }),
  );
}

/** Runs a command and throws with its output unless it exits 0. */
export async function runOk(command: string, args: string[], options: SpawnOptions = {}, timeoutMs = PATIENT_MS): Promise<string> {
  const { code, output } = await run(command, args, options, timeoutMs);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`);
  return output;
}
