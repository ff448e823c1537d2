/**
 * The mock from a real browser on another origin: what a frontend's `fetch` can and cannot read.
 * Node's fetch ignores CORS, so only a browser proves the preflight and the exposed headers.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { chromiumMissing, launchChromium, startFrontendOrigin, patientPage } from './chromium.js';

const TOKEN = 'frontend-token';

interface PageCall {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What the page could read of one answer, or why fetch failed. */
interface PageRead {
  status?: number;
  body?: string;
  headers?: Record<string, string | null>;
  ms?: number;
  failed?: string;
}

/** Runs `fetch` inside the page (origin: the frontend server) against `url`. */
function fetchFromPage(page: Page, url: string, call: PageCall): Promise<PageRead> {
  return page.evaluate(
    async ({ url, call }) => {
      const started = performance.now();
      try {
        const response = await fetch(url, { method: call.method ?? 'POST', headers: call.headers, body: call.body });
        const names = ['content-type', 'www-authenticate', 'preference-applied', 'allow'];
        return {
          status: response.status,
          body: await response.text(),
          headers: Object.fromEntries(names.map((name) => [name, response.headers.get(name)])),
          ms: performance.now() - started,
        };
      } catch (error) {
        return { failed: String(error) };
      }
    },
    { url, call },
  );
}

const json = { 'content-type': 'application/json' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.skipIf(chromiumMissing)('POST /plants from a page on another origin (Chromium)', () => {
  let mock: MockServer;
  let frontend: Awaited<ReturnType<typeof startFrontendOrigin>>;
  let browser: Browser;
  let page: Page;
  const seen: { method: string; headers: IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    [mock, frontend, browser] = await Promise.all([createMockServer({ port: 0, logLevel: 'silent', tokens: [TOKEN] }), startFrontendOrigin(), launchChromium()]);
    mock.server.prependListener('request', (req) => seen.push({ method: req.method ?? '', headers: req.headers }));
    page = await patientPage(browser);
    await page.goto(frontend.origin);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([mock?.close(), frontend?.close()]);
  });

  const plants = () => `${mock.url}/plants`;

  it('passes the preflight and reads the 200 Plant', async () => {
    expect(new URL(mock.url).origin).not.toBe(frontend.origin);
    const read = await fetchFromPage(page, plants(), {
      headers: { ...bearer(TOKEN), ...json },
      body: JSON.stringify({ id: 1, name: 'Monstera', tag: 'tropical' }),
    });
    expect(read.failed).toBeUndefined();
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body as string)).toEqual({ name: 'Monstera', tag: 'tropical' });
    // The browser asked first: an OPTIONS from the page's origin naming the headers it wanted.
    const preflight = seen.find((request) => request.method === 'OPTIONS');
    expect(preflight?.headers.origin).toBe(frontend.origin);
    expect(preflight?.headers['access-control-request-headers']?.split(',')).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(seen.find((request) => request.method === 'POST')?.headers.origin).toBe(frontend.origin);
    expect((await mock.journal.entries()).entries.map((entry) => `${entry.method} ${entry.status}`)).toEqual(['POST 200', 'OPTIONS 204']);
  });

  it.each([
    ['no Authorization header', {}, 'no Authorization header'],
    ['a token the mock does not accept', bearer('someone-else'), 'not one of the tokens'],
  ])('reads the 401 and its challenge for %s', async (_case, auth, words) => {
    const read = await fetchFromPage(page, plants(), { headers: { ...auth, ...json }, body: '{"id":2,"name":"x"}' });
    expect(read.status).toBe(401);
    const body = JSON.parse(read.body as string);
    expect(body).toEqual({ error: 401, message: expect.stringContaining(words) });
    expect(read.headers?.['www-authenticate']).toContain('Bearer realm="plant-store"');
  });

  it('reads the 400 whose message names each bad field', async () => {
    const read = await fetchFromPage(page, plants(), {
      headers: { ...bearer(TOKEN), ...json },
      body: JSON.stringify({ name: 42, tag: ['a'] }),
    });
    expect(read.status).toBe(400);
    const body = JSON.parse(read.body as string);
    expect(body.error).toBe(400);
    expect(body.message).toContain('id is required');
    expect(body.message).toContain('name must be a string');
    expect(body.message).toContain('tag must be a string');
  });

  it('reads the 415 for a string body fetch sent as text/plain', async () => {
    // The classic mistake: JSON.stringify without a Content-Type header.
    const read = await fetchFromPage(page, plants(), { headers: bearer(TOKEN), body: JSON.stringify({ id: 3, name: 'x' }) });
    expect(seen.at(-1)?.headers['content-type']).toMatch(/^text\/plain/);
    expect(read.status).toBe(415);
    const body = JSON.parse(read.body as string);
    expect(body.error).toBe(415);
    expect(body.message).toContain("'Content-Type: application/json'");
  });

  it('honours Prefer: code=500 and lets the page read Preference-Applied', async () => {
    const before = await mock.store.count('/plants');
    const read = await fetchFromPage(page, plants(), {
      headers: { ...bearer(TOKEN), ...json, prefer: 'code=500' },
      body: '{"id":4,"name":"x"}',
    });
    expect(read.status).toBe(500);
    expect(JSON.parse(read.body as string)).toEqual({ error: 500, message: expect.stringContaining('Prefer: code=500') });
    expect(read.headers?.['preference-applied']).toBe('code=500');
    expect(await mock.store.count('/plants')).toBe(before);
  });

  it('honours Prefer: delay from the page', async () => {
    const read = await fetchFromPage(page, plants(), {
      headers: { ...bearer(TOKEN), ...json, prefer: 'delay=400' },
      body: '{"id":5,"name":"slow"}',
    });
    expect(read.status).toBe(200);
    expect(read.ms).toBeGreaterThanOrEqual(400);
  });

  it('is really cross-origin: a header the mock does not allow is blocked by the browser', async () => {
    const read = await fetchFromPage(page, plants(), {
      headers: { ...bearer(TOKEN), ...json, 'x-not-allowed': '1' },
      body: '{"id":6,"name":"x"}',
    });
    expect(read.failed).toMatch(/TypeError/);
  });

  it('honours --cors-origin: the listed origin reads answers, another is blocked', async () => {
    const [listed, other] = await Promise.all([
      createMockServer({ port: 0, logLevel: 'silent', corsOrigins: [frontend.origin] }),
      createMockServer({ port: 0, logLevel: 'silent', corsOrigins: ['http://app.invalid'] }),
    ]);
    try {
      const call = { headers: { ...bearer(TOKEN), ...json }, body: '{"id":7,"name":"x"}' };
      expect((await fetchFromPage(page, `${listed.url}/plants`, call)).status).toBe(200);
      expect((await fetchFromPage(page, `${other.url}/plants`, call)).failed).toMatch(/TypeError/);
    } finally {
      await Promise.all([listed.close(), other.close()]);
    }
  });
});
