/**
 * Identifiers in a path are read as the schema says, as a body's values are (issue 24 #6): on a
 * spec with `/pets/{id}` (int64), `01` once answered 500 "a SyntaxError … a bug in the mock" on
 * every method, and `1.0` a 404 though `1.0` in a body is the integer 1. The real process, over HTTP.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startMockProcess } from './processes.js';

const PETSTORE = fileURLToPath(new URL('../../fixtures/specs/petstore-expanded-3.0/openapi.yaml', import.meta.url));

describe('path identifiers parsed as the schema says', () => {
  it('refuses 01 with a 400 on every method, finds 1.0 and 1e0 as the record 1, never a 500', async () => {
    const mock = await startMockProcess(['--spec', PETSTORE, '--log-level', 'warn']);
    const created = await fetch(`${mock.url}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"one"}' });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: number };
    expect(id).toBe(1);
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      for (const segment of ['01', '00', '-01', '1.', '.5', '0x1']) {
        const response = await fetch(`${mock.url}/pets/${segment}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: method === 'PUT' || method === 'PATCH' ? '{"name":"x"}' : undefined,
        });
        const text = await response.text();
        expect(response.status, `${method} /pets/${segment}: ${text}`).toBeLessThan(500);
        if (method === 'GET' || method === 'DELETE') {
          expect(response.status, `${method} /pets/${segment}`).toBe(400);
          expect(text).toContain('path parameter id must be an integer');
        }
      }
    }
    for (const segment of ['1', '1.0', '1e0', '10e-1']) {
      const response = await fetch(`${mock.url}/pets/${segment}`);
      expect(response.status, segment).toBe(200);
      expect(await response.json()).toEqual({ id: 1, name: 'one' });
    }
    expect((await fetch(`${mock.url}/pets/1.0`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${mock.url}/pets/1`)).status).toBe(404);
    expect(mock.output()).not.toContain('"level":50');
  });
});
