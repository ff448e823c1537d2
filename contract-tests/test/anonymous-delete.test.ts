/**
 * A delete's credential cases name ids that were never created, so a provider that checks the
 * record before the credential answers them 404 even when it never checks the credential. The
 * stateful sequence sends one delete without a credential to a record it created, then reads the
 * record: a delete that succeeds fails ignored_auth, and one refused (401) yet carried out fails
 * ensure_resource_availability. Against a small boards provider of the test's own (node:http,
 * OpenAPI 3.0, ids are UUIDs it assigns).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const TOKEN = 'boards-token';
const board = { $ref: '#/components/schemas/Board' };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const problem = (description: string) => ({ description, content: json({ type: 'object', properties: { message: { type: 'string' } } }) });
const boardId = { name: 'boardId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Boards', version: '1' },
  security: [{ bearer: [] }],
  paths: {
    '/boards': {
      post: {
        operationId: 'createBoard',
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/NewBoard' }) },
        responses: { '201': { description: 'Created', content: json(board) }, '400': problem('Invalid'), '401': problem('No credential') },
      },
    },
    '/boards/{boardId}': {
      get: { operationId: 'getBoard', parameters: [boardId], responses: { '200': { description: 'The board', content: json(board) }, '401': problem('No credential'), '404': problem('None') } },
      delete: { operationId: 'deleteBoard', parameters: [boardId], responses: { '204': { description: 'Deleted' }, '401': problem('No credential'), '404': problem('None') } },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      NewBoard: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 30 } } },
      Board: { type: 'object', required: ['boardId', 'name'], properties: { boardId: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string' } } },
    },
  },
};
const specFile = join(mkdtempSync(join(tmpdir(), 'anonymous-delete-')), 'boards.json');
writeFileSync(specFile, JSON.stringify(SPEC));

/** How the provider's delete treats a request without a valid credential (every other operation refuses it with 401). */
type DeleteWithoutCredential = 'refuses' | 'deletes' | 'deletes-and-says-401';

async function runAgainst(anonymousDelete: DeleteWithoutCredential): Promise<ContractReport> {
  const boards = new Map<string, string>();
  return runSuiteAgainst(
    (request, answer) => {
      const authorization = request.headers.authorization ?? '';
      const authorized = /^bearer +/i.test(authorization) && authorization.replace(/^bearer +/i, '') === TOKEN;
      const { url } = request;
      const id = /^\/boards\/([^/]+)$/.exec(url.pathname)?.[1];
      if (id !== undefined && request.method === 'DELETE' && !authorized) {
        // Looks the record up before the credential, as the flawed providers do.
        if (!boards.has(id)) return answer(404, { message: 'no such board' });
        if (anonymousDelete !== 'refuses') boards.delete(id);
        return anonymousDelete === 'deletes' ? answer(204) : answer(401, { message: 'a bearer token is required' });
      }
      if (!authorized) return answer(401, { message: 'a bearer token is required' });
      if (url.pathname === '/boards' && request.method === 'POST') {
        const body = request.json();
        if (body === undefined) return answer(400, { message: 'not JSON' });
        const name = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).name : undefined;
        const length = typeof name === 'string' ? [...name].length : 0;
        if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '') || typeof name !== 'string' || length < 1 || length > 30)
          return answer(400, { message: 'a name of 1 to 30 characters' });
        const created = randomUUID();
        boards.set(created, name);
        return answer(201, { boardId: created, name });
      }
      const name = id === undefined ? undefined : boards.get(id);
      if (id === undefined || name === undefined) return answer(404, { message: 'no such board' });
      if (request.method === 'GET') return answer(200, { boardId: id, name });
      if (request.method === 'DELETE') {
        boards.delete(id);
        return answer(204);
      }
      answer(404, { message: 'no such route' });
    },
    { spec: specFile, token: TOKEN, seed: 21, generated: { positive: 2, negative: 2 } },
  );
}

const failures = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`);

describe('a delete sent without a credential to a record that exists', () => {
  it('passes a provider that refuses it (401), the record still there', async () => {
    const report = await runAgainst('refuses');
    expect(failures(report)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('fails a provider that carries it out (ignored_auth)', async () => {
    const report = await runAgainst('deletes');
    expect(failures(report).join('\n')).toMatch(/ignored_auth: Answered 204 to a request with no Authorization header; deleteBoard requires a valid bearer token/);
  });

  it('fails a provider that answers 401 and deletes all the same (ensure_resource_availability)', async () => {
    const report = await runAgainst('deletes-and-says-401');
    expect(failures(report).join('\n')).toMatch(/ensure_resource_availability: Read \/boards\/.* answered 404 after a delete sent without a credential: the record was deleted without authentication/);
  });
});
