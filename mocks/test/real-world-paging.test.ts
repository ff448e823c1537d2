/** Paging families of real APIs (fixtures/specs/real-world-paging/): `$top`/`$skip`, and opaque cursors that round-trip. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { corpusSpec } from './corpus.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('real-world-paging'), selfCheck: true });
  for (const name of ['a', 'b', 'c', 'd', 'e']) {
    for (const path of ['/projects', '/events']) {
      const response = await fetch(mock.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
      expect(response.status).toBe(201);
    }
  }
});
afterAll(async () => {
  await mock.close();
});

async function get(path: string): Promise<any> {
  const response = await fetch(mock.url + path);
  expect(response.headers.get('plant-store-violations')).toBeNull();
  expect(response.status).toBe(200);
  return response.json();
}

describe('paging as real APIs declare it', () => {
  it('$top and $skip', async () => {
    expect((await get('/projects?%24top=2&%24skip=1')).map((p: { name: string }) => p.name)).toEqual(['b', 'c']);
    expect((await get('/projects?$top=2')).map((p: { name: string }) => p.name)).toEqual(['a', 'b']);
  });

  it('an opaque cursor walks every page and ends with null', async () => {
    const names: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const body: { data: Array<{ name: string }>; next_cursor: string | null } = await get(`/events?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      names.push(...body.data.map((event) => event.name));
      cursor = body.next_cursor;
      if (cursor === null) break;
    }
    expect(names).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(cursor).toBeNull();
  });
});
