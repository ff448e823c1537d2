/**
 * Creates at the target URI (RFC 9110 §9.3.4, §15.3.2; openapi/operations/collections.ts,
 * createsAtTarget), served from the store over HTTP: the record the path names is made there, read
 * back, listed and deleted; a create declaring 409 refuses one already there, one declaring none
 * replaces it; a body naming another record than its path is refused. fixtures/specs/target-creates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { send, TOKEN } from './mock-under-test.js';

const SPEC = new URL('../../fixtures/specs/target-creates/openapi.yaml', import.meta.url).pathname;

describe('creates at the target URI', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: SPEC, tokens: [TOKEN] });
  });
  afterAll(async () => {
    await mock?.close();
  });
  const put = (path: string, body?: unknown) => send(mock, path, body, { method: 'PUT', ...(body === undefined ? { contentType: null } : {}) });
  const get = (path: string) => send(mock, path, undefined, { method: 'GET', contentType: null });

  it('a PUT declaring 201 and no 409 creates what it names (201), then replaces it (200); read, listed, deleted', async () => {
    const made = await put('/workspaces/alpha', { name: 'alpha', title: 'First' });
    expect([made.status, made.json]).toEqual([201, { name: 'alpha', title: 'First' }]);
    expect((await get('/workspaces/alpha')).json).toEqual({ name: 'alpha', title: 'First' });
    const replaced = await put('/workspaces/alpha', { name: 'alpha', title: 'Renamed', private: true });
    expect([replaced.status, replaced.json]).toEqual([200, { name: 'alpha', title: 'Renamed', private: true }]);
    await put('/workspaces/beta', { name: 'beta', title: 'Second' });
    expect((await get('/workspaces')).json).toEqual([
      { name: 'alpha', title: 'Renamed', private: true },
      { name: 'beta', title: 'Second' },
    ]);
    expect((await send(mock, '/workspaces/beta', undefined, { method: 'DELETE', contentType: null })).status).toBe(204);
    expect((await get('/workspaces/beta')).status).toBe(404);
  });

  it('refuses a body naming another record than its path (400, the reason said)', async () => {
    const refused = await put('/workspaces/gamma', { name: 'delta', title: 'Mixed' });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(/gamma.*delta|delta.*gamma/);
    expect((await get('/workspaces/gamma')).status).toBe(404);
  });

  it('a create declaring 409 makes the record under its parent, shows the identity the path gave, and refuses it there again', async () => {
    await put('/workspaces/hub', { name: 'hub', title: 'Hub' });
    const made = await put('/workspaces/hub/servers/lab-1', { display_name: 'Lab' });
    expect([made.status, made.json]).toEqual([201, expect.objectContaining({ name: 'lab-1', display_name: 'Lab', ready: expect.any(Boolean) })]);
    const again = await put('/workspaces/hub/servers/lab-1', { display_name: 'Other' });
    expect(again.status).toBe(409);
    expect(again.json.error).toContain('lab-1');
    expect((await get('/workspaces/hub/servers/lab-1')).json).toMatchObject({ name: 'lab-1', display_name: 'Lab' });
    // An optional body left out: a record of its identity alone (and the server fields its answer requires).
    const bare = await put('/workspaces/hub/servers/lab-2');
    expect([bare.status, bare.json?.name]).toEqual([201, 'lab-2']);
    // Under a parent that does not exist: 404, nothing made.
    expect((await put('/workspaces/nowhere/servers/lab-1', {})).status).toBe(404);
  });

  it('a POST at the item path answering 201 without a Location is a second create of the collection, the record answered as itself', async () => {
    const assigned = await send(mock, '/teams', { title: 'Assigned' });
    expect(assigned.status).toBe(201);
    const named = await send(mock, '/teams/core', undefined, { contentType: null });
    expect([named.status, named.json]).toEqual([201, expect.objectContaining({ id: 'core', title: expect.any(String) })]);
    expect((await get('/teams/core')).json).toMatchObject({ id: 'core' });
    expect((await get(`/teams/${assigned.json.id}`)).json).toEqual({ id: assigned.json.id, title: 'Assigned' });
    // A POST answering 201 with a Location makes something elsewhere: answered from the spec, the team untouched.
    expect((await send(mock, '/teams/core/copies', undefined, { contentType: null })).status).toBe(201);
  });

  it('a create taking no body stores the record its path names, the members its answer requires filled', async () => {
    const made = await send(mock, '/labels/urgent', undefined, { contentType: null });
    expect([made.status, made.json]).toEqual([201, { label: 'urgent', color: 'grey' }]);
    expect((await get('/labels')).json).toEqual([{ label: 'urgent', color: 'grey' }]);
    expect((await get('/labels/urgent')).json).toEqual({ label: 'urgent', color: 'grey' });
    expect((await get('/labels/other')).status).toBe(404);
  });

  it('x-mock-role: create marks a PUT answering 200 only as the create (the status it declares)', async () => {
    const made = await put('/indexes/vectors', { dimensions: 3 });
    expect([made.status, made.json]).toEqual([200, { index: 'vectors', dimensions: 3 }]);
    expect((await get('/indexes/vectors')).json).toEqual({ index: 'vectors', dimensions: 3 });
  });
});
