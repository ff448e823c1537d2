/**
 * `--identity`: per collection (`/user=id`) or for every collection declaring the property, read
 * by the command line and applied by the mock over HTTP.
 */
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { mockCommand, parseMockArgs } from '../config.js';
import { createMockServer } from '../server.js';
import { call, corpusSpec, expectDeclared } from './corpus.js';
import { MOCK_CLI, run } from './processes.js';

const parse = (args: string[]) => parseMockArgs(args, mockCommand().configureOutput({ writeErr: () => {}, writeOut: () => {} }));

describe('--identity', () => {
  it('reads per-collection rules and the bare property; none by default (the item path decides)', () => {
    expect(parse([]).identity).toBeUndefined();
    expect(parse(['--identity', '/user=id, name']).identity).toEqual({ everywhere: 'name', byPath: new Map([['/user', 'id']]) });
    expect(() => parse(['--identity', 'user=id'])).toThrow(CommanderError);
  });

  it('keys /user by id instead of the path parameter username when told so', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('users-forms-3.1'), identity: parse(['--identity', '/user=id']).identity });
    try {
      expect(mock.engine.collections.map((c) => [c.path, c.identity.property])).toEqual([
        ['/user', 'id'],
        ['/pet', 'id'],
      ]);
      expectDeclared(mock, 'createUser', await call(mock, 'POST', '/user', { id: 5, username: 'alice' }), 200);
      expect(expectDeclared(mock, 'getUserByName', await call(mock, 'GET', '/user/5'), 200)).toEqual({ id: 5, username: 'alice' });
    } finally {
      await mock.close();
    }
  });

  // Skipping the collection instead would leave /user silently answered from examples.
  it.each([
    ['/user=nope', "--identity /user=nope: the records of /user declare no property 'nope' (they declare "],
    ['/users=id', '--identity /users=id: /users is not a collection (/user, /pet)'],
  ])('refuses %s at start in one line, exit 1, listening never', async (rule, message) => {
    const { code, output } = await run(process.execPath, [MOCK_CLI, '--port', '0', '--spec', corpusSpec('users-forms-3.1'), '--identity', rule]);
    expect(code).toBe(1);
    expect(output).not.toContain('listening');
    expect(output.trim().split('\n')).toEqual([expect.stringContaining(`plant-store-mock: ${message}`)]);
  });
});
