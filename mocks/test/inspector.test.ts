/**
 * The inspector page at /__mock/: served as static assets (from source, from dist/, in the npm
 * package), protected by the admin token, and driven in Chromium like a frontend developer would.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTOR_ASSETS } from '../admin/inspector.js';
import { createMockServer, type MockServer } from '../server.js';
import { artifactPath, chromiumMissing, launchChromium, startFrontendOrigin } from './chromium.js';
import { useMock } from './mock-under-test.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ADMIN_TOKEN = 'sesame';
const XSS = '<img src=x onerror=alert(1)>';

describe('inspector assets over HTTP', () => {
  const mock = useMock({ adminToken: ADMIN_TOKEN });

  it.each([
    ['/__mock/', 'text/html'],
    ['/__mock', 'text/html'],
    ['/__mock/inspector.css', 'text/css'],
    ['/__mock/inspector.js', 'text/javascript'],
  ])('serves %s as %s without the admin token, under a strict CSP', async (path, type) => {
    const response = await fetch(mock.current.url + path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await response.text()).length).toBeGreaterThan(100);
  });

  it('references only its own assets: nothing from a CDN, so it works offline', async () => {
    const html = await (await fetch(`${mock.current.url}/__mock/`)).text();
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(references.sort()).toEqual(['/__mock/inspector.css', '/__mock/inspector.js', expect.stringMatching(/^data:image\/svg/)]);
  });

  it('keeps the data behind the token, and does not journal its own polling', async () => {
    expect((await fetch(`${mock.current.url}/__mock/plants`)).status).toBe(401);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    mock.current.journal.clear();
    for (let i = 0; i < 3; i++) {
      expect((await fetch(`${mock.current.url}/__mock/plants`, { headers: admin })).status).toBe(200);
      expect((await fetch(`${mock.current.url}/__mock/requests`, { headers: admin })).status).toBe(200);
    }
    await fetch(`${mock.current.url}/__mock/`);
    expect((await mock.current.journal.entries()).entries).toEqual([]);
    // Rejections and changes are still recorded.
    await fetch(`${mock.current.url}/__mock/requests`);
    await fetch(`${mock.current.url}/__mock/plants`, { method: 'DELETE', headers: admin });
    expect((await mock.current.journal.entries()).entries.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'DELETE /__mock/plants 204',
      'GET /__mock/requests 401',
    ]);
  });

  it('ships the assets in the npm package', async () => {
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
    const [pack] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    const files = pack.files.map((file) => file.path);
    for (const { file } of Object.values(INSPECTOR_ASSETS)) expect(files).toContain(`mocks/admin/inspector/${file}`);
  });

  const built = `${ROOT}dist/mocks/server.js`;
  if (!existsSync(built)) console.warn(`dist/ check skipped: ${built} is missing (npm test builds it first)`);
  it.skipIf(!existsSync(built))('finds the assets when running from dist/ after tsc', async () => {
    const dist = (await import(pathToFileURL(built).href)) as typeof import('../server.js');
    const fromDist = await dist.createMockServer({ port: 0, logLevel: 'silent' });
    try {
      const response = await fetch(`${fromDist.url}/__mock/`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<title>Plant Store mock');
    } finally {
      await fromDist.close();
    }
  });
});

describe.skipIf(chromiumMissing)('the inspector in Chromium', () => {
  let mock: MockServer;
  let frontend: Awaited<ReturnType<typeof startFrontendOrigin>>;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [mock, frontend, browser] = await Promise.all([
      createMockServer({ port: 0, logLevel: 'silent', adminToken: ADMIN_TOKEN }),
      startFrontendOrigin(),
      launchChromium(),
    ]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(5_000); // the page polls every second: a wait longer than this is a failure
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([mock?.close(), frontend?.close()]);
  });

  const plantRows = () => page.locator('#plants tbody tr');
  const journalRows = () => page.locator('#journal tbody tr');

  it('asks for the admin token, keeps it in sessionStorage and sends it as a bearer token', async () => {
    await page.goto(`${mock.url}/__mock/`);
    await page.locator('#token-panel').waitFor({ state: 'visible' });
    expect(await page.textContent('#token-reason')).toContain('no Authorization header was sent');
    await page.fill('#admin-token', ADMIN_TOKEN);
    await page.click('#token-form button');
    await page.locator('#token-panel').waitFor({ state: 'hidden' });
    await page.locator('#connection[data-state="live"]').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('plant-store-mock.admin-token'))).toBe(ADMIN_TOKEN);
    expect(await page.evaluate(() => location.search)).toBe('');
  });

  it('shows, without a reload, a plant created by a page on another origin', async () => {
    const other = await browser.newPage();
    await other.goto(frontend.origin);
    const status = await other.evaluate(async (url) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        body: '{"id":9223372036854775807,"name":"Monstera","tag":"tropical"}',
      });
      return response.status;
    }, `${mock.url}/plants`);
    await other.close();
    expect(status).toBe(200);
    await plantRows().filter({ hasText: 'Monstera' }).waitFor();
    // The int64 id is shown exactly, not rounded to 9223372036854775808.
    expect(await plantRows().first().locator('td').allTextContents()).toEqual(['9223372036854775807', 'Monstera', 'tropical']);
  });

  it('creates a plant from its form and renders an HTML-looking name as inert text', async () => {
    await page.fill('#try-id', '2');
    await page.fill('#try-name', XSS);
    await page.fill('#try-tag', '<b>bold</b>');
    await page.click('#try-form button');
    await page.locator('#try-status', { hasText: '200' }).waitFor();
    await plantRows().filter({ hasText: XSS }).waitFor();
    expect(await plantRows().first().locator('td').allTextContents()).toEqual(['2', XSS, '<b>bold</b>']);
    expect(await page.locator('#plants img, #plants b, #journal img').count()).toBe(0);
    expect(await page.textContent('#plant-count')).toBe('2');
    expect(await page.inputValue('#try-id')).toBe('3');
  });

  it("shows a rejected request's journal entry with its validation errors in words", async () => {
    await page.fill('#try-id', XSS);
    await page.fill('#try-name', '');
    await page.fill('#try-tag', '');
    await page.click('#try-form button');
    await page.locator('#try-status', { hasText: '400' }).waitFor();
    expect(JSON.parse((await page.textContent('#try-body')) as string)).toMatchObject({ error: 400 });
    const entry = journalRows().filter({ hasText: 'INVALID_REQUEST_BODY' });
    await entry.waitFor();
    const problems = await entry.locator('li').allTextContents();
    expect(problems).toEqual(expect.arrayContaining(['name is required', `id must be an integer, got the string "${XSS}"`]));
    expect(await entry.locator('td').nth(2).textContent()).toBe('POST /plants');
    expect(await entry.locator('.status').textContent()).toBe('400');
    // A 401 from the form (no token) lands in the journal too, and the filter keeps only rejections.
    await page.fill('#try-token', '');
    await page.fill('#try-id', '3');
    await page.fill('#try-name', 'Ficus');
    await page.click('#try-form button');
    await journalRows().filter({ hasText: 'MISSING_CREDENTIALS' }).waitFor();
    await page.check('#rejections-only');
    const statuses = await page.locator('#journal tbody .status').allTextContents();
    expect(statuses.length).toBe(3); // the locked page load's 401, the 400, this 401
    expect(statuses.every((status) => Number(status) >= 400)).toBe(true);
    await page.uncheck('#rejections-only');

    await page.screenshot({ path: artifactPath('inspector.png'), fullPage: true });
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('resets the store with its button', async () => {
    await page.click('#reset');
    await page.locator('#plants-empty').waitFor({ state: 'visible' });
    expect(await plantRows().count()).toBe(0);
    expect(await mock.store.count('/plants')).toBe(0);
    await journalRows().filter({ hasText: 'DELETE /__mock/plants' }).waitFor();
  });
});
