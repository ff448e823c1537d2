/**
 * A page on an origin `--cors-origin` names reads an admin listing's `X-Total-Count` and `Link`
 * (Chromium: Node's fetch ignores CORS, so only a browser proves what a page may read); a page of
 * any other origin still gets no grant at all, and the API's routes keep their own grant.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { chromiumMissing, launchChromium, startFrontendOrigin, patientPage } from './chromium.js';

/** What a page could read of one GET, or why fetch failed. */
interface PageRead {
  status?: number;
  body?: string;
  total?: string | null;
  link?: string | null;
  failed?: string;
}

function getFromPage(page: Page, url: string): Promise<PageRead> {
  return page.evaluate(async (url) => {
    try {
      const response = await fetch(url);
      return { status: response.status, body: await response.text(), total: response.headers.get('x-total-count'), link: response.headers.get('link') };
    } catch (error) {
      return { failed: String(error) };
    }
  }, url);
}

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const PLANTS = [
  { id: 1, name: 'Monstera' },
  { id: 2, name: 'Fern' },
  { id: 3, name: 'Cactus' },
];

async function mockAllowing(origins: string[]): Promise<MockServer> {
  const mock = await createMockServer({ port: 0, logLevel: 'silent', corsOrigins: origins });
  cleanups.push(() => mock.close());
  const seeded = await fetch(`${mock.url}/__mock/plants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(PLANTS) });
  expect(seeded.status).toBe(200);
  return mock;
}

describe('admin listing headers across origins, over HTTP (Node fetch sends the Origin a page would)', () => {
  it('exposes X-Total-Count and Link to an allowed origin only; the API keeps its grant', async () => {
    const allowed = 'http://app.test:5173';
    const mock = await mockAllowing([allowed]);
    const granted = await fetch(`${mock.url}/__mock/plants?limit=1`, { headers: { origin: allowed } });
    expect(granted.status).toBe(200);
    expect(granted.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(granted.headers.get('access-control-expose-headers')?.split(', ')).toEqual(expect.arrayContaining(['x-total-count', 'link']));
    expect(granted.headers.get('x-total-count')).toBe('3');
    // Another origin: refused, with no grant to read anything by.
    const refused = await fetch(`${mock.url}/__mock/plants?limit=1`, { headers: { origin: 'http://evil.test' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-expose-headers')).toBeNull();
    // The API's routes and health: their grants are not the admin listing's.
    const api = await fetch(`${mock.url}/plants`, { headers: { origin: allowed } });
    expect(api.headers.get('access-control-expose-headers')?.split(', ')).not.toContain('x-total-count');
    const health = await fetch(`${mock.url}/__mock/health`, { headers: { origin: 'http://evil.test' } });
    expect(health.headers.get('access-control-expose-headers')?.split(', ') ?? []).not.toContain('x-total-count');
  });
});

describe.skipIf(chromiumMissing)('admin listing headers from a page (Chromium)', () => {
  let frontend: Awaited<ReturnType<typeof startFrontendOrigin>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [frontend, browser] = await Promise.all([startFrontendOrigin(), launchChromium()]);
    cleanups.push(() => frontend.close());
    cleanups.push(() => browser.close());
    page = await patientPage(browser);
    await page.goto(frontend.origin);
  });

  it('a page on an origin --cors-origin names reads the total and the next page of GET /__mock/plants', async () => {
    const mock = await mockAllowing([frontend.origin]);
    expect(new URL(mock.url).origin).not.toBe(frontend.origin);
    const read = await getFromPage(page, `${mock.url}/__mock/plants?limit=2`);
    expect(read.failed).toBeUndefined();
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body as string)).toEqual(PLANTS.slice(0, 2));
    expect(read.total).toBe('3');
    expect(read.link).toMatch(/^<\/__mock\/plants\?limit=2&after=[^>]+>; rel="next"$/);
    // The page follows the link it read to the last plant.
    const next = await getFromPage(page, `${mock.url}${(/^<([^>]+)>/.exec(read.link as string) as RegExpExecArray)[1]}`);
    expect(JSON.parse(next.body as string)).toEqual(PLANTS.slice(2));
    expect(next.link).toBeNull();
  });

  it('a page on an origin --cors-origin does not name reads nothing of it', async () => {
    const mock = await mockAllowing(['http://someone-else.test']);
    const read = await getFromPage(page, `${mock.url}/__mock/plants?limit=2`);
    expect(read.failed).toMatch(/TypeError/);
  });
});
