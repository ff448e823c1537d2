/**
 * The shared fixtures (fixtures/cases) against the stateful mock over real HTTP, with the
 * mock's *exact* statuses. The contract only asks "accepted", "never 2xx" and so on, because
 * the seed demands no more of providers; these statuses are what this mock promises.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdSource, loadFixtures, renderFixture, type RenderedRequest } from '../../fixtures/index.js';
import { createMockServer, type MockServer } from '../server.js';

const TOKEN = 'fixture-token';

/** Every fixture case and the status the mock answers it with. */
const MOCK_STATUS: Record<string, number> = {
  // accepted.json
  'tagged-plant': 200,
  'untagged-plant': 200,
  'empty-name': 200,
  'empty-tag': 200,
  'unicode-name-and-tag': 200,
  'escaped-characters': 200,
  'negative-id': 200,
  'id-beyond-2-53': 200,
  'id-near-int64-max': 200,
  'id-near-int64-min': 200,
  // rejected-body.json
  'missing-id': 400,
  'missing-name': 400,
  'id-as-string': 400,
  'id-fraction': 400,
  'id-null': 400,
  'id-boolean': 400,
  'id-int64-overflow': 400,
  'id-int64-underflow': 400,
  'name-null': 400,
  'name-as-number': 400,
  'tag-as-number': 400,
  'tag-null': 400,
  'body-null': 400,
  'body-array': 400,
  'body-string': 400,
  'malformed-json': 400,
  'empty-body': 400,
  // unauthenticated.json
  'no-authorization-header': 401,
  'basic-scheme': 401,
  'other-scheme-with-valid-token': 401,
  'token-without-scheme': 401,
  'bearer-without-token': 401,
  'invalid-token': 401,
  // media-type.json
  'json-as-text-plain': 415,
  'json-without-content-type': 415,
  'json-as-form-urlencoded': 415,
};

const fixtures = loadFixtures();

async function send(mock: MockServer, request: RenderedRequest) {
  const response = await fetch(mock.url + request.path, {
    method: request.method,
    headers: request.headers,
    // Bytes, not a string: fetch would add its own Content-Type to a string body.
    body: request.body === undefined ? undefined : Buffer.from(request.body, 'utf8'),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('the fixtures against the stateful mock', () => {
  let mock: MockServer;
  const ids = createIdSource();
  const rendered = new Map(fixtures.map((f) => [f.name, renderFixture(f, { token: TOKEN, invalidToken: 'not-a-known-token', ids })]));
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', tokens: [TOKEN] });
  });
  afterAll(() => mock?.close());

  it('has an exact status for every fixture case, and none for a case that is gone', () => {
    expect(Object.keys(MOCK_STATUS).sort()).toEqual(fixtures.map((f) => f.name).sort());
  });

  it.each(fixtures.map((f) => [f.name, f.expect, f] as const))('%s (%s)', async (name, expect_, fixture) => {
    const request = rendered.get(name) as RenderedRequest;
    const { status, headers, text } = await send(mock, request);
    expect(status).toBe(MOCK_STATUS[name]);
    const body = JSON.parse(text);
    if (status === 200) {
      // Exactly the Plant's declared fields: the name and tag sent, no id.
      expect(body).toEqual(request.plant);
      expect(expect_).toBe('accepted');
    } else {
      expect(body).toEqual({ error: status, message: expect.any(String) });
      expect(body.message.length).toBeGreaterThan(20);
    }
    if (status === 401) expect(headers.get('www-authenticate')).toMatch(/^Bearer realm="plant-store"/);
    expect(headers.get('content-type')).toBe('application/json');
    expect(fixture.name).toBe(name);
  });

  it('stores the accepted ids exactly, big ones included, and answers a repeat 409', async () => {
    const accepted = fixtures.filter((f) => f.expect === 'accepted');
    const before = await mock.store.count('/plants');
    const requests = accepted.map((f) => renderFixture(f, { token: TOKEN, invalidToken: 'not-a-known-token', ids }));
    for (const request of requests) expect((await send(mock, request)).status).toBe(200);
    const listed = await (await fetch(`${mock.url}/__mock/plants`)).text();
    for (const request of requests) {
      expect(listed).toContain(`"id":${request.id}`);
      const repeat = await send(mock, request);
      expect(repeat.status).toBe(409);
      expect(JSON.parse(repeat.text).message).toContain(`${request.id}`);
    }
    expect(await mock.store.count('/plants')).toBe(before + accepted.length);
  });
});
