/**
 * The inspector in proxy mode, in Chromium: it says where requests go, keeps polling the journal
 * without a store behind it, and shows each exchange's violations next to it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../server.js';
import { artifactPath, chromiumMissing, launchChromium, patientPage } from '../../test/chromium.js';
import { answerJson, startProvider, type Provider } from './providers.js';

describe.skipIf(chromiumMissing)('the inspector in proxy mode, in Chromium', () => {
  let provider: Provider;
  let mock: MockServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    provider = await startProvider(answerJson(200, '{"name":5}'));
    [mock, browser] = await Promise.all([createMockServer({ port: 0, logLevel: 'silent', proxy: { upstream: provider.url.replace('http://', 'http://ci:hidden@') } }), launchChromium()]);
    page = await patientPage(browser, { viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  it('names the upstream, masked, and offers no store reset', async () => {
    await page.goto(`${mock.url}/__mock/`);
    await page.locator('#connection[data-state="live"]').waitFor();
    const banner = (await page.locator('#collections-empty', { hasText: 'Proxy mode' }).textContent()) as string;
    expect(banner).toContain(`Proxy mode: every request goes to ${provider.url.replace('http://', 'http://ci:***@')}`);
    expect(banner).not.toContain('hidden');
    expect(await page.locator('#reset').isHidden()).toBe(true);
  });

  it('shows an answer outside the spec with its violation, beside a clean one', async () => {
    await page.fill('#try-body-text', '{"id":9223372036854775807,"name":"Monstera"}');
    await page.click('#try-send');
    await page.locator('#try-status', { hasText: '200' }).waitFor();
    const entry = page.locator('#journal tbody tr').filter({ hasText: 'UPSTREAM_INVALID_BODY' });
    await entry.waitFor();
    expect(await entry.locator('ul.violations li.error').textContent()).toBe(
      "response UPSTREAM_INVALID_BODY The upstream's 200 answer to createPlant (POST /plants) is not a valid Plant: name must be a string, got the number 5.",
    );
    expect(provider.received.at(-1)!.body.toString()).toBe('{"id":9223372036854775807,"name":"Monstera"}');

    provider.answer(answerJson(200, '{"name":"Monstera"}'));
    await page.fill('#try-body-text', '{"id":1,"name":"Monstera"}');
    await page.click('#try-send');
    await page.locator('#journal tbody tr').nth(1).waitFor();
    expect(await page.locator('#journal tbody tr ul.violations li').count()).toBe(1);
    await page.screenshot({ path: artifactPath('inspector-proxy.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
