/**
 * fixtures/specs/users-forms-3.1 (OpenAPI 3.1): members addressed by username though they have
 * an id, a write-only password, animals replaced with the id in the body and updated by form
 * fields, over real HTTP. Every answer is one the operation declares.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { call, corpusSpec, expectDeclared } from './corpus.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('users-forms-3.1') });
});
afterAll(() => mock?.close());

describe('users-forms-3.1: identities named by the item path, updates where the spec puts them', () => {
  it('recognises every operation', () => {
    expect(Object.fromEntries([...mock.engine.stateful].map(([id, { role }]) => [id, role]))).toEqual({
      createUser: 'create',
      getUserByName: 'read',
      updateUser: 'replace',
      deleteUser: 'delete',
      addPet: 'create',
      updatePet: 'replace-in-body',
      getPetById: 'read',
      updatePetWithForm: 'form-update',
      deletePet: 'delete',
    });
    expect(mock.engine.collections.map((c) => [c.path, c.identity.property])).toEqual([
      ['/user', 'username'],
      ['/pet', 'id'],
    ]);
  });

  it('a member: create → read by username (not by id) → replace → delete → 404; the password stored, never answered', async () => {
    const created = expectDeclared(mock, 'createUser', await call(mock, 'POST', '/user', { id: 5, username: 'alice', email: 'a@example.org', password: 'hunter2' }), 200);
    expect(created).toEqual({ id: 5, username: 'alice', email: 'a@example.org' });
    expect(await (await fetch(`${mock.url}/__mock/user`)).json()).toEqual([{ id: 5, username: 'alice', email: 'a@example.org', password: 'hunter2' }]);
    expect(expectDeclared(mock, 'getUserByName', await call(mock, 'GET', '/user/alice'), 200)).toEqual(created);
    expectDeclared(mock, 'getUserByName', await call(mock, 'GET', '/user/5'), 404);
    expectDeclared(mock, 'createUser', await call(mock, 'POST', '/user', { username: 'alice' }), 409);
    const replaced = expectDeclared(mock, 'updateUser', await call(mock, 'PUT', '/user/alice', { id: 5, username: 'alice', email: 'alice@example.org' }), 200);
    expect(replaced).toEqual({ id: 5, username: 'alice', email: 'alice@example.org' });
    expectDeclared(mock, 'updateUser', await call(mock, 'PUT', '/user/alice', { username: 'bob' }), 400);
    const stored = await (await fetch(`${mock.url}/__mock/user`)).json();
    expect(stored).toEqual([{ id: 5, username: 'alice', email: 'alice@example.org' }]);
    expectDeclared(mock, 'deleteUser', await call(mock, 'DELETE', '/user/alice'), 204);
    expectDeclared(mock, 'getUserByName', await call(mock, 'GET', '/user/alice'), 404);
  });

  it('an animal: create → read → PUT on the collection path → form updates (query, form body) → delete → 404', async () => {
    expectDeclared(mock, 'addPet', await call(mock, 'POST', '/pet', '{"id":77,"name":"Rex","status":"available"}'), 200);
    expect(expectDeclared(mock, 'getPetById', await call(mock, 'GET', '/pet/77'), 200)).toEqual({ id: 77, name: 'Rex', status: 'available' });
    const replaced = expectDeclared(mock, 'updatePet', await call(mock, 'PUT', '/pet', { id: 77, name: 'Rex II', status: 'pending' }), 200);
    expect(replaced).toEqual({ id: 77, name: 'Rex II', status: 'pending' });
    expectDeclared(mock, 'updatePet', await call(mock, 'PUT', '/pet', { id: 78, name: 'nobody' }), 404);
    expectDeclared(mock, 'updatePet', await call(mock, 'PUT', '/pet', { name: 'no id' }), 400);
    const formed = expectDeclared(mock, 'updatePetWithForm', await call(mock, 'POST', '/pet/77?name=Rex%20III&status=sold'), 200);
    expect(formed).toEqual({ id: 77, name: 'Rex III', status: 'sold' });
    expect((await call(mock, 'GET', '/pet/77')).json).toEqual(formed);
    const posted = expectDeclared(mock, 'updatePetWithForm', await call(mock, 'POST', '/pet/77', 'name=Rex+IV&status=pending', 'application/x-www-form-urlencoded'), 200);
    expect(posted).toEqual({ id: 77, name: 'Rex IV', status: 'pending' });
    expectDeclared(mock, 'updatePetWithForm', await call(mock, 'POST', '/pet/77', 'status=lost', 'application/x-www-form-urlencoded'), 400);
    expect((await call(mock, 'GET', '/pet/77')).json).toEqual(posted);
    expectDeclared(mock, 'updatePetWithForm', await call(mock, 'POST', '/pet/78?name=x'), 404);
    expectDeclared(mock, 'deletePet', await call(mock, 'DELETE', '/pet/77'), 200);
    expectDeclared(mock, 'getPetById', await call(mock, 'GET', '/pet/77'), 404);
  });
});
