/**
 * A writeOnly property (a password) is sent and never answered (OpenAPI); a JSON Schema validator
 * lets it through in an answer, so response_schema_conformance looks for it: in the record, and in
 * the records of a list. Against a small accounts provider of the test's own (node:http, in memory).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const account = { $ref: '#/components/schemas/Account' };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Accounts', version: '1' },
  security: [],
  paths: {
    '/accounts': {
      get: { operationId: 'listAccounts', responses: { '200': { description: 'Every account', content: json({ type: 'array', items: account }) } } },
      post: {
        operationId: 'createAccount',
        requestBody: { required: true, content: json(account) },
        responses: { '201': { description: 'Created', content: json(account) }, '400': { description: 'Invalid' } },
      },
    },
    '/accounts/{accountId}': {
      get: {
        operationId: 'getAccount',
        parameters: [{ name: 'accountId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: { '200': { description: 'The account', content: json(account) }, '404': { description: 'None' } },
      },
    },
  },
  components: {
    schemas: {
      Account: {
        type: 'object',
        required: ['login', 'password'],
        properties: {
          id: { type: 'integer', readOnly: true },
          login: { type: 'string', minLength: 1, maxLength: 20 },
          password: { type: 'string', minLength: 8, maxLength: 64, writeOnly: true },
        },
      },
    },
  },
};
const specFile = join(mkdtempSync(join(tmpdir(), 'write-only-')), 'accounts.json');
writeFileSync(specFile, JSON.stringify(SPEC));

/** Where the provider answers the password it was sent. */
type Leak = 'nowhere' | 'create' | 'list';

async function runAgainst(leak: Leak): Promise<ContractReport> {
  const accounts = new Map<number, { login: string; password: string }>();
  const shown = (id: number, stored: { login: string; password: string }, leaks: boolean) => ({ id, login: stored.login, ...(leaks ? { password: stored.password } : {}) });
  return runSuiteAgainst(
    (request, answer) => {
      const { url } = request;
      if (url.pathname === '/accounts' && request.method === 'GET')
        return answer(
          200,
          [...accounts].map(([id, stored]) => shown(id, stored, leak === 'list')),
        );
      if (url.pathname === '/accounts' && request.method === 'POST') {
        const body = request.json();
        if (body === undefined) return answer(400);
        const { login, password } = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
        const length = (text: unknown): number => (typeof text === 'string' ? [...text].length : -1);
        if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '') || typeof login !== 'string' || typeof password !== 'string') return answer(400);
        if (length(login) < 1 || length(login) > 20 || length(password) < 8 || length(password) > 64) return answer(400);
        const id = accounts.size + 1;
        accounts.set(id, { login, password });
        return answer(201, shown(id, { login, password }, leak === 'create'));
      }
      const id = Number(/^\/accounts\/(\d+)$/.exec(url.pathname)?.[1]);
      const stored = request.method === 'GET' ? accounts.get(id) : undefined;
      if (stored) return answer(200, shown(id, stored, false));
      answer(404);
    },
    { spec: specFile, seed: 5, generated: { positive: 2, negative: 2 } },
  );
}

const failures = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.operationId}: ${f.message}`);

describe('a writeOnly property in an answer', () => {
  it('passes a provider that never answers the password', async () => {
    const report = await runAgainst('nowhere');
    expect(failures(report)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('fails a provider whose create answers it', async () => {
    const found = failures(await runAgainst('create'));
    expect(found.join('\n')).toMatch(/response_schema_conformance createAccount: The 201 body holds \/password, declared writeOnly/);
    expect(found.filter((f) => !f.includes('createAccount'))).toEqual([]);
  });

  it('fails a provider whose list answers it in each record', async () => {
    const found = failures(await runAgainst('list'));
    expect(found.join('\n')).toMatch(/response_schema_conformance listAccounts: The 200 body holds \/0\/password, .* declared writeOnly/);
    expect(found.filter((f) => !f.includes('listAccounts'))).toEqual([]);
  });
});
