/**
 * The contract suite's command line run in the test's own process (contract-tests/command.ts),
 * as `npm run contract -- …` runs it, with its output collected as a terminal would show it and the
 * shell's PLANT_STORE_* settings left out. Tests about the process itself (exit status of a real
 * process, signals, start-up) spawn dist/contract-tests/cli.js instead.
 */
import { runContractCommand } from '../command.js';

const SETTINGS = ['PLANT_STORE_BASE_URL', 'PLANT_STORE_TOKEN', 'PLANT_STORE_SPEC', 'PLANT_STORE_BASIC', 'PLANT_STORE_PROFILE', 'PLANT_STORE_WAIT'];

export interface CommandRun {
  code: number;
  /** stdout and stderr as written, in order. */
  output: string;
  raw: Buffer;
}

/** Runs the command on `args`; `env` is what the shell would have exported of the PLANT_STORE_* settings. */
export async function runContract(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<CommandRun> {
  const chunks: Buffer[] = [];
  const write = (text: string): void => void chunks.push(Buffer.from(text, 'utf8'));
  // The flags read the environment when they are parsed, before the command's first await.
  const saved = SETTINGS.map((name) => [name, process.env[name]] as const);
  for (const name of SETTINGS) delete process.env[name];
  Object.assign(process.env, env);
  let running: Promise<number>;
  try {
    running = runContractCommand(args, { out: write, err: write });
  } finally {
    for (const name of Object.keys(env)) delete process.env[name];
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
  const code = await running;
  const raw = Buffer.concat(chunks);
  return { code, output: raw.toString('utf8'), raw };
}
