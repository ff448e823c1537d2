/**
 * Operations that take only a form (QA item 11): a multipart upload and a URL-encoded form are
 * tested with bodies written in their media type from its schema — valid ones must be accepted,
 * the constraint cases refused — where the suite used to leave them out as "no JSON schema".
 * The mock passes; a provider that accepts any form fails negative_data_rejection, and one that
 * refuses forms with 415 fails positive_data_acceptance.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { runContractSuite, type ContractReport } from '../index.js';
import { startMockProxy, type MockProxy } from './providers/mock-proxy.js';

const KEY = 'upload-key';
const SEED = 2_718;
const OK = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { label: { type: 'string' } } } } } } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Uploads', version: '1' },
  security: [{ key: [] }],
  paths: {
    '/uploads': {
      post: {
        operationId: 'upload',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file', 'label'],
                properties: { file: { type: 'string', format: 'binary' }, label: { type: 'string', maxLength: 20 }, count: { type: 'integer', minimum: 0 } },
              },
            },
          },
        },
        responses: OK,
      },
    },
    '/subscriptions': {
      post: {
        operationId: 'subscribe',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                required: ['email'],
                properties: { email: { type: 'string', format: 'email' }, weekly: { type: 'boolean' }, topics: { type: 'array', items: { type: 'string', enum: ['news', 'offers'] } } },
              },
            },
          },
        },
        responses: OK,
      },
    },
  },
  components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'api_key' } } },
};

describe('operations that take only a form', () => {
  const dir = mkdtempSync(join(tmpdir(), 'form-only-'));
  const spec = join(dir, 'uploads.json');
  writeFileSync(spec, JSON.stringify(SPEC));
  const closing: Array<MockServer | MockProxy> = [];
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [KEY] });
    closing.push(mock);
  });
  afterAll(async () => {
    for (const server of closing.reverse()) await server.close();
  });
  const run = (baseUrl: string): Promise<ContractReport> => runContractSuite({ baseUrl, token: KEY, spec, seed: SEED, generated: { positive: 10, negative: 10 } });
  const check = (report: ContractReport, name: string) => report.checks.find((c) => c.name === name);

  it('are tested with bodies in their media type, and the mock passes', async () => {
    const report = await run(mock.url);
    expect(report.leftOut.map((o) => `${o.operationId}: ${o.reason}`)).toEqual([]);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    for (const operationId of ['upload', 'subscribe']) {
      const own = report.exchanges.filter((x) => x.case.operationId === operationId && x.outcome === 'response');
      const types = new Set(own.map((x) => String(x.case.request.headers['content-type'] ?? '').split(';')[0]));
      expect(types.has(operationId === 'upload' ? 'multipart/form-data' : 'application/x-www-form-urlencoded'), operationId).toBe(true);
      expect(types.has('application/json'), operationId).toBe(false);
      expect(own.filter((x) => x.case.expect === 'accepted').length, operationId).toBeGreaterThan(10);
      expect(own.filter((x) => x.case.expect === 'rejected-body').length, operationId).toBeGreaterThan(3);
    }
    const upload = report.exchanges.find((x) => x.case.operationId === 'upload' && x.case.expect === 'accepted' && typeof x.case.request.body === 'string');
    expect(upload?.case.request.body).toMatch(/name="file"; filename="file\.bin"\r\nContent-Type: application\/octet-stream/);
    expect(report.exchanges.some((x) => x.case.id.endsWith('value-label-above-max-length') && x.case.expect === 'rejected-body')).toBe(true);
    expect(check(report, 'positive_data_acceptance')?.status).toBe('passed');
    expect(check(report, 'negative_data_rejection')?.status).toBe('passed');
    expect(check(report, 'ignored_auth')?.status).toBe('passed');
    // They store nothing (no collection), so nothing they answer must echo what was sent.
    expect(check(report, 'response_echoes_request')?.status).toBe('skipped');
    expect(report.ok).toBe(true);
  });

  it('a provider that accepts any form fails negative_data_rejection', async () => {
    const proxy = await startMockProxy(mock.url, async (request, forward) => {
      const answer = await forward();
      return answer.status === 400 && request.method === 'POST' ? { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"label":"x"}') } : answer;
    });
    closing.push(proxy);
    const report = await run(proxy.url);
    expect(check(report, 'negative_data_rejection')?.status).toBe('failed');
  });

  it('a provider that refuses forms with 415 fails positive_data_acceptance', async () => {
    const proxy = await startMockProxy(mock.url, async (request, forward) =>
      /form/.test(request.headers['content-type'] ?? '') && new URL(request.url, 'http://x').searchParams.get('api_key') === KEY
        ? { status: 415, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"message":"JSON only"}') }
        : forward(),
    );
    closing.push(proxy);
    const report = await run(proxy.url);
    expect(check(report, 'positive_data_acceptance')?.status).toBe('failed');
  });
});
