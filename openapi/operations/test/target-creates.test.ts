/**
 * Creates at the target URI (RFC 9110 §9.3.4, §15.3.2; collections.ts, createsAtTarget): a PUT at an
 * item path answering 201, a POST there answering 201 without a Location, or one marked
 * `x-mock-role: create`, makes the record its path names. On fixtures/specs/target-creates, and on
 * the two corpus documents that create so (JupyterHub, Jupyter Server).
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../compile.js';
import { inferredLine, recogniseCollections } from '../collections.js';

const SPEC = new URL('../../../fixtures/specs/target-creates/openapi.yaml', import.meta.url).pathname;
const REAL = new URL('../../../fixtures/real-world/', import.meta.url).pathname;

function recognised(path: string) {
  const { collections, stateful, stateless } = recogniseCollections(loadContract(path));
  const role = (operationId: string) => {
    const found = stateful.get(operationId);
    return found && { role: found.role, collection: found.collection.path, atTarget: found.atTarget };
  };
  return { collections, stateful, stateless, role };
}

describe('creates at the target URI', () => {
  const { collections, stateless, role, stateful } = recognised(SPEC);
  const at = (path: string) => collections.find((c) => c.path === path);

  it('a PUT answering 201 (and 200) at an item path with a GET makes its collection; declaring no 409, it creates or replaces', () => {
    expect(role('putWorkspace')).toEqual({ role: 'create', collection: '/workspaces', atTarget: 'upsert' });
    expect(at('/workspaces')).toMatchObject({ itemPath: '/workspaces/{name}', itemParameter: 'name', atTarget: 'upsert', identity: { property: 'name', type: 'string' } });
    // Named by the client in the path: nothing for the mock to assign, even where the pattern could make one.
    expect(at('/workspaces')?.identity.assigned).toBeUndefined();
    expect(role('listWorkspaces')?.role).toBe('list');
    expect(role('deleteWorkspace')?.role).toBe('delete');
    expect(inferredLine(at('/workspaces') as NonNullable<ReturnType<typeof at>>, stateful)).toContain('named by the client in the path (created at /workspaces/{name})');
  });

  it('one declaring 409 meets a record already there as a conflict; the identity its answer declares (name), the body none', () => {
    expect(role('createServer')).toEqual({ role: 'create', collection: '/workspaces/{name}/servers', atTarget: 'conflict' });
    const servers = at('/workspaces/{name}/servers');
    expect(servers?.parent?.collection.path).toBe('/workspaces');
    expect(servers?.identity).toMatchObject({ property: 'name', type: 'string' });
    expect(servers?.identity.assigned).toBeUndefined();
  });

  it('a second create at the item path beside the collection’s own: a POST answering 201 without a Location', () => {
    expect(role('createTeam')).toEqual({ role: 'create', collection: '/teams', atTarget: undefined });
    expect(role('createTeamAt')).toEqual({ role: 'create', collection: '/teams', atTarget: 'upsert' });
    expect(at('/teams')?.create.operationId).toBe('createTeam');
    expect(role('startServer')).toEqual({ role: 'create', collection: '/workspaces/{name}/servers', atTarget: 'upsert' });
  });

  it('a 201 with a Location made something elsewhere: no create of the path, no update of the record', () => {
    expect(role('copyTeam')).toBeUndefined();
    expect(stateless.get('copyTeam')).toBeDefined();
  });

  it('x-mock-role: create marks a PUT answering 200 only (Qdrant’s collections)', () => {
    expect(role('createIndex')).toEqual({ role: 'create', collection: '/indexes', atTarget: 'upsert' });
    expect(at('/indexes')?.identity).toMatchObject({ property: 'index', type: 'string' });
  });

  it('one taking no body makes a record of what its read answers (JupyterHub’s POST /groups/{name})', () => {
    expect(role('createLabel')).toEqual({ role: 'create', collection: '/labels', atTarget: 'upsert' });
    expect(at('/labels')?.identity).toMatchObject({ property: 'label', type: 'string' });
    // Nothing of the client's is written: the record is its key and what the mock fills.
    expect([...(at('/labels')?.declared ?? [])]).toEqual([]);
    expect(role('listLabels')?.role).toBe('list');
    const hub = recognised(`${REAL}jupyterhub/rest-api.yml`);
    expect(hub.role('post-group')).toEqual({ role: 'create', collection: '/groups', atTarget: 'upsert' });
    expect(hub.role('get-groups')?.role).toBe('list');
  });

  it('an --identity rule names a collection created at its item path as any other', () => {
    const contract = loadContract(SPEC);
    const { collections: renamed } = recogniseCollections(contract, { identity: { byPath: new Map([['/indexes', 'index']]) } });
    expect(renamed.find((c) => c.path === '/indexes')?.identity.property).toBe('index');
    expect(() => recogniseCollections(contract, { identity: { byPath: new Map([['/indexes', 'title']]) } })).toThrow(/declare no property 'title'/);
  });

  it('on JupyterHub: named servers (PUT, 409 declared) and a single user (POST /users/{name}) beside POST /users', () => {
    const hub = recognised(`${REAL}jupyterhub/rest-api.yml`);
    expect(hub.role('put-user-server-name')).toEqual({ role: 'create', collection: '/users/{name}/servers', atTarget: 'conflict' });
    expect(hub.role('post-user-server-name')).toEqual({ role: 'create', collection: '/users/{name}/servers', atTarget: 'upsert' });
    expect(hub.role('post-user')).toEqual({ role: 'create', collection: '/users', atTarget: 'upsert' });
    expect(hub.role('post-users')?.atTarget).toBeUndefined();
  });

  it('on Jupyter Server: contents created and replaced by PUT; the POST of a directory (201 with a Location) is no update of it', () => {
    const server = recognised(`${REAL}jupyter-server/api.yaml`);
    expect(server.role('put_api_contents_path')).toEqual({ role: 'create', collection: '/api/contents', atTarget: 'upsert' });
    expect(server.role('get_api_contents_path')?.role).toBe('read');
    expect(server.role('post_api_contents_path')).toBeUndefined();
  });
});
