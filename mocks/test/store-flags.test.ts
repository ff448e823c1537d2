/**
 * `--store` and `--store-prefix` as the command line reads them: memory by default, a Redis URL
 * checked before anything starts, the password never repeated in a message, and no mixing of a
 * state file with Redis.
 */
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { mockCommand, parseMockArgs } from '../config.js';
import { DEFAULT_STORE_PREFIX } from '../stores/redis-target.js';
import { MOCK_CLI, run } from './processes.js';

/** Parses with commander's error output captured instead of printed. */
function parse(args: string[]): ReturnType<typeof parseMockArgs> {
  const command = mockCommand().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  return parseMockArgs(args, command);
}

describe('--store and --store-prefix', () => {
  it('keep the plants in memory under the default prefix unless told otherwise', () => {
    expect(parse([])).toMatchObject({ storeUrl: 'memory', storePrefix: DEFAULT_STORE_PREFIX });
    expect(parse(['--store', 'rediss://:pw@cache.example:6390/3', '--store-prefix', 'team-a.sandbox_1'])).toMatchObject({
      storeUrl: 'rediss://:pw@cache.example:6390/3',
      storePrefix: 'team-a.sandbox_1',
    });
  });

  it.each([
    [['--store', 'http://:pw@h:1'], /--store: The store URL http:\/\/:\*\*\*@h:1 has the scheme http/],
    [['--store', 'redis://:pw@h:1/?db=2'], /has a query/],
    [['--store', 'file.state'], /is not a URL/],
    [['--store', 'redis://h:1', '--state-file', 'plants.state'], /--state-file keeps the records in a file and --store in Redis: choose one/],
    [['--store-prefix', 'a:b'], /--store-prefix: The store prefix "a:b" is not usable/],
  ])('refuse %j with exit status 2 and a message that never repeats the password', (args, pattern) => {
    let thrown: unknown;
    try {
      parse(args);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CommanderError);
    expect((thrown as CommanderError).exitCode).toBe(2);
    expect((thrown as CommanderError).message).toMatch(pattern);
    expect((thrown as CommanderError).message).not.toContain('pw');
  });

  it('are checked by the CLI before it starts: exit 2, the message on stderr, the password masked', async () => {
    const { code, output } = await run(process.execPath, [MOCK_CLI, '--port', '0', '--store', 'redis://:hunter2@h:1/db'], {}, 30_000);
    expect(code).toBe(2);
    expect(output).toContain('--store: The store URL redis://:***@h:1/db has the path /db, which is not a database number');
    expect(output).not.toContain('hunter2');
  });
});
