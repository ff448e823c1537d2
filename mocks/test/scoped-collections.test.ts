/**
 * Collections under a scope: a path template no operation creates (`{accountId}` of
 * fixtures/specs/scoped-offices, the shape of DocuSign Rooms, Twilio, Azure DevOps) names something
 * the client already has. Records created under it belong to that value: read back, listed and
 * deleted through the same value, absent under any other; a collection under a parent the spec does
 * create stays under that parent (it must exist).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileContract, loadContract } from '../../openapi/operations/compile.js';
import { inferredLine, recogniseCollections } from '../../openapi/operations/collections.js';
import { call, expectDeclared } from './corpus.js';
import { useMockForSpec } from './mock-under-test.js';

const SPEC = fileURLToPath(new URL('../../fixtures/specs/scoped-offices/openapi.yaml', import.meta.url));
const mock = useMockForSpec(readFileSync(SPEC, 'utf8'));

describe('the CRUD rule on a path under a scope', () => {
  it('makes a collection scoped by the template no operation creates, and one under it keeps its parent and the scope', () => {
    const { collections, stateful } = recogniseCollections(loadContract(SPEC));
    const offices = collections.find((c) => c.path === '/accounts/{accountId}/offices');
    expect(offices).toMatchObject({ scope: ['accountId'], parent: undefined, itemParameter: 'officeId' });
    expect(inferredLine(offices as NonNullable<typeof offices>, stateful)).toMatch(/^\/accounts\/\{accountId\}\/offices, \/accounts\/\{accountId\}\/offices\/\{officeId\}, scoped by accountId: /);
    const rooms = collections.find((c) => c.path === '/accounts/{accountId}/offices/{officeId}/rooms');
    expect(rooms?.parent?.collection).toBe(offices);
    expect(rooms?.parent?.parameter).toBe('officeId');
    expect(rooms?.scope).toEqual(['accountId']);
  });

  it('leaves a template that an operation does create a refusal, not a scope: a POST before it, or a PUT at it', () => {
    const body = { required: true, content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } } };
    const answer = { '201': { description: 'made', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } } } };
    const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
    const made = (paths: Record<string, unknown>) => recogniseCollections(compileContract({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths }, 'inline'));
    // POST /accounts answers text only: it creates accounts the mock does not store, so their offices belong to nothing it stores.
    const postBefore = made({
      '/accounts': { post: { operationId: 'createAccount', requestBody: body, responses: { '201': { description: 'made', content: { 'text/plain': { schema: { type: 'string' } } } } } } },
      '/accounts/{accountId}/offices': { parameters: [param('accountId')], post: { operationId: 'createOffice', requestBody: body, responses: answer } },
    });
    expect(postBefore.collections.map((c) => c.path)).toEqual([]);
    expect(postBefore.stateless.get('createOffice')).toMatch(/under no collection's item path/);
    const putAt = made({
      '/accounts/{accountId}': { parameters: [param('accountId')], put: { operationId: 'putAccount', requestBody: body, responses: answer } },
      '/accounts/{accountId}/offices': { parameters: [param('accountId')], post: { operationId: 'createOffice', requestBody: body, responses: answer } },
    });
    expect(putAt.collections.map((c) => c.path)).toEqual([]);
    const scoped = made({ '/accounts/{accountId}/offices': { parameters: [param('accountId')], post: { operationId: 'createOffice', requestBody: body, responses: answer } } });
    expect(scoped.collections.map((c) => [c.path, c.scope])).toEqual([['/accounts/{accountId}/offices', ['accountId']]]);
  });
});

describe('the mock on a scoped collection', () => {
  it('names the scope in /__mock/spec, beside what it inferred', async () => {
    const response = await fetch(`${mock.current.url}/__mock/spec`);
    const { collections } = (await response.json()) as { collections: Array<{ path: string; scope?: string[]; parent?: string; inferred: string }> };
    const offices = collections.find((c) => c.path === '/accounts/{accountId}/offices');
    expect(offices?.scope).toEqual(['accountId']);
    expect(offices?.parent).toBeUndefined();
    expect(offices?.inferred).toContain('scoped by accountId');
  });

  it('reads back, lists and deletes a record through its scope, and answers 404 for it under another', async () => {
    const created = expectDeclared(mock.current, 'createOffice', await call(mock.current, 'POST', '/accounts/acme/offices', { name: 'Leeds' }), 201);
    const id = created.id as number;
    expect(expectDeclared(mock.current, 'getOffice', await call(mock.current, 'GET', `/accounts/acme/offices/${id}`), 200)).toEqual({ id, name: 'Leeds' });
    expect((await call(mock.current, 'GET', `/accounts/other/offices/${id}`)).status).toBe(404);
    expect(expectDeclared(mock.current, 'listOffices', await call(mock.current, 'GET', '/accounts/other/offices'), 200)).toEqual([]);
    const second = expectDeclared(mock.current, 'createOffice', await call(mock.current, 'POST', '/accounts/other/offices', { name: 'York' }), 201);
    expect(expectDeclared(mock.current, 'listOffices', await call(mock.current, 'GET', '/accounts/acme/offices'), 200)).toEqual([{ id, name: 'Leeds' }]);
    expect(expectDeclared(mock.current, 'listOffices', await call(mock.current, 'GET', '/accounts/other/offices'), 200)).toEqual([second]);
    // `/__mock` lists a scope's records at the collection's concrete path, as the API does.
    const admin = await fetch(`${mock.current.url}/__mock/accounts/acme/offices`);
    expect(admin.status).toBe(200);
    expect(await admin.json()).toEqual([{ id, name: 'Leeds' }]);
    // A delete under another scope finds nothing, and leaves the record where it is.
    expect((await call(mock.current, 'DELETE', `/accounts/nobody/offices/${id}`)).status).toBe(404);
    expect((await call(mock.current, 'DELETE', `/accounts/acme/offices/${id}`)).status).toBe(204);
    expect((await call(mock.current, 'GET', `/accounts/acme/offices/${id}`)).status).toBe(404);
    expect(expectDeclared(mock.current, 'getOffice', await call(mock.current, 'GET', `/accounts/other/offices/${second.id}`), 200)).toEqual(second);
  });

  it('holds records under a thousand scopes and a thousand parents in bounded memory, not a column chunk each', async () => {
    // Every scope value and every parent record is a collection of the store's own: its columns and
    // index once took 1 MiB of typed arrays each from the first record, so a client writing under
    // many scopes held gigabytes (2 GiB here) and the collector's time grew with them.
    const before = process.memoryUsage().arrayBuffers;
    const offices: number[] = [];
    const sent = async (from: number, count: number, send: (at: number) => Promise<void>) => {
      for (let at = from; at < from + count; at++) await send(at);
    };
    const lanes = (count: number, send: (at: number) => Promise<void>) => Promise.all(Array.from({ length: 8 }, (_, lane) => sent((lane * count) / 8, count / 8, send)));
    await lanes(1000, async (at) => {
      expect((await call(mock.current, 'POST', `/accounts/many${at}/offices`, { name: `O${at}` })).status).toBe(201);
    });
    await lanes(1000, async (at) => {
      const office = await call(mock.current, 'POST', '/accounts/parents/offices', { name: `P${at}` });
      expect(office.status).toBe(201);
      offices[at] = office.json.id as number;
    });
    await lanes(1000, async (at) => {
      expect((await call(mock.current, 'POST', `/accounts/parents/offices/${offices[at]}/rooms`, { label: `R${at}` })).status).toBe(201);
    });
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(grown, `typed arrays grew by ${(grown / 2 ** 20).toFixed(1)} MiB for 2,000 small collections`).toBeLessThan(32 * 2 ** 20);
    expect(expectDeclared(mock.current, 'listOffices', await call(mock.current, 'GET', '/accounts/many999/offices'), 200)).toEqual([expect.objectContaining({ name: 'O999' })]);
    expect(expectDeclared(mock.current, 'listRooms', await call(mock.current, 'GET', `/accounts/parents/offices/${offices[500]}/rooms`), 200)).toEqual([expect.objectContaining({ label: 'R500' })]);
  });

  it('keeps a nested collection under its parent record within the scope: the parent must exist there', async () => {
    const office = expectDeclared(mock.current, 'createOffice', await call(mock.current, 'POST', '/accounts/north/offices', { name: 'Hull' }), 201);
    const room = expectDeclared(mock.current, 'createRoom', await call(mock.current, 'POST', `/accounts/north/offices/${office.id}/rooms`, { label: 'A1' }), 201);
    expect(expectDeclared(mock.current, 'getRoom', await call(mock.current, 'GET', `/accounts/north/offices/${office.id}/rooms/${room.id}`), 200)).toEqual(room);
    // The same office id in another account is no office: its rooms are refused as the spec declares.
    expect((await call(mock.current, 'POST', `/accounts/south/offices/${office.id}/rooms`, { label: 'B1' })).status).toBe(404);
    expect((await call(mock.current, 'GET', `/accounts/south/offices/${office.id}/rooms/${room.id}`)).status).toBe(404);
    // Deleting the office takes its rooms (in its scope) with it.
    expect((await call(mock.current, 'DELETE', `/accounts/north/offices/${office.id}`)).status).toBe(204);
    expect(expectDeclared(mock.current, 'createOffice', await call(mock.current, 'POST', '/accounts/north/offices', { name: 'Hull' }), 201).id).not.toBe(undefined);
    expect((await call(mock.current, 'GET', `/accounts/north/offices/${office.id}/rooms/${room.id}`)).status).toBe(404);
  });
});
