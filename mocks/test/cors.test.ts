/** CORS for browser clients: preflight and headers on every answer, errors included. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { adminCorsPolicy, refusedAdminOrigin, type AdminCorsPolicy, type CorsPolicy } from '../http/cors.js';
import { createPlant, useMock } from './mock-under-test.js';

const preflight = (url: string, origin: string, path = '/plants') =>
  fetch(url + path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type,prefer',
    },
  });

describe('CORS, any origin (default)', () => {
  const mock = useMock();

  it('answers a preflight 204 naming authorization, content-type and prefer explicitly', async () => {
    const response = await preflight(mock.current.url, 'http://localhost:5173');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = response.headers.get('access-control-allow-headers')?.split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'prefer']));
  });

  it('puts CORS headers on successes and on errors, and exposes WWW-Authenticate', async () => {
    const ok = await createPlant(mock.current, { id: 1, name: 'x' }, { headers: { origin: 'http://a.test' } });
    const denied = await createPlant(mock.current, { id: 2, name: 'x' }, { noAuth: true, headers: { origin: 'http://a.test' } });
    const invalid = await createPlant(mock.current, '{', { headers: { origin: 'http://a.test' } });
    for (const response of [ok, denied, invalid]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
    expect(denied.headers.get('access-control-expose-headers')).toContain('www-authenticate');
  });

  it('gives no other origin a preflight to the admin routes (host-and-origin.test.ts has the rest)', async () => {
    const response = await preflight(mock.current.url, 'http://localhost:5173', '/__mock/plants');
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS restricted with --cors-origin', () => {
  const mock = useMock({ corsOrigins: ['http://app.test'] });

  it('echoes an allowed origin and varies on Origin', async () => {
    const response = await preflight(mock.current.url, 'http://app.test');
    expect(response.headers.get('access-control-allow-origin')).toBe('http://app.test');
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('gives other origins no CORS grant', async () => {
    const response = await preflight(mock.current.url, 'http://evil.test');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const created = await createPlant(mock.current, { id: 3, name: 'x' }, { headers: { origin: 'http://evil.test' } });
    expect(created.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('refusedAdminOrigin (the decision behind ADMIN_ORIGIN_NOT_ALLOWED)', () => {
  it('answers no Origin, the mock’s own origin and a listed one; refuses any other, also with an empty list', () => {
    const none = adminCorsPolicy(undefined);
    const listed = adminCorsPolicy(['http://app.test:5173']);
    expect(refusedAdminOrigin(undefined, '127.0.0.1:4010', none)).toBeUndefined();
    expect(refusedAdminOrigin('http://127.0.0.1:4010', '127.0.0.1:4010', none)).toBeUndefined();
    expect(refusedAdminOrigin('HTTP://LOCALHOST:4010', 'localhost:4010', none)).toBeUndefined();
    expect(refusedAdminOrigin('http://evil.test', '127.0.0.1:4010', none)).toBe('http://evil.test');
    expect(refusedAdminOrigin('http://evil.test', undefined, none)).toBe('http://evil.test');
    expect(refusedAdminOrigin('http://app.test:5173', '127.0.0.1:4010', listed)).toBeUndefined();
    expect(refusedAdminOrigin('http://evil.test', '127.0.0.1:4010', listed)).toBe('http://evil.test');
    expect(refusedAdminOrigin('https://127.0.0.1:4010', '127.0.0.1:4010', none)).toBe('https://127.0.0.1:4010');
  });

  it('takes only an admin policy: the API\'s "any origin" policy cannot be passed by mistake (checked by tsc)', () => {
    expectTypeOf(refusedAdminOrigin).parameter(2).toEqualTypeOf<AdminCorsPolicy>();
    expectTypeOf<CorsPolicy>().not.toMatchTypeOf<AdminCorsPolicy>();
  });
});
