/**
 * Shapes of real APIs that left the suite's "K of P operations below a parent ran on one the suite
 * created" at zero against the mock (issue 38, §1), each with a small spec shaped like the real one.
 *
 * A create that answers the records it made as a list: JupyterHub's `POST /users` ("Create multiple
 * users") answers an array of users, Pi-hole's `POST /groups` an object whose `groups` member is the
 * array (collections.ts, Collection.createdAs). The record's identity is in the list's item: the mock
 * answers the record it stored there, and the suite reads it from there, so the operations below a
 * user run on the user the suite made.
 *
 * A create whose body nests a schema that is allOf two parts, each declaring properties: PayPal's
 * invoice `detail` is allOf `detail` (declaring `currency_code`, required) and a part adding
 * `invoice_number`. The one allOf merge (openapi/schema/shape.ts mergeAllOf) kept only the last part's
 * properties, so no body the suite wrote held the required `currency_code`: no invoice was ever created.
 *
 * A parent created at its own path (JupyterHub's `POST /groups/{name}`, which takes no body; Jupyter
 * Server's `PUT /api/contents/{path}`): the suite names its key in that path, as its sequence does.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { PATIENT_MS } from '../../mocks/test/processes.js';
import { send, TOKEN, useMockForSpec } from '../../mocks/test/mock-under-test.js';
import { recogniseCollections } from '../../openapi/operations/collections.js';
import { readContract } from '../../openapi/operations/compile.js';
import { runContractSuite, type ContractReport } from '../index.js';
import { suiteSpecOf } from '../spec-contract.js';

const security = [{ bearer: [] }];
const problem = { description: 'No such record', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } };
const user = { type: 'object', properties: { name: { type: 'string' }, admin: { type: 'boolean' }, last_activity: { type: 'string', format: 'date-time' } } };
const group = { type: 'object', properties: { name: { type: 'string' }, comment: { type: 'string' } } };

/** A spec whose create answers `created` (the list shape) and whose `/{items}/{name}/activity` is a child operation below a record. */
function specOf(items: string, body: object, record: object, created: object): object {
  const ok = (schema: object) => ({ description: 'OK', content: { 'application/json': { schema } } });
  return {
    openapi: '3.1.0',
    info: { title: `${items} created as a list`, version: '1' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security,
    paths: {
      [`/${items}`]: {
        post: {
          operationId: `create-${items}`,
          requestBody: { required: true, content: { 'application/json': { schema: body } } },
          responses: { 201: { description: `The created ${items}`, content: { 'application/json': { schema: created } } } },
        },
        get: { operationId: `list-${items}`, responses: { 200: ok({ type: 'array', items: record }) } },
      },
      [`/${items}/{name}`]: {
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: `get-${items}`, responses: { 200: ok(record), 404: problem } },
        delete: { operationId: `delete-${items}`, responses: { 204: { description: 'Deleted' }, 404: problem } },
      },
      [`/${items}/{name}/activity`]: {
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        post: {
          operationId: `post-${items}-activity`,
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { last_activity: { type: 'string', format: 'date-time' } } } } } },
          responses: { 200: ok(record), 404: problem },
        },
      },
    },
  };
}

// JupyterHub: the body names the users to make (`usernames`), the answer is an array of them.
const USERS = specOf('users', { type: 'object', properties: { usernames: { type: 'array', items: { type: 'string' } }, admin: { type: 'boolean' } } }, user, {
  type: 'array',
  description: 'The created users',
  items: user,
});
// Pi-hole: the answer wraps the created groups in a member beside others (`took`), which its request body declares too
// (both allOf the same `took`): the record sent is compared with the item, never with the answer's own `took`.
const GROUPS = specOf('groups', { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, comment: { type: 'string' }, took: { type: 'number' } } }, group, {
  type: 'object',
  properties: { groups: { type: 'array', items: group }, took: { type: 'number' } },
});

const coverage = (report: ContractReport): string => {
  const counts = report.dependencies;
  return `${counts?.onCreatedParent} of ${counts?.belowParent}${counts?.notOnCreated.map((n) => `; ${n.operationId}: ${n.reason}`).join('') ?? ''}`;
};

