/**
 * fixtures/specs/petstore-expanded-3.0 (OpenAPI 3.0, upgraded on load): the create body has no
 * id, so the mock assigns one (a sequence: the id is an integer); the list takes `tags` (any of,
 * matched against the stored `tag`) and `limit`, and never answers more than its `maxItems`.
 * Every answer is one the operation declares (status, media type, body valid).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { call, corpusSpec, expectDeclared } from './corpus.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('petstore-expanded-3.0') });
});
afterAll(() => mock?.close());

describe('petstore-expanded-3.0: ids the mock assigns, lists filtered and paged from the store', () => {
  it('recognises every operation, the identity `id` assigned as a sequence', () => {
    expect(Object.fromEntries([...mock.engine.stateful].map(([id, { role }]) => [id, role]))).toEqual({
      addPet: 'create',
      findPets: 'list',
      findPetById: 'read',
      deletePet: 'delete',
    });
    expect(mock.engine.collections[0]?.identity).toEqual({ property: 'id', type: 'integer', assigned: 'sequence' });
  });

  it('create → read → list → delete → 404', async () => {
    await call(mock, 'DELETE', '/__mock/pets');
    const first = expectDeclared(mock, 'addPet', await call(mock, 'POST', '/pets', { name: 'Biscuit', tag: 'dog' }), 200);
    const second = expectDeclared(mock, 'addPet', await call(mock, 'POST', '/pets', { name: 'Tom' }), 200);
    expect(second.id).toBe(first.id + 1);
    expect(first).toEqual({ id: first.id, name: 'Biscuit', tag: 'dog' });
    expect(expectDeclared(mock, 'findPetById', await call(mock, 'GET', `/pets/${first.id}`), 200)).toEqual(first);
    expect(expectDeclared(mock, 'findPets', await call(mock, 'GET', '/pets'), 200)).toEqual([first, second]);
    expectDeclared(mock, 'deletePet', await call(mock, 'DELETE', `/pets/${first.id}`), 204);
    const gone = expectDeclared(mock, 'findPetById', await call(mock, 'GET', `/pets/${first.id}`), 404);
    expect(gone).toMatchObject({ code: 404 });
    expectDeclared(mock, 'deletePet', await call(mock, 'DELETE', `/pets/${first.id}`), 404);
    expect(expectDeclared(mock, 'findPets', await call(mock, 'GET', '/pets'), 200)).toEqual([second]);
  });

  it('applies tags (any of, against the stored tag) and limit, and never answers more than maxItems', async () => {
    await call(mock, 'DELETE', '/__mock/pets');
    const tags = ['dog', 'cat', 'fish'];
    for (let i = 0; i < 114; i++) await call(mock, 'POST', '/pets', { name: `pet ${i}`, tag: tags[i % 3] });
    const all = expectDeclared(mock, 'findPets', await call(mock, 'GET', '/pets'), 200);
    expect(all).toHaveLength(100);
    expect(all[0]).toMatchObject({ name: 'pet 0' });
    expect(mock.engine.stateful.get('findPets')?.list?.filters).toEqual(new Map([['tags', 'tag']]));
    const cats = expectDeclared(mock, 'findPets', await call(mock, 'GET', '/pets?tags=cat&limit=3'), 200);
    expect(cats.map((p: { name: string }) => p.name)).toEqual(['pet 1', 'pet 4', 'pet 7']);
    const either = expectDeclared(mock, 'findPets', await call(mock, 'GET', '/pets?tags=cat&tags=fish&limit=4'), 200);
    expect(either.map((p: { tag: string }) => p.tag)).toEqual(['cat', 'fish', 'cat', 'fish']);
    expect(expectDeclared(mock, 'findPets', await call(mock, 'GET', '/pets?tags=bird'), 200)).toEqual([]);
    expect(expectDeclared(mock, 'findPets', await call(mock, 'GET', '/pets?limit=5'), 200).map((p: { name: string }) => p.name)).toEqual(['pet 0', 'pet 1', 'pet 2', 'pet 3', 'pet 4']);
  });
});
