/**
 * A frontend's request that went by an HTTP Basic scheme, where the operation also takes a bearer
 * token: the mock's export names the scheme (`{"scheme": "login", "value": "{{token}}"}`), and the
 * suite replays it with the provider's own Basic credentials (--basic), never with the token
 * base64-encoded as if it were a user:password (a credential the provider never issued, which the
 * reports' masking did not know: the token leaked in the failure's request and its curl line).
 * Without --basic such a case is not sent, and says why. A case file's own Basic value built from
 * the token (`"ann:{{token}}"`) is masked in the reports too, its curl line computing it from
 * $PLANT_STORE_TOKEN.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { formatReport, harLog, junitXml, runContractSuite } from '../index.js';
import type { Exchange } from '../model.js';

const TOKEN = 'provider-bearer-token';
const FRONTEND_LOGIN = 'ann:frontend-password';
const PROVIDER_LOGIN = 'bob:provider-password';
const NOTE = {
  type: 'object',
  required: ['text'],
  properties: { id: { type: 'integer', format: 'int64', readOnly: true }, text: { type: 'string', minLength: 1, maxLength: 40 } },
};
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notebook', version: '1' },
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        // A bearer token or a login: the suite's own cases send the bearer token (the first).
        security: [{ bearer: [] }, { login: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: NOTE } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: NOTE } } }, '400': { description: 'refused' }, '401': { description: 'no login' } },
      },
    },
  },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, login: { type: 'http', scheme: 'basic' } } },
};

describe('a recorded request that went by an HTTP Basic scheme', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recorded-basic-'));
  const spec = join(dir, 'notebook.json');
  writeFileSync(spec, JSON.stringify(SPEC));
  const options = { token: TOKEN, spec, seed: 7, generated: { positive: 1, negative: 1 } };
  const fromFile = (exchanges: readonly Exchange[]): Exchange[] => exchanges.filter((x) => x.case.source === 'cases');
  const closing: MockServer[] = [];
  afterAll(async () => {
    for (const server of closing) await server.close();
  });

  /** The cases the frontend's mock exports after a create with its own login. */
  async function exportedCases(): Promise<string> {
    const frontend = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [FRONTEND_LOGIN] });
    closing.push(frontend);
    const sent = await fetch(`${frontend.url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(FRONTEND_LOGIN).toString('base64')}` },
      body: '{"text":"bread"}',
    });
    expect(sent.status).toBe(201);
    const text = await (await fetch(`${frontend.url}/__mock/requests?format=cases`)).text();
    expect(text).not.toContain('frontend-password');
    const exported = JSON.parse(text) as { cases: Array<{ expect: string; request: { auth?: unknown } }> };
    expect(exported.cases.map((c) => [c.expect, c.request.auth])).toEqual([['accepted', { scheme: 'login', value: '{{token}}' }]]);
    const file = join(dir, `exported-${closing.length}.cases.json`);
    writeFileSync(file, text);
    return file;
  }

  it("is replayed with the provider's --basic credentials, and the token never appears base64-encoded in the report", async () => {
    const cases = await exportedCases();
    const provider = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN, PROVIDER_LOGIN] });
    closing.push(provider);
    const report = await runContractSuite({ ...options, basic: PROVIDER_LOGIN, cases: [cases], baseUrl: provider.url });
    const replayed = fromFile(report.exchanges).map((x) => [x.case.request.headers.authorization, x.outcome === 'response' ? x.response.status : x.outcome]);
    expect(replayed).toEqual([[`Basic ${Buffer.from(PROVIDER_LOGIN).toString('base64')}`, 201]]);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(formatReport(report)).not.toContain(Buffer.from(TOKEN).toString('base64'));
  });

  it('is not sent without --basic, and the report says to pass it', async () => {
    const cases = await exportedCases();
    const provider = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN, PROVIDER_LOGIN] });
    closing.push(provider);
    const report = await runContractSuite({ ...options, cases: [cases], baseUrl: provider.url });
    const [only, ...rest] = fromFile(report.exchanges);
    expect(rest).toEqual([]);
    expect(only?.outcome === 'not-sent' ? only.reason : only?.outcome).toMatch(/sends the provider's HTTP Basic credentials as login: pass --basic user:password/);
    const text = formatReport(report);
    expect(text).not.toContain(Buffer.from(TOKEN).toString('base64'));
    expect(text).toContain('pass --basic user:password');
  });

  it("masks a case file's Basic credentials built from the token in every report, and the curl line computes them", async () => {
    const cases = join(dir, 'ann.cases.json');
    const ann = {
      name: 'ann-login',
      description: 'ann, with the token as her password',
      expect: 'accepted',
      request: { auth: { scheme: 'login', value: 'ann:{{token}}' }, id: 'safe-positive', body: { json: { text: 'tea' } } },
    };
    writeFileSync(cases, JSON.stringify({ description: 'a login made of the token', cases: [ann] }));
    // The provider does not know ann: the case fails, and its request is printed.
    const provider = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN, PROVIDER_LOGIN] });
    closing.push(provider);
    const report = await runContractSuite({ ...options, basic: PROVIDER_LOGIN, cases: [cases], baseUrl: provider.url });
    const [sent] = fromFile(report.exchanges);
    const encoded = Buffer.from(`ann:${TOKEN}`).toString('base64');
    expect(sent?.case.request.headers.authorization).toBe(`Basic ${encoded}`);
    const text = formatReport(report);
    expect(text).toContain('ann-login');
    for (const shown of [text, JSON.stringify(harLog(report)), junitXml(report)]) {
      expect(shown).not.toContain(encoded);
      expect(shown).not.toContain(TOKEN);
    }
    expect(text).toContain(`-H 'authorization: Basic '"$(printf %s 'ann:'"$PLANT_STORE_TOKEN" | base64 -w0)"`);
  });
});