/** `spec` written to a file of its own (the compiler reads documents from files). */
async function specFileOf(spec: object): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'parent-shapes-'));
  const file = join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(spec));
  return file;
}

/** The coverage line of the suite run on `operations` of a corpus document, against the mock started on it. */
async function coverageOn(file: string, operations: string[]): Promise<string> {
  const spec = fileURLToPath(new URL(`../../fixtures/real-world/${file}`, import.meta.url));
  const server = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN] });
  try {
    return coverage(await runContractSuite({ spec, baseUrl: server.url, token: TOKEN, seed: 38, generated: { positive: 1, negative: 1 }, includeOperations: operations, timeoutMs: PATIENT_MS }));
  } finally {
    await server.close();
  }
}

describe('a create answering an array of the records it made (JupyterHub POST /users)', () => {
  const mock = useMockForSpec(USERS, { tokens: [TOKEN] });

  it('the mock answers the record it stored as the array item, with the identity it assigned, and that record reads back', async () => {
    const created = await send(mock.current, '/users', { usernames: ['alice'], admin: false });
    expect(created.status).toBe(201);
    expect(created.json).toEqual([{ name: expect.any(String), admin: false }]);
    const name = (created.json as Array<{ name: string }>)[0]?.name as string;
    const read = await send(mock.current, `/users/${encodeURIComponent(name)}`, undefined, { method: 'GET', contentType: null });
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ name });
  });

  it('the suite reads the created identity from the item: the operation below a user runs on one it made', async () => {
    const report = await runContractSuite({ spec: mock.specFile, baseUrl: mock.current.url, token: TOKEN, seed: 38, generated: { positive: 1, negative: 1 }, timeoutMs: PATIENT_MS });
    expect(coverage(report)).toBe('1 of 1');
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
  });
});

describe("a create answering the records it made in an object's array member (Pi-hole POST /groups)", () => {
  const mock = useMockForSpec(GROUPS, { tokens: [TOKEN] });

  it('is read so only where the request body is one record: a batch sent in that same member (Xero POST /Statements {items: [...]}) is not', async () => {
    const createdAs = async (spec: object): Promise<unknown> => recogniseCollections(await readContract(await specFileOf(spec))).collections.find((c) => c.path === '/groups')?.createdAs;
    expect(await createdAs(GROUPS)).toEqual({ kind: 'wrapped', property: 'groups' });
    const batch = specOf('groups', { type: 'object', properties: { groups: { type: 'array', items: group } } }, group, { type: 'object', properties: { groups: { type: 'array', items: group } } });
    expect(await createdAs(batch)).toBeUndefined();
    // Nor is a batch one record: stored as one, the page would be listed as a record and its answer would show no identity.
    const recognised = recogniseCollections(await readContract(await specFileOf(batch)));
    expect(recognised.collections.map((c) => c.path)).toEqual([]);
    expect(recognised.stateless.get('create-groups')).toMatch(/its request body is a batch, the records in its array 'groups' as its answer holds them, not one record/);
    expect(recognised.stateless.get('get-groups')).toMatch(/\/groups is no collection/);
    // Said otherwise in the spec (or an overlay), it is a create of one record, as the user says.
    const stated = batch as { paths: Record<string, { post: Record<string, unknown> }> };
    stated.paths['/groups']!.post['x-mock-role'] = 'create';
    expect(recogniseCollections(await readContract(await specFileOf(stated))).collections.map((c) => c.path)).toEqual(['/groups']);
  });

  it('the mock answers the record inside the member', async () => {
    const created = await send(mock.current, '/groups', { name: 'admins', comment: 'the admins' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ groups: [{ name: 'admins', comment: 'the admins' }] });
  });

  it('the suite reads the created identity from the member: the operation below a group runs on one it made', async () => {
    const report = await runContractSuite({ spec: mock.specFile, baseUrl: mock.current.url, token: TOKEN, seed: 38, generated: { positive: 1, negative: 1 }, timeoutMs: PATIENT_MS });
    expect(coverage(report)).toBe('1 of 1');
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
  });
});

