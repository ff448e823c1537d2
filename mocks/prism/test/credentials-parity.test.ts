/**
 * Credentials before parameters, in both mocks alike (issue 21): one table of requests — no
 * credentials, bad ones and good ones, each with a parameter the spec refuses, on bearer, basic,
 * query and cookie API keys, a choice of requirements, two required together and `security: []` —
 * sent over real HTTP to the stateful mock and to the Prism mock, which must answer each with the
 * same status, the same WWW-Authenticate challenge and the same error body in the spec's shape.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../server.js';
import { startPrismMock, type PrismMock } from '../server.js';

const specPath = (name: string): string => fileURLToPath(new URL(`../../../fixtures/specs/${name}/openapi.yaml`, import.meta.url));

const BEARER = { authorization: 'Bearer t0k3n' };
const BASIC = { authorization: `Basic ${Buffer.from('ada:secret').toString('base64')}` };
const WRONG_SCHEME = { authorization: 'Basic eDp5' };

interface Row {
  what: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** What the stateful mock answers (the reference the Prism mock must match). */
  status: number;
}

const TABLES: Record<string, Row[]> = {
  'credentials-3.1': [
    { what: 'bearer: none + bad parameter', path: '/secrets?limit=0', status: 401 },
    { what: 'bearer: wrong scheme + bad parameter', path: '/secrets?limit=0', headers: WRONG_SCHEME, status: 401 },
    { what: 'bearer: malformed token + bad parameter', path: '/secrets?limit=0', headers: { authorization: 'Bearer ##' }, status: 401 },
    { what: 'bearer: good + bad parameter', path: '/secrets?limit=0', headers: BEARER, status: 400 },
    { what: 'bearer: good, the scheme in lower case (RFC 7235) + bad parameter', path: '/secrets?limit=0', headers: { authorization: 'bearer t0k3n' }, status: 400 },
    { what: 'bearer: good + good parameter', path: '/secrets?limit=2', headers: BEARER, status: 200 },
    { what: 'basic: none + bad parameter', path: '/basic/secrets?limit=51', status: 401 },
    { what: 'basic: not user:password + bad parameter', path: '/basic/secrets?limit=51', headers: { authorization: 'Basic !!!' }, status: 401 },
    { what: 'basic: a bearer token + bad parameter', path: '/basic/secrets?limit=51', headers: BEARER, status: 401 },
    { what: 'basic: good + bad parameter', path: '/basic/secrets?limit=51', headers: BASIC, status: 400 },
    { what: 'basic: good + good parameter', path: '/basic/secrets?limit=2', headers: BASIC, status: 200 },
    { what: 'query key: none + bad parameter', path: '/query-key/secrets?limit=x', status: 401 },
    { what: 'query key: empty + bad parameter', path: '/query-key/secrets?api_key=&limit=x', status: 401 },
    { what: 'query key: good + bad parameter', path: '/query-key/secrets?api_key=k1&limit=x', status: 400 },
    { what: 'query key: good + good parameter', path: '/query-key/secrets?api_key=k1&limit=3', status: 200 },
    { what: 'cookie key: none + bad parameter', path: '/cookie-key/secrets?limit=0', status: 401 },
    { what: 'cookie key: another cookie + bad parameter', path: '/cookie-key/secrets?limit=0', headers: { cookie: 'theme=dark' }, status: 401 },
    { what: 'cookie key: empty + bad parameter', path: '/cookie-key/secrets?limit=0', headers: { cookie: 'session=' }, status: 401 },
    { what: 'cookie key: good + bad parameter', path: '/cookie-key/secrets?limit=0', headers: { cookie: 'session=k1' }, status: 400 },
    { what: 'either: none + bad parameter', path: '/either/secrets?limit=0', status: 401 },
    { what: 'either: the query key + bad parameter', path: '/either/secrets?api_key=k1&limit=0', status: 400 },
    { what: 'either: basic + bad parameter', path: '/either/secrets?limit=0', headers: BASIC, status: 400 },
    { what: 'both: basic alone + bad parameter', path: '/both/secrets?limit=0', headers: BASIC, status: 401 },
    { what: 'both: the cookie alone + bad parameter', path: '/both/secrets?limit=0', headers: { cookie: 'session=k1' }, status: 401 },
    { what: 'both: both + bad parameter', path: '/both/secrets?limit=0', headers: { ...BASIC, cookie: 'session=k1' }, status: 400 },
    { what: 'security []: none + bad parameter', path: '/open/secrets/0', status: 400 },
    { what: 'security []: bad credentials + bad parameter', path: '/open/secrets/0', headers: { authorization: 'Basic !!!' }, status: 400 },
    { what: 'security []: none + good parameter', path: '/open/secrets/3', status: 200 },
  ],
  'problem-details': [
    { what: 'none + bad parameter', path: '/orders?limit=0', status: 401 },
    { what: 'wrong scheme + bad parameter', path: '/orders?limit=0', headers: WRONG_SCHEME, status: 401 },
    { what: 'good + bad parameter', path: '/orders?limit=0', headers: BEARER, status: 400 },
    { what: 'good + good parameter', path: '/orders?limit=2', headers: BEARER, status: 200 },
    { what: 'none + a malformed body', method: 'POST', path: '/orders', headers: { 'content-type': 'application/json' }, body: '{"orderId":', status: 401 },
    { what: 'good + a malformed body', method: 'POST', path: '/orders', headers: { ...BEARER, 'content-type': 'application/json' }, body: '{"orderId":', status: 400 },
  ],
};

async function call(base: string, row: Row) {
  const response = await fetch(base + row.path, { method: row.method ?? 'GET', headers: row.headers, body: row.body });
  const text = await response.text();
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    contentType: response.status >= 400 ? response.headers.get('content-type') : undefined,
    // A problem's traceId is made afresh for each answer: the rest of an error must be the same.
    error: response.status >= 400 && text ? withoutTraceId(JSON.parse(text)) : undefined,
  };
}

function withoutTraceId(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { traceId: _traceId, ...rest } = body as Record<string, unknown>;
  return rest;
}

describe.each(Object.keys(TABLES))('the stateful mock and the Prism mock judge credentials before parameters alike on %s', (name) => {
  let mock: MockServer;
  let prism: PrismMock;
  beforeAll(async () => {
    [mock, prism] = await Promise.all([createMockServer({ port: 0, logLevel: 'silent', spec: specPath(name) }), startPrismMock({ port: 0, spec: specPath(name) })]);
  });
  afterAll(async () => {
    await Promise.all([mock?.close(), prism?.close()]);
  });

  it.each(TABLES[name] as Row[])('$what → $status', async (row) => {
    const [stateful, stateless] = await Promise.all([call(mock.url, row), call(prism.url, row)]);
    expect(stateful.status, `stateful mock: ${JSON.stringify(stateful)}`).toBe(row.status);
    // An API key is challenged with nothing (no HTTP scheme exists for one); bearer and basic with their realm.
    if (row.status === 401 && !/API key/.test(JSON.stringify(stateful.error))) expect(stateful.challenge).toMatch(/realm="/);
    if (row.status === 401 && /API key/.test(JSON.stringify(stateful.error))) expect(stateful.challenge).toBeNull();
    expect(stateless, 'the Prism mock answers as the stateful mock').toEqual(stateful);
  });
});
