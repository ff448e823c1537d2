/**
 * The pages as a new user first sees them (issue 40), in Chromium: the docs page stamps the version
 * the spec's file declares (a 3.0 document "OAS 3.0", Swagger "OAS 2.0"), not the 3.1 copy the mock
 * renders; the journal's count beside "Requests" says how many of the journal's entries are shown,
 * in the same terms as the bound's "(now N, …)"; "Try it" sends a create with a fresh identity each
 * time, so the second send is not a 409.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { chromiumMissing, chromiumOfFile, patientPage } from './chromium.js';

const spec = (path: string): string => fileURLToPath(new URL(`../../fixtures/specs/${path}`, import.meta.url));

/** One Chromium for the file (launched by the first describe that runs). */
const browserOfFile = chromiumOfFile();

describe.skipIf(chromiumMissing)('what a new user first sees (Chromium)', () => {
  /** One page for every test: each opens its own mock, on its own origin, so each starts a new document with nothing of the last. */
  let page: Page;
  const mocks: MockServer[] = [];
  const start = async (file?: string): Promise<MockServer> => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', ...(file ? { spec: file } : {}) });
    mocks.push(mock);
    return mock;
  };

  beforeAll(async () => {
    page = await patientPage(await browserOfFile());
  });

  afterAll(async () => {
    await page?.close();
    await Promise.all(mocks.map((mock) => mock.close()));
  });

  for (const [file, stamp] of [
    ['generated-bodies-3.0/openapi.yaml', 'OAS 3.0'],
    ['swagger-2.0/swagger.yaml', 'OAS 2.0'],
    ['generated-bodies-3.1/openapi.yaml', 'OAS 3.1'],
  ] as const) {
    it(`the docs page of ${file} is stamped ${stamp}`, async () => {
      const mock = await start(spec(file));
      await page.goto(`${mock.url}/__mock/docs`);
      await page.locator('body[data-ready="true"]').waitFor();
      expect((await page.locator('.info .version-stamp').textContent())?.trim()).toBe(stamp);
    });
  }

  it('counts the requests shown of those the journal holds', async () => {
    const mock = await start();
    // More than the page loads at first (200): the older ones stay behind "older requests".
    for (let i = 0; i < 230; i += 23) await Promise.all(Array.from({ length: 23 }, async () => (await fetch(`${mock.url}/plants`, { method: 'POST' })).arrayBuffer()));
    await page.goto(`${mock.url}/__mock/`);
    await page.locator('#connection[data-state="live"]').waitFor();
    await page.locator('#journal-bound', { hasText: 'now 230' }).waitFor();
    expect(await page.locator('#journal tbody tr').count()).toBe(200);
    expect(await page.textContent('#journal-count')).toBe('200 of 230');
  });

  it('"Try it" creates a fresh identity each send', async () => {
    const mock = await start();
    await page.goto(`${mock.url}/__mock/`);
    await page.locator('#connection[data-state="live"]').waitFor();
    await page.selectOption('#try-operation', 'createPlant');
    await page.locator('#try-send', { hasText: 'Send POST /plants' }).waitFor();
    const ids: string[] = [];
    for (let send = 0; send < 3; send++) {
      await page.click('#try-send');
      await page.locator('#try-status', { hasText: /^200/ }).waitFor();
      ids.push(JSON.parse(await page.inputValue('#try-body-text')).id as string);
      // The next send starts from this answer: the badge says "sending…" first.
      await page.evaluate(() => (document.getElementById('try-status')!.textContent = ''));
    }
    expect(new Set(ids).size).toBe(3);
    const stored = (await (await fetch(`${mock.url}/__mock/plants`)).json()) as { id: number }[];
    expect(stored.map((plant) => String(plant.id)).sort()).toEqual(ids.map(String).sort());
    // A body the user wrote goes as written: the same id twice is the API's 409.
    await page.fill('#try-body-text', '{"id": 5, "name": "Fern"}');
    await page.click('#try-send');
    await page.locator('#try-status', { hasText: /^200/ }).waitFor();
    await page.click('#try-send');
    await page.locator('#try-status', { hasText: /^409/ }).waitFor();
  });
});
