/**
 * What a hostile web page can reach (issue 13, item 3): every route refuses a Host the mock does
 * not answer to (DNS rebinding), and the admin routes answer cross-origin requests only for the
 * origins `--cors-origin` allows. The public route keeps its permissive CORS. Raw sockets where
 * the request needs a Host header fetch would not send.
 */
import { describe, expect, it } from 'vitest';
import { answersOf, rawExchange, rawRequest } from './raw-http.js';
import { createPlant, freshId, listedPlantsText, TOKEN, useMock } from './mock-under-test.js';
import { HostPolicy, requestedHost } from '../http/allowed-hosts.js';
import type { MockServer } from '../server.js';

const json = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** One request with `host` as its Host header; the single answer, its body parsed when JSON. */
async function withHost(mock: MockServer, host: string, target: string, method = 'GET', body?: string, headers: Record<string, string> = {}) {
  const { text } = await rawExchange(mock.url, [rawRequest(target, { method, host, headers, body })], {
    until: (t) => answersOf(t).length > 0,
  });
  const [answer] = answersOf(text);
  expect(answer, text).toBeDefined();
  const parsed = answer as NonNullable<typeof answer>;
  return { ...parsed, json: parsed.headers['content-type']?.startsWith('application/json') && parsed.body ? JSON.parse(parsed.body) : undefined };
}

function expectHostRefused(answer: Awaited<ReturnType<typeof withHost>>, host: string): void {
  expect(answer.status).toBe(403);
  expect(answer.json).toEqual({ error: 403, message: expect.stringContaining(host) });
  expect(answer.json.message).toContain('--allowed-hosts');
}

