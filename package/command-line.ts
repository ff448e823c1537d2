/**
 * What every command of the project (the mock, the Prism mock, the contract suite, verify:image,
 * the bench) shares about its flags: the same whole-number and list parsers, and the same exit
 * for a usage error (2, after commander has printed why) or for --help (0).
 */
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