describe('the real JupyterHub document', () => {
  it('operations below a user (a named server created at its own path among them) and below a token collection run on records the suite created', async () => {
    // Only children under test: the users they run on are made by POST /users, which is not. A server's read names the
    // server itself (a record of its own now: PUT creates it at its path), which only its sequence creates.
    expect(await coverageOn('jupyterhub/rest-api.yml', ['post-user-activity', 'put-user-server-name', 'get-user-tokens'])).toBe('3 of 3');
  });

  it('operations below a group run on one the suite created at its own path, though its create takes no body (POST /groups/{name})', async () => {
    expect(await coverageOn('jupyterhub/rest-api.yml', ['post-group-users', 'put-group-properties', 'get-group-shared'])).toBe('3 of 3');
  });
});

describe('the real Jupyter Server document', () => {
  it("a file's checkpoints run on a file the suite created at its own path (PUT /api/contents/{path})", async () => {
    expect(await coverageOn('jupyter-server/api.yaml', ['get_api_contents_path_checkpoints', 'post_api_contents_path_checkpoints'])).toBe('2 of 2');
  });
});

// PayPal's shape: the record's required `detail` is allOf a part requiring `currency_code` and a part adding other properties.
const INVOICES = specOf(
  'invoices',
  {
    type: 'object',
    required: ['detail'],
    properties: { id: { type: 'string', readOnly: true }, detail: { $ref: '#/components/schemas/invoice_detail', description: 'The details of the invoice.' } },
  },
  { type: 'object', properties: { id: { type: 'string' }, detail: { $ref: '#/components/schemas/invoice_detail' } } },
  { type: 'object', properties: { id: { type: 'string' }, detail: { $ref: '#/components/schemas/invoice_detail' } } },
) as { components: { schemas?: Record<string, unknown> } };
INVOICES.components.schemas = {
  detail: {
    title: 'Invoice_Detail',
    required: ['currency_code'],
    properties: { reference: { type: 'string', maxLength: 120 }, currency_code: { $ref: '#/components/schemas/currency_code', description: 'ISO-4217' } },
  },
  currency_code: { type: 'string', minLength: 3, maxLength: 3 },
  invoice_detail: {
    type: 'object',
    allOf: [{ $ref: '#/components/schemas/detail' }, { properties: { invoice_number: { type: 'string', maxLength: 127 }, invoice_date: { type: 'string', format: 'date' } } }],
  },
};

describe('a record whose body nests allOf parts that each declare properties (PayPal POST /v2/invoicing/invoices)', () => {
  const mock = useMockForSpec(INVOICES, { tokens: [TOKEN] });

  it("the suite's view of the body holds every part's properties, the required currency_code among them", async () => {
    const spec = suiteSpecOf(await readContract(mock.specFile));
    const detail = spec.operations.find((o) => o.operationId === 'create-invoices')?.requestBody?.properties.find((p) => p.name === 'detail')?.schema;
    expect(Object.keys((detail?.properties ?? {}) as object).sort()).toEqual(['currency_code', 'invoice_date', 'invoice_number', 'reference']);
    expect(detail?.required).toEqual(['currency_code']);
  });

  it('the suite creates an invoice, and the operation below it runs on that invoice', async () => {
    const report = await runContractSuite({ spec: mock.specFile, baseUrl: mock.current.url, token: TOKEN, seed: 38, generated: { positive: 1, negative: 1 }, timeoutMs: PATIENT_MS });
    expect(coverage(report)).toBe('1 of 1');
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
  });

  it('on the real PayPal document, every operation below an invoice but the deletes of its payments and refunds (their own records) runs on one the suite created', async () => {
    expect(await coverageOn('paypal-invoicing/invoicing_v2.json', ['invoices.send', 'invoices.generate-qr-code', 'invoices.payments-delete'])).toBe(
      "2 of 3; invoices.payments-delete: it acts on the record {transaction_id} itself, which only its collection's sequence creates",
    );
  });
});
