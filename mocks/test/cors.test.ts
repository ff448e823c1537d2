/** CORS for browser clients: preflight and headers on every answer, errors included. */
import { describe, expect, it } from 'vitest';
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
