/**
 * What every command of the project (the mock, the Prism mock, the contract suite, verify:image,
 * the bench) shares about its flags: the same whole-number and list parsers, and the same exit
 * for a usage error (2, after commander has printed why) or for --help (0).
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { CommanderError, InvalidArgumentError } from 'commander';

/** A flag parser for a whole number from `min` to `max`. */
export function wholeNumber(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!(n >= min && n <= max)) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    return n;
  };
}

/** A TCP port; 0 picks a free one. */
export const port = wholeNumber(0, 65535);

/** A comma-separated list, items trimmed, empty ones dropped. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The parsed options, or the process exits: 0 after --help or --version, 2 after a usage error. */
export function parsedOrExit<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
    throw error;
  }
}

/**
 * A path the user typed (`--spec ./openapi.yaml`), absolute. Relative to the directory the user
 * ran the command in: under `npm start`/`npm run` npm runs the script in the package's root and
 * says where the user was in INIT_CWD; a process npm did not start there (a child of a test run
 * with its own working directory inherits INIT_CWD too) resolves against its own working directory.
 */
export function userPath(path: string, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  // An empty value is the flag's way of saying none (MOCK_STATE_FILE= in compose), not the working directory.
  if (path === '' || isAbsolute(path)) return path;
  const underNpm = env.INIT_CWD !== undefined && env.npm_package_json !== undefined && resolve(dirname(env.npm_package_json)) === resolve(cwd);
  return resolve(underNpm ? (env.INIT_CWD as string) : cwd, path);
}
