/**
 * GET /__mock/requests?format=cases: what frontends sent, as a case file in the fixture format.
 * Driven as a frontend would drive the mock, exported over HTTP, then loaded by the fixture loader
 * (the schema and the spec check it) and replayed against a fresh mock, which must answer each
 * case as the expectation says.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdSource, loadFixtures, renderFixture, type FixtureCase } from '../../fixtures/index.js';
import { writeSpecVariant } from '../../openapi/test/variants.js';
import { idKindOf } from '../admin/cases.js';
import { maskSecret } from '../http/credentials.js';
import { createMockServer } from '../server.js';
import { expectError, send, useMock } from './mock-under-test.js';

const FRONTEND_TOKEN = 'frontend-secret-token-0123456789';

describe('exporting the journal as contract cases', () => {
  const mock = useMock({ tokens: [FRONTEND_TOKEN] });
  const dir = mkdtempSync(join(tmpdir(), 'plant-cases-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const auth = { authorization: `Bearer ${FRONTEND_TOKEN}` };
  let cases: FixtureCase[] = [];
  let text = '';

  it('answers 404 in the Error shape while there is nothing to export', async () => {
    await send(mock.current, '/__mock/plants', '[]');
    const response = await send(mock.current, '/__mock/requests?format=cases', undefined, { method: 'GET', contentType: null, noAuth: true });
    expect(expectError(response, 404)).toContain('The journal holds no request a contract case can replay');
  });

  it('exports each distinct request once, with its verdict, fresh-id placeholders and no credential', async () => {
    const post = (body: string, headers: Record<string, string> | null = auth, contentType: string | null = 'application/json') =>
      send(mock.current, '/plants', body, { headers: headers ?? {}, noAuth: headers === null, contentType });
    // What a frontend really sends: good plants (twice the same shape), bugs, and auth mistakes.
    expect((await post('{"id":9223372036854775000,"name":"Monstera","tag":"tropical"}')).status).toBe(200);
    expect((await post('{"id":9223372036854775001,"name":"Monstera","tag":"tropical"}')).status).toBe(200);
    expect((await post('{"id":12,"name":"Ficus","extra":12345678901234567890}')).status).toBe(200);
    expect((await post('{"id":"13","name":"Pilea"}')).status).toBe(400);
    expect((await post('{"id":14}')).status).toBe(400);
    expect((await post('{"id":15,"name":')).status).toBe(400);
    expect((await post('{"id":16,"name":"No token"}', null)).status).toBe(401);
    expect((await post('{"id":17,"name":"Bad token"}', { authorization: 'Bearer not-the-token-0123456789' })).status).toBe(401);
    expect((await post('{"id":18,"name":"No scheme"}', { authorization: FRONTEND_TOKEN })).status).toBe(401);
    expect((await post('{"id":19,"name":"Basic"}', { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` })).status).toBe(401);
    expect((await post('{"id":20,"name":"Text"}', auth, 'text/plain')).status).toBe(415);
    // Not cases: a forced answer, a duplicate, an unknown route.
    expect((await post('{"id":21,"name":"Forced"}', { ...auth, prefer: 'code=500' })).status).toBe(500);
    expect((await post('{"id":12,"name":"Ficus again"}')).status).toBe(409);
    expect((await send(mock.current, '/nowhere', '{}')).status).toBe(404);

    const response = await fetch(`${mock.current.url}/__mock/requests?format=cases`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="frontend-requests.cases.json"');
    text = await response.text();
    expect(text).not.toContain(FRONTEND_TOKEN);
    expect(text).not.toContain('not-the-token');
    expect(text).not.toContain(Buffer.from('u:p').toString('base64'));
    writeFileSync(join(dir, 'frontend.json'), text);
    // The loader checks the file against fixture-file.schema.json and each body against the spec.
    cases = loadFixtures(dir);
    // No contentType in a case: the spec's own JSON media type.
    const summary = cases.map((c) => [c.expect, c.request.id ?? null, c.request.auth, c.request.contentType ?? 'application/json', c.request.body]);
    expect(summary).toEqual([
      ['accepted', 'near-int64-max', 'bearer', 'application/json', { json: { name: 'Monstera', tag: 'tropical' } }],
      ['accepted', 'safe-positive', 'bearer', 'application/json', { json: { name: 'Ficus', extra: 12345678901234567000 } }],
      ['rejected-body', null, 'bearer', 'application/json', { text: '{"id":"13","name":"Pilea"}' }],
      ['rejected-body', 'safe-positive', 'bearer', 'application/json', { text: '{"id":{{id}}}' }],
      ['rejected-body', null, 'bearer', 'application/json', { text: '{"id":15,"name":' }],
      ['unauthenticated', 'safe-positive', 'none', 'application/json', { text: '{"id":{{id}},"name":"No token"}' }],
      ['unauthenticated', 'safe-positive', 'invalid-token', 'application/json', { text: '{"id":{{id}},"name":"Bad token"}' }],
      ['unauthenticated', 'safe-positive', { authorization: '{{token}}' }, 'application/json', { text: '{"id":{{id}},"name":"No scheme"}' }],
      ['unauthenticated', 'safe-positive', { authorization: 'Basic {{token}}' }, 'application/json', { text: '{"id":{{id}},"name":"Basic"}' }],
      ['unsupported-media-type', 'safe-positive', 'bearer', 'text/plain', { text: '{"id":{{id}},"name":"Text"}' }],
    ]);
    // Exact in the file itself, whatever a reader's JSON.parse then makes of it.
    expect(text).toContain('"extra": 12345678901234567890');
    const file = JSON.parse(text) as { description: string };
    expect(file.description).toContain("1 answers forced with 'Prefer: code='");
    expect(file.description).toContain('1 answers the contract has no expectation for (409 DUPLICATE_ID)');
    expect(file.description).toContain('1 requests to no operation of the spec');
    for (const c of cases) expect(c.description).toMatch(/^POST \/plants as a frontend sent it \(mock journal #\d+, /);
  });

  it('replays against a fresh mock with the answers the mock gave the frontend', async () => {
    expect(cases.length).toBeGreaterThan(0);
    const provider = await createMockServer({ port: 0, logLevel: 'silent', tokens: ['provider-token'] });
    try {
      const ids = createIdSource();
      const expected = { accepted: 200, 'rejected-body': 400, unauthenticated: 401, 'unsupported-media-type': 415 } as const;
      for (const fixture of cases) {
        const request = renderFixture(fixture, { token: 'provider-token', invalidToken: 'never-issued', ids });
        const response = await fetch(provider.url + request.path, { method: request.method, headers: request.headers, body: request.body });
        expect(response.status, `${fixture.name}: ${await response.text()}`).toBe(expected[fixture.expect]);
      }
      // Run twice: fresh ids, so accepted cases never collide with the first run.
      for (const fixture of cases.filter((c) => c.expect === 'accepted')) {
        const request = renderFixture(fixture, { token: 'provider-token', invalidToken: 'never-issued', ids });
        expect((await fetch(provider.url + request.path, { method: request.method, headers: request.headers, body: request.body })).status).toBe(200);
      }
    } finally {
      await provider.close();
    }
  });

  it('exports only what the filters keep', async () => {
    const response = await fetch(`${mock.current.url}/__mock/requests?format=cases&status=4xx&q=Pilea`);
    const file = JSON.parse(await response.text()) as { cases: { expect: string }[] };
    expect(file.cases.map((c) => c.expect)).toEqual(['rejected-body']);
  });

  it('places every id in its fixture kind', () => {
    expect(idKindOf(1n)).toBe('safe-positive');
    expect(idKindOf(0n)).toBe('safe-positive');
    expect(idKindOf(-5n)).toBe('safe-negative');
    expect(idKindOf(2n ** 60n)).toBe('beyond-2^53');
    expect(idKindOf(2n ** 63n - 1n)).toBe('near-int64-max');
    expect(idKindOf(-(2n ** 63n))).toBe('near-int64-min');
    expect(idKindOf(2n ** 63n)).toBe('int64-overflow');
    expect(idKindOf(10n ** 30n)).toBe('int64-overflow');
    expect(idKindOf(-(10n ** 30n))).toBe('int64-underflow');
    expect(idKindOf(-(2n ** 60n))).toBe('near-int64-min');
  });
});

describe('exporting requests to item paths (a spec with /plants/{id})', () => {
  const spec = writeSpecVariant('item-operations');
  const mock = useMock({ tokens: [FRONTEND_TOKEN], spec });
  const dir = mkdtempSync(join(tmpdir(), 'plant-item-cases-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const auth = { authorization: `Bearer ${FRONTEND_TOKEN}` };
  const call = (method: string, path: string, body?: string, headers: Record<string, string> | null = auth, contentType: string | null = 'application/json') =>
    send(mock.current, path, body, { method, headers: headers ?? {}, noAuth: headers === null, contentType: body === undefined ? null : contentType });

  it('puts the fresh-id placeholder in the path (and in the body where it is the same id), and leaves successes out', async () => {
    const id = '9223372036854775000';
    expect((await call('POST', '/plants', `{"id":${id},"name":"Monstera"}`)).status).toBe(200);
    // Successes on an item path need the record first: left out.
    expect((await call('GET', `/plants/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/plants/12`)).status).toBe(404);
    // What can be a case: the spec's rules refuse these whatever the provider stores.
    expect((await call('GET', `/plants/${id}`, undefined, null)).status).toBe(401);
    expect((await call('PUT', '/plants/12', '{"id":12,"name":5}')).status).toBe(400);
    expect((await call('PUT', '/plants/12', '{"id":13,"name":"Other id"}')).status).toBe(400);
    expect((await call('PATCH', '/plants/12', '{"name":"x"}', auth, 'application/json')).status).toBe(415);
    expect((await call('DELETE', '/plants/-5', undefined, { authorization: 'Bearer not-issued-0123456789' })).status).toBe(401);

    const response = await fetch(`${mock.current.url}/__mock/requests?format=cases`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(FRONTEND_TOKEN);
    expect(text).not.toContain('not-issued');
    writeFileSync(join(dir, 'items.json'), text);
    const cases = loadFixtures(dir);
    const summary = cases.map((c) => [c.expect, c.request.method ?? 'POST', c.request.path ?? '/plants', c.request.id ?? null, c.request.auth, c.request.body]);
    expect(summary).toEqual([
      ['accepted', 'POST', '/plants', 'near-int64-max', 'bearer', { json: { name: 'Monstera' } }],
      ['unauthenticated', 'GET', '/plants/{{id}}', 'near-int64-max', 'none', { empty: true }],
      ['rejected-body', 'PUT', '/plants/{{id}}', 'safe-positive', 'bearer', { text: '{"id":{{id}},"name":5}' }],
      ['rejected-body', 'PUT', '/plants/{{id}}', 'safe-positive', 'bearer', { text: '{"id":13,"name":"Other id"}' }],
      ['unsupported-media-type', 'PATCH', '/plants/{{id}}', 'safe-positive', 'bearer', { text: '{"name":"x"}' }],
      ['unauthenticated', 'DELETE', '/plants/{{id}}', 'safe-negative', 'invalid-token', { empty: true }],
    ]);
    const file = JSON.parse(text) as { description: string };
    expect(file.description).toContain('1 accepted requests to GET /plants/{id} (the record would have to exist first: a case has no step that creates it)');
    expect(file.description).toContain('1 answers the contract has no expectation for (404 RECORD_NOT_FOUND)');

    // Replayed against a fresh mock of the same spec, twice: each gets the answer the frontend got, whatever ids are drawn.
    const provider = await createMockServer({ port: 0, logLevel: 'silent', tokens: ['provider-token'], spec });
    try {
      const ids = createIdSource();
      const expected = { accepted: 200, 'rejected-body': 400, unauthenticated: 401, 'unsupported-media-type': 415 } as const;
      for (const round of [1, 2]) {
        for (const fixture of cases) {
          const request = renderFixture(fixture, { token: 'provider-token', invalidToken: 'never-issued', ids });
          expect(request.path).not.toContain('{{id}}');
          const answer = await fetch(provider.url + request.path, { method: request.method, headers: request.headers, body: request.body });
          expect(answer.status, `round ${round}, ${fixture.name}: ${await answer.text()}`).toBe(expected[fixture.expect]);
        }
      }
    } finally {
      await provider.close();
    }
  });

  it('never exports a credential the mock knows, wherever the request put it (path, query, body)', async () => {
    await fetch(`${mock.current.url}/__mock/requests`, { method: 'DELETE' });
    expect((await call('GET', `/plants/${FRONTEND_TOKEN}`, undefined, null)).status).toBe(401);
    expect((await call('PUT', `/plants/12?note=${FRONTEND_TOKEN}`, `{"id":12,"name":5,"tag":"${FRONTEND_TOKEN}"}`)).status).toBe(400);
    expect((await call('PUT', '/plants/12', '{"id":12,"name":6}')).status).toBe(400);
    const response = await fetch(`${mock.current.url}/__mock/requests?format=cases`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(FRONTEND_TOKEN);
    // A case quoting a credential, even masked, is not what the frontend sent: left out, and counted.
    expect(text).not.toContain(maskSecret(FRONTEND_TOKEN));
    const file = JSON.parse(text) as { description: string; cases: unknown[] };
    expect(file.cases).toHaveLength(1);
    expect(file.description).toContain('2 requests that carry their credential outside its header');
  });

  it('masks a credential the mock does not know wherever the request quoted it: the journal and the export never hold it', async () => {
    await fetch(`${mock.current.url}/__mock/requests`, { method: 'DELETE' });
    const unknown = 'not-issued-credential-0123456789';
    expect((await call('PUT', `/plants/12?access_token=${unknown}`, `{"id":12,"name":"x","tag":"${unknown}"}`, { authorization: `Bearer ${unknown}` })).status).toBe(401);
    const journal = await (await fetch(`${mock.current.url}/__mock/requests?whole=true`)).text();
    expect(journal).not.toContain(unknown);
    expect(journal).toContain(`"tag\\":\\"${maskSecret(unknown)}`);
    const text = await (await fetch(`${mock.current.url}/__mock/requests?format=cases`)).text();
    expect((JSON.parse(text) as { cases: unknown[] }).cases).toHaveLength(1);
    expect(text).not.toContain(unknown);
  });
});
