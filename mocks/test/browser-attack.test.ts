/**
 * A hostile page in the developer's browser against a mock started with default flags (issue 13,
 * item 3), in real Chromium: a page on another loopback origin tries to read the store and the
 * journal and to wipe the store; a DNS-rebinding page (its name resolved to 127.0.0.1 by
 * Chromium's resolver rules, so its requests carry a foreign Host) tries the same as "same
 * origin". Neither can; the inspector, on its own origin, still reads and resets. The rebinding
 * page is loaded from the mock's port under the attacker's name, so Chromium's own Local Network
 * Access checks (which would block a public page) do not hide whether the mock refuses.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { chromiumMissing, launchChromium, startFrontendOrigin, patientPage } from './chromium.js';
import { PATIENT_MS } from './processes.js';

/** The attacker's name; Chromium resolves it to 127.0.0.1, as a rebinding DNS server would. */
const REBIND_NAME = 'rebind.attacker.test';

/** What a page could do with the mock's admin routes: each read's text or failure, the wipe's outcome. */
interface Attack {
  plants: string;
  journal: string;
  wipe: string;
  seed: string;
}

/** Runs in the page: tries to read, wipe and seed the mock's store at `base` ('' for the page's own origin). */
function attack(page: Page, base: string): Promise<Attack> {
  return page.evaluate(async (base) => {
    const attempt = async (path: string, init?: RequestInit): Promise<string> => {
      try {
        const response = await fetch(base + path, init);
        return `${response.status} ${await response.text()}`;
      } catch (error) {
        return `blocked: ${String(error)}`;
      }
    };
    return {
      plants: await attempt('/__mock/plants'),
      journal: await attempt('/__mock/requests'),
      wipe: await attempt('/__mock/plants', { method: 'DELETE' }),
      // A "simple" request needs no preflight: the browser sends it and only hides the answer.
      seed: await attempt('/__mock/plants', { method: 'POST', mode: 'no-cors', body: '[{"id":666,"name":"planted"}]' }),
    };
  }, base);
}

describe.skipIf(chromiumMissing)('a hostile page against the mock (Chromium, default flags)', () => {
  let mock: MockServer;
  let attacker: Awaited<ReturnType<typeof startFrontendOrigin>>;
  let browser: Browser;

  beforeAll(async () => {
    [mock, attacker, browser] = await Promise.all([createMockServer({ port: 0, logLevel: 'silent' }), startFrontendOrigin(), launchChromium([`--host-resolver-rules=MAP ${REBIND_NAME} 127.0.0.1`])]);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([mock?.close(), attacker?.close()]);
  });

  const plantSecret = async (): Promise<void> => {
    const response = await fetch(`${mock.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"id":1,"name":"Secret"}',
    });
    if (response.status !== 200 && response.status !== 409) throw new Error(`could not plant: ${response.status}`);
  };

  it('a page on another loopback origin can neither read nor wipe nor seed the store', async () => {
    await plantSecret();
    const page = await patientPage(browser);
    await page.goto(attacker.origin);
    const result = await attack(page, mock.url);
    await page.close();
    expect(result.plants).toMatch(/^blocked: TypeError/);
    expect(result.journal).toMatch(/^blocked: TypeError/);
    expect(result.wipe).toMatch(/^blocked: TypeError/);
    expect(result.seed).toBe('0 '); // opaque: sent, and refused by the mock for its origin
    expect((await mock.journal.entries()).entries.find((entry) => entry.method === 'POST' && entry.path === '/__mock/plants')).toMatchObject({
      status: 403,
      code: 'ADMIN_ORIGIN_NOT_ALLOWED',
    });
    expect(JSON.stringify(result)).not.toContain('Secret');
    const listed = await (await fetch(`${mock.url}/__mock/plants`)).text();
    expect(listed).toContain('Secret');
    expect(listed).not.toContain('planted');
  });

  it('a DNS-rebinding page (foreign Host, same origin to the browser) is refused on every route', async () => {
    await plantSecret();
    const { port } = new URL(mock.url);
    const page = await patientPage(browser);
    // After the rebinding the attacker's name points at 127.0.0.1: its page is now a document of
    // that origin loaded from the mock's port, and every fetch it makes is "same origin".
    await page.goto(`http://${REBIND_NAME}:${port}/`);
    expect(new URL(page.url()).host).toBe(`${REBIND_NAME}:${port}`);
    const result = await attack(page, '');
    const create = await page.evaluate(async () => {
      const response = await fetch('/plants', {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: '{"id":667,"name":"rebound"}',
      });
      return response.status;
    });
    await page.close();
    for (const attempt of [result.plants, result.journal, result.wipe]) {
      expect(attempt).toMatch(/^403 /);
      expect(attempt).toContain(REBIND_NAME);
    }
    expect(create).toBe(403);
    expect(JSON.stringify(result)).not.toContain('Secret');
    const listed = await (await fetch(`${mock.url}/__mock/plants`)).text();
    expect(listed).toContain('Secret');
    expect(listed).not.toMatch(/planted|rebound/);
  });

  it('the inspector on its own origin still lists and resets the store', async () => {
    await plantSecret();
    const page = await patientPage(browser);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${mock.url}/__mock/`);
    await page.locator('[data-collection="/plants"] tbody tr', { hasText: 'Secret' }).waitFor({ timeout: PATIENT_MS });
    await page.click('#reset');
    await page.locator('[data-collection="/plants"] .empty').waitFor({ state: 'visible', timeout: PATIENT_MS });
    await page.close();
    expect(await mock.store.count('/plants')).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
