/**
 * `--identity`: per collection (`/user=id`) or for every collection declaring the property, read
 * by the command line and applied by the mock over HTTP.
 */
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { mockCommand, parseMockArgs } from '../config.js';
import { createMockServer } from '../server.js';
import { call, corpusSpec, expectDeclared } from './corpus.js';

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
});
