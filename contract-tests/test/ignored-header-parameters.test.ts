/**
 * Header parameters named Accept, Content-Type or Authorization are ignored (OpenAPI 3.1, 4.8.12.1:
 * the media types and the security schemes say those). openEHR's EHR API declares `Accept` as an
 * enum [application/json, application/xml] on operations that answer JSON only: before, the mock
 * refused curl's and browsers' any-type Accept with 400 "header parameter accept must be one of …",
 * and the suite sent `Accept: application/xml` as a valid request the provider must answer 2xx.
 * Against the stateful mock serving the spec written here, over real HTTP.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { runContractSuite } from '../index.js';

const NOTE = { type: 'object', properties: { id: { type: 'string', readOnly: true }, text: { type: 'string' } } };
const HEADERS = [
  { name: 'Accept', in: 'header', schema: { type: 'string', enum: ['application/json', 'application/xml'] } },
  { name: 'Content-Type', in: 'header', schema: { type: 'string', enum: ['application/json', 'application/xml'] } },
  { name: 'Authorization', in: 'header', required: true, schema: { type: 'string', enum: ['Basic x'] } },
];
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        parameters: HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: NOTE } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: NOTE } } }, '400': { description: 'bad' } },
      },
    },
    '/notes/{id}': {
      get: {
        operationId: 'getNote',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, ...HEADERS.slice(0, 1)],
        responses: { '200': { description: 'one', content: { 'application/json': { schema: NOTE } } }, '404': { description: 'none' } },
      },
    },
  },
};

describe('header parameters named Accept, Content-Type or Authorization', () => {
  let dir: string;
  let spec: string;
  let mock: MockServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ignored-headers-'));
    spec = join(dir, 'notes.json');
    writeFileSync(spec, JSON.stringify(SPEC));
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
  });
  afterAll(async () => {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are not judged by the mock: Accept */* and no Authorization create and read', async () => {
    const made = await fetch(`${mock.url}/notes`, { method: 'POST', headers: { accept: '*/*', 'content-type': 'application/json' }, body: '{"text":"a"}' });
    expect(made.status, await made.clone().text()).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const read = await fetch(`${mock.url}/notes/${encodeURIComponent(id)}`, { headers: { accept: 'application/json, */*' } });
    expect(read.status).toBe(200);
  });

  it('are not sent by the suite as parameters, and the suite passes the mock', async () => {
    const report = await runContractSuite({ baseUrl: mock.url, token: '', spec, seed: 5, generated: { positive: 1, negative: 1 } });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.exchanges.filter((x) => /parameter-header-(accept|content-type|authorization)/.test(x.case.id)).map((x) => x.case.id)).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