describe('Host header (DNS rebinding), default flags', () => {
  const mock = useMock();
  const port = () => new URL(mock.current.url).port;

  it.each(['evil.test', 'rebind.attacker.example', '127.0.0.1.nip.io', 'localhost.evil.test'])('refuses Host %s on every route, acting on nothing', async (name) => {
    const host = `${name}:${port()}`;
    const id = freshId();
    expectHostRefused(await withHost(mock.current, host, '/plants', 'POST', `{"id":${id},"name":"x"}`, json), name);
    expectHostRefused(await withHost(mock.current, host, '/__mock/plants'), name);
    expectHostRefused(await withHost(mock.current, host, '/__mock/requests'), name);
    expectHostRefused(await withHost(mock.current, host, '/__mock/health'), name);
    expectHostRefused(await withHost(mock.current, host, '/__mock/'), name);
    await createPlant(mock.current, { id: freshId(), name: 'Survivor' });
    expectHostRefused(await withHost(mock.current, host, '/__mock/plants', 'DELETE'), name);
    const listed = await listedPlantsText(mock.current);
    expect(listed).toContain('Survivor');
    expect(listed).not.toContain(String(id));
  });

  it.each(['localhost', 'LOCALHOST', 'localhost.', '127.0.0.1', '[::1]', 'app.localhost', 'a.b.localhost'])('answers Host %s (with and without the port)', async (name) => {
    expect((await withHost(mock.current, `${name}:${port()}`, '/__mock/health')).status).toBe(200);
    expect((await withHost(mock.current, name, '/__mock/health')).status).toBe(200);
  });

  it('judges an absolute-form target by its authority, not by the Host header (RFC 9112 §3.2.2)', async () => {
    const refused = await withHost(mock.current, `localhost:${port()}`, `http://evil.test:${port()}/__mock/plants`);
    expectHostRefused(refused, 'evil.test');
    const answered = await withHost(mock.current, `evil.test:${port()}`, `http://localhost:${port()}/__mock/health`);
    expect(answered.status).toBe(200);
  });

  it('refuses with CORS headers, so a cross-origin page can read why', async () => {
    const answer = await withHost(mock.current, `evil.test:${port()}`, '/plants', 'POST', '{}', { ...json, origin: 'http://localhost:5173' });
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('Host header with --allowed-hosts', () => {
  const mock = useMock({ allowedHosts: ['mock.internal', '.example.test'] });
  const port = () => new URL(mock.current.url).port;

  it.each(['mock.internal', 'example.test', 'api.example.test', 'localhost'])('answers Host %s', async (name) => {
    expect((await withHost(mock.current, `${name}:${port()}`, '/__mock/health')).status).toBe(200);
  });

  it.each(['other.internal', 'example.test.evil', 'notexample.test'])('still refuses Host %s', async (name) => {
    expectHostRefused(await withHost(mock.current, `${name}:${port()}`, '/__mock/health'), name);
  });
});

describe('Host header with --allowed-hosts all', () => {
  const mock = useMock({ allowedHosts: 'all' });

  it('answers any Host', async () => {
    expect((await withHost(mock.current, 'anything.example:1', '/__mock/health')).status).toBe(200);
  });
});

const preflight = (url: string, origin: string, method = 'DELETE') => fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method } });

describe('admin routes from other origins, default flags (same origin only)', () => {
  const mock = useMock();
  const foreign = 'http://localhost:5173';

  it('gives a foreign preflight no grant, and refuses it', async () => {
    const response = await preflight(`${mock.current.url}/__mock/plants`, foreign);
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
  });

  it.each([
    ['GET', '/__mock/plants'],
    ['GET', '/__mock/requests'],
    ['DELETE', '/__mock/plants'],
    ['POST', '/__mock/plants'],
  ])('refuses %s %s from a foreign Origin with a 403 that says how to allow it, acting on nothing', async (method, path) => {
    await createPlant(mock.current, { id: freshId(), name: 'Survivor' });
    const response = await fetch(mock.current.url + path, {
      method,
      headers: { origin: foreign, 'content-type': 'application/json' },
      body: method === 'POST' ? '[{"id":1,"name":"seeded"}]' : undefined,
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const body = await response.json();
    expect(body).toEqual({ error: 403, message: expect.stringContaining(foreign) });
    expect(body.message).toContain('--cors-origin');
    const listed = await listedPlantsText(mock.current);
    expect(listed).toContain('Survivor');
    expect(listed).not.toContain('seeded');
  });

  it('refuses Origin: null (sandboxed frames, file: pages)', async () => {
    expect((await fetch(`${mock.current.url}/__mock/plants`, { headers: { origin: 'null' } })).status).toBe(403);
  });

  it('answers its own origin (the inspector) and clients that send no Origin (curl, scripts)', async () => {
    const own = new URL(mock.current.url).origin;
    expect((await fetch(`${mock.current.url}/__mock/plants`, { method: 'DELETE', headers: { origin: own } })).status).toBe(204);
    expect((await fetch(`${mock.current.url}/__mock/plants`)).status).toBe(200);
    expect((await fetch(`${mock.current.url}/__mock/requests`)).status).toBe(200);
  });

  it('keeps health and the inspector page readable from anywhere: they hold no data', async () => {
    for (const path of ['/__mock/health', '/__mock/', '/__mock/inspector.js']) {
      const response = await fetch(mock.current.url + path, { headers: { origin: foreign } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
    }
  });

  it('tells a page of another origin only the status on health, not the replica or the store', async () => {
    const fromPage = await fetch(`${mock.current.url}/__mock/health`, { headers: { origin: foreign } });
    expect(await fromPage.json()).toEqual({ status: 'ok' });
    expect(fromPage.headers.get('vary')).toMatch(/origin/i);
    const own = await fetch(`${mock.current.url}/__mock/health`, { headers: { origin: mock.current.url } });
    expect(await own.json()).toMatchObject({ status: 'ok', replica: expect.any(String), store: { state: 'up', kind: 'memory' } });
    const noPage = await fetch(`${mock.current.url}/__mock/health`);
    expect(await noPage.json()).toMatchObject({ status: 'ok', replica: expect.any(String), store: { state: 'up' } });
  });

  it('keeps the public route open to any origin', async () => {
    const response = await createPlant(mock.current, { id: freshId(), name: 'x' }, { headers: { origin: foreign } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect((await preflight(`${mock.current.url}/plants`, foreign, 'POST')).headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('admin routes with --cors-origin', () => {
  const app = 'http://app.test:5173';
  const mock = useMock({ corsOrigins: [app] });

  it('grants the allowed origin a preflight and its answers', async () => {
    const allowed = await preflight(`${mock.current.url}/__mock/plants`, app);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(app);
    expect(allowed.headers.get('access-control-allow-methods')).toContain('DELETE');
    const health = await fetch(`${mock.current.url}/__mock/health`, { headers: { origin: app } });
    expect(await health.json()).toMatchObject({ status: 'ok', replica: expect.any(String) });
    const read = await fetch(`${mock.current.url}/__mock/plants`, { headers: { origin: app } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBe(app);
  });

  it('refuses every other origin', async () => {
    expect((await preflight(`${mock.current.url}/__mock/plants`, 'http://evil.test')).status).toBe(403);
    expect((await fetch(`${mock.current.url}/__mock/plants`, { headers: { origin: 'http://evil.test' } })).status).toBe(403);
  });
});

describe('HostPolicy (the decision behind the 403)', () => {
  it('on 0.0.0.0 (containers) answers any address literal and loopback names, not other names', () => {
    const policy = new HostPolicy('0.0.0.0', '0.0.0.0');
    for (const host of ['172.17.0.2:4010', '10.0.0.5', '[fd00::1]:4010', 'localhost:4010', '127.0.0.1']) expect(policy.allows(host), host).toBe(true);
    for (const host of ['mock:4010', 'plants.example', 'evil.test']) expect(policy.allows(host), host).toBe(false);
    expect(new HostPolicy('0.0.0.0', '0.0.0.0', ['mock']).allows('mock:4010')).toBe(true);
  });

  it('on a loopback address answers only loopback, its own address and its --host name', () => {
    const policy = new HostPolicy('127.0.0.1', '127.0.0.1');
    expect(policy.allows('10.0.0.5:4010')).toBe(false);
    expect(policy.allows('127.0.0.2')).toBe(true);
    expect(new HostPolicy('::1', '::1').allows('[::1]:4010')).toBe(true);
    expect(new HostPolicy('192.168.1.7', 'devbox.lan').allows('devbox.lan:4010')).toBe(true);
    expect(new HostPolicy('192.168.1.7', 'devbox.lan').allows('192.168.1.7:4010')).toBe(true);
  });

  it.each(['', 'a b', 'evil.test:80:80', 'evil.test/x', '[::1', 'user@localhost'])('refuses the malformed Host %j', (host) => {
    expect(new HostPolicy('127.0.0.1', '127.0.0.1').allows(host)).toBe(false);
  });

  it('reads the host an absolute-form target names', () => {
    expect(requestedHost('http://user@evil.test:1/x?y', 'localhost')).toBe('evil.test:1');
    expect(requestedHost('http://[::1]:4010', 'evil.test')).toBe('[::1]:4010');
    expect(requestedHost('/plants', 'localhost:1')).toBe('localhost:1');
    expect(requestedHost('*', undefined)).toBeUndefined();
  });
});
