/**
 * A collection whose records a POST elsewhere makes (collections.ts, madeElsewhere): a list and a
 * read with no POST of their own, and one POST under the same parent answering 201 with the new
 * record's noun id. On two real documents as published: DocuSign Maestro (a workflow's trigger
 * starts an instance, answered `{"instance_id": …}`) and DocuSign Rooms (`POST …/users/invite_user`
 * answers the user). Over real HTTP, each answer judged against the operation's declared response.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../openapi/operations/compile.js';
import { recogniseCollections } from '../../openapi/operations/collections.js';
import { createMockServer, type MockServer } from '../server.js';
import { call, expectDeclared } from './corpus.js';

const realWorld = (file: string): string => fileURLToPath(new URL(`../../fixtures/real-world/${file}`, import.meta.url));
const MAESTRO = realWorld('docusign-maestro/maestro.rest.swagger-v1.0.0.json');
const ROOMS = realWorld('docusign-rooms/rooms.rest.swagger-v2.json');
const KRATOS = realWorld('ory-kratos/api.json');

describe('the rule', () => {
  it('makes the trigger the instances’ create, answering the key by the noun id, the records named by their own id', () => {
    const instances = recogniseCollections(loadContract(MAESTRO)).collections.find((c) => c.path === '/v1/accounts/{accountId}/workflows/{workflowId}/instances');
    expect(instances).toMatchObject({
      create: { operationId: 'TriggerWorkflow' },
      itemParameter: 'instanceId',
      keyAnswered: 'instance_id',
      identity: { property: 'id', assigned: 'uuid' },
      scope: ['accountId', 'workflowId'],
    });
  });

  it('makes invite_user the users’ create, the answer the user itself', () => {
    const users = recogniseCollections(loadContract(ROOMS)).collections.find((c) => c.path === '/v2/accounts/{accountId}/users');
    expect(users).toMatchObject({ create: { operationId: 'Users_InviteUser' }, identity: { property: 'userId', assigned: 'sequence' } });
    expect(users?.keyAnswered).toBeUndefined();
  });

  it('reads no bare `id` as naming another collection’s record (Kratos: a login flow answered 201 is no identity schema)', () => {
    const { collections } = recogniseCollections(loadContract(KRATOS));
    expect(collections.find((c) => c.path === '/schemas')).toBeUndefined();
    expect(collections.find((c) => c.path === '/admin/test-login-flows')?.create.operationId).toBeDefined();
  });
});

describe('the mock on Maestro', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: MAESTRO });
  });
  afterAll(() => mock?.close());
  const workflow = (id: string): string => `/v1/accounts/6b5a8c4e-1f93-41b5-9279-8bc2ad365dd1/workflows/${id}`;
  const one = workflow('9fabc6d2-748b-41c9-8d5e-5fbf2f7e6e72');
  const other = workflow('b3c1ff15-4f5e-42b0-b74e-96177fa0e92d');

  it('keeps the instance a trigger starts, under that workflow only, with the inputs sent; an instance never started is 404', async () => {
    const started = expectDeclared(mock, 'TriggerWorkflow', await call(mock, 'POST', `${one}/actions/trigger`, { instance_name: 'Onboarding', trigger_inputs: { email: 'a@example.com' } }), 201);
    expect(Object.keys(started)).toEqual(['instance_id']);
    const id = started.instance_id as string;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const read = expectDeclared(mock, 'getWorkflowInstance', await call(mock, 'GET', `${one}/instances/${id}`), 200);
    expect(read).toMatchObject({ id, trigger_inputs: { email: 'a@example.com' } });
    const listed = expectDeclared(mock, 'getWorkflowInstancesList', await call(mock, 'GET', `${one}/instances`), 200);
    expect(listed.data.map((instance: { id: string }) => instance.id)).toEqual([id]);
    expect(expectDeclared(mock, 'getWorkflowInstancesList', await call(mock, 'GET', `${other}/instances`), 200).data).toEqual([]);
    expectDeclared(mock, 'getWorkflowInstance', await call(mock, 'GET', `${other}/instances/${id}`), 404);
    expectDeclared(mock, 'getWorkflowInstance', await call(mock, 'GET', `${one}/instances/00000000-0000-4000-8000-000000000000`), 404);
  });
});

describe('the mock on Rooms', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: ROOMS });
  });
  afterAll(() => mock?.close());

  it('serves the user an invitation made: read, listed, deleted, then gone', async () => {
    const invite = { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper', accessLevel: 'Company', defaultOfficeId: 1, roleId: 3, eSignPermissionProfileId: 'p-1' };
    const user = expectDeclared(mock, 'Users_InviteUser', await call(mock, 'POST', '/v2/accounts/7/users/invite_user', invite), 201);
    expect(user).toMatchObject({ userId: 1, email: 'grace@example.com', firstName: 'Grace' });
    expect(expectDeclared(mock, 'Users_GetUser', await call(mock, 'GET', '/v2/accounts/7/users/1'), 200)).toEqual(user);
    expect(expectDeclared(mock, 'Users_GetUsers', await call(mock, 'GET', '/v2/accounts/7/users'), 200).userSummaries).toEqual([user]);
    // Scoped by the account: another account has no such user.
    expect(expectDeclared(mock, 'Users_GetUsers', await call(mock, 'GET', '/v2/accounts/8/users'), 200).userSummaries).toEqual([]);
    expectDeclared(mock, 'Users_RemoveUser', await call(mock, 'DELETE', '/v2/accounts/7/users/1'), 204);
    expect((await call(mock, 'GET', '/v2/accounts/7/users/1')).status).toBe(404);
  });
});
