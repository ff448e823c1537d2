/**
 * The inspector and the API docs page on a spec that is not the Plant Store, in Chromium: the
 * bookings spec (fixtures/specs/bookings: rooms, bookings, payments nested under bookings, an API
 * key in a header, an error shape of its own). Each collection is shown and follows creates made
 * through the API; every kind of operation is tried from the page; a refusal lands on its field;
 * a `--watch` reload shows without a page reload; /__mock/docs loads from the mock alone and its
 * "Try it out" reaches the mock; a spec full of markup stays text.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { artifactPath, chromiumMissing, chromiumOfFile, closeContexts, patientPage } from './chromium.js';

const BOOKINGS = fileURLToPath(new URL('../../fixtures/specs/bookings/openapi.yaml', import.meta.url));
const KEY = { 'x-api-key': 'k', 'content-type': 'application/json' };

/**
 * Watches a page for what a hostile text could make it do: dialogs, script errors, requests
 * leaving the mock. A request the page's CSP refused never left the browser (Chromium still
 * reports it, failed with net::ERR_BLOCKED_BY_CSP): it is counted apart.
 */
function watchPage(page: Page, origin: string): { dialogs: string[]; errors: string[]; outside: string[]; blocked: string[] } {
  const seen = { dialogs: [] as string[], errors: [] as string[], outside: [] as string[], blocked: [] as string[] };
  const leaves = (url: string): boolean => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:');
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => seen.errors.push(error.message));
  page.on('requestfinished', (request) => {
    if (leaves(request.url())) seen.outside.push(request.url());
  });
  page.on('requestfailed', (request) => {
    if (!leaves(request.url())) return;
    if (/^(csp|net::ERR_BLOCKED_BY_CSP)$/.test(request.failure()?.errorText ?? '')) seen.blocked.push(request.url());
    else seen.outside.push(`${request.url()} (${request.failure()?.errorText})`);
  });
  return seen;
}

/** One Chromium for the file's describes (launched by the first that runs). */
const browserOfFile = chromiumOfFile();

describe.skipIf(chromiumMissing)('the inspector on a spec with three collections (Chromium)', () => {
  let mock: MockServer;
  let browser: Browser;
  let page: Page;
  let specFile: string;
  let seen: ReturnType<typeof watchPage>;

  beforeAll(async () => {
    specFile = join(mkdtempSync(join(tmpdir(), 'inspector-bookings-')), 'openapi.yaml');
    copyFileSync(BOOKINGS, specFile);
    [mock, browser] = await Promise.all([createMockServer({ port: 0, logLevel: 'silent', spec: specFile, watch: true }), browserOfFile()]);
    page = await patientPage(browser, { viewport: { width: 1280, height: 900 } });
    seen = watchPage(page, mock.url);
  });

  afterAll(async () => {
    await closeContexts(browser);
    await mock?.close();
  });

  const collection = (path: string) => page.locator(`[data-collection="${path}"]`).first();
  const rows = (path: string) => collection(path).locator(':scope > .scroll tbody tr');
  const choose = async (operationId: string): Promise<void> => {
    await page.selectOption('#try-operation', operationId);
    await page.locator('#try-send', { hasText: /^Send / }).waitFor();
  };
  /** The id of the room "Try it" created (fresh each send), read back by the tests after it. */
  let roomId = '';
  const send = async (status: string): Promise<void> => {
    await page.click('#try-send');
    await page.locator('#try-status', { hasText: new RegExp(`^${status}`) }).waitFor();
  };

  it("shows the spec's title and one table per collection, the nested one under its parent", async () => {
    await page.goto(`${mock.url}/__mock/`);
    await page.locator('#connection[data-state="live"]').waitFor();
    expect(await page.textContent('#api-title')).toBe('Hotel Bookings');
    expect(await page.textContent('#api-version')).toBe('2.3.0');
    await collection('/rooms').waitFor();
    expect(await page.locator('#collections > [data-collection]').evaluateAll((panels) => panels.map((panel) => panel.getAttribute('data-collection')))).toEqual(['/rooms', '/bookings']);
    expect(await collection('/bookings').locator('.nested > [data-collection]').getAttribute('data-collection')).toBe('/bookings/{bookingId}/payments');
    expect(await collection('/rooms').locator('.empty').textContent()).toContain('No room yet');
  });

  it('follows creates made through the API without a reload, values exact', async () => {
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));
    expect((await fetch(`${mock.url}/rooms`, { method: 'POST', headers: KEY, body: '{"id":9223372036854775807,"name":"Attic","floor":4}' })).status).toBe(201);
    expect((await fetch(`${mock.url}/bookings`, { method: 'POST', headers: KEY, body: '{"id":"b-1","roomId":9223372036854775807,"guest":"Ada","nights":2}' })).status).toBe(201);
    await rows('/rooms').filter({ hasText: 'Attic' }).waitFor();
    expect(await rows('/rooms').first().locator('td').allTextContents()).toEqual(['9223372036854775807', 'Attic', '4']);
    expect(await collection('/rooms').locator('thead th').allTextContents()).toEqual(['id', 'name', 'floor']);
    await rows('/bookings').filter({ hasText: 'Ada' }).waitFor();
    expect(await rows('/bookings').first().locator('td').allTextContents()).toEqual(['b-1', '9223372036854775807', 'Ada', '2']);
    // The nested collection lists the payments of the booking picked among those shown.
    const payments = collection('/bookings/{bookingId}/payments');
    await payments.locator('select.parent-key option', { hasText: 'b-1' }).waitFor({ state: 'attached' });
    const paid = await fetch(`${mock.url}/bookings/b-1/payments`, { method: 'POST', headers: KEY, body: '{"id":9007199254740993,"amount":240,"currency":"EUR"}' });
    expect(paid.status).toBe(201);
    await payments.locator('tbody tr').filter({ hasText: '9007199254740993' }).waitFor();
    expect(await payments.locator('tbody tr td').allTextContents()).toEqual(['9007199254740993', '240', 'EUR']);
    expect(await page.evaluate(() => (window as unknown as { marker: string }).marker)).toBe('same document');
  });

  it('creates from "Try it": the body pre-filled from the example, the API key remembered for its scheme', async () => {
    await choose('createRoom');
    expect(JSON.parse(await page.inputValue('#try-body-text'))).toEqual({ id: 101, name: 'Garden suite', floor: 1, beds: 2 });
    expect(await page.textContent('#try-body-media')).toContain('the spec’s example');
    await page.fill('#try-credentials input[data-scheme="apiKey"]', 'front-key');
    await send('201');
    expect(await page.textContent('#try-line')).toBe('POST /rooms');
    expect(await page.textContent('#try-body [data-pointer="/name"] code')).toBe('  "name": "Garden suite",');
    // "Try it" makes a create's identity fresh on each send (a second send is no 409), so the room's id is the answer's.
    roomId = /"id": (\d+)/.exec((await page.textContent('#try-body [data-pointer="/id"] code')) ?? '')?.[1] ?? '';
    expect(roomId).toMatch(/^\d+$/);
    expect(await page.locator('#try-headers tr', { hasText: 'content-type' }).locator('td').textContent()).toContain('application/json');
    await rows('/rooms').filter({ hasText: 'Garden suite' }).waitFor();
    expect(await page.evaluate(() => [sessionStorage.getItem('plant-store-mock.credential.apiKey'), localStorage.length])).toEqual(['front-key', 0]);
    // The body generated from the schema when the spec gives no example.
    await choose('createBooking');
    expect(Object.keys(JSON.parse(await page.inputValue('#try-body-text')))).toEqual(expect.arrayContaining(['id', 'roomId', 'guest', 'nights']));
    expect(await page.inputValue('#try-credentials input[data-scheme="apiKey"]')).toBe('front-key');
  });

  it('reads one by id, the id filled from the table', async () => {
    await choose('getRoom');
    expect(await page.inputValue('#try-params [data-name="roomId"]')).toBe(roomId);
    await page.fill('#try-params [data-name="roomId"]', '9223372036854775807');
    await send('200');
    expect(await page.textContent('#try-line')).toBe('GET /rooms/9223372036854775807');
    expect(await page.textContent('#try-body [data-pointer="/id"] code')).toBe('  "id": 9223372036854775807,');
  });

  it('lists with a filter and a header parameter', async () => {
    await choose('listBookings');
    await page.selectOption('#try-params [data-name="status"]', 'confirmed');
    expect(await page.inputValue('#try-params [data-name="x-request-id"]')).toBe('trace-1');
    await send('200');
    expect(await page.textContent('#try-line')).toBe('GET /bookings?status=confirmed');
    const [entry] = (await (await fetch(`${mock.url}/__mock/requests?limit=1&path=/bookings`)).json()).entries as { query: string; seq: number }[];
    expect(entry?.query).toBe('status=confirmed');
    const whole = (await (await fetch(`${mock.url}/__mock/requests/${entry?.seq}`)).json()) as { request: { headers: [string, string][] } };
    expect(whole.request.headers).toEqual(expect.arrayContaining([['x-request-id', 'trace-1']]));
    // The mock applies the filter: b-1 has no status yet.
    expect(await page.textContent('#try-body [data-pointer=""] code')).toBe('[]');
  });

  it('updates and deletes, the tables following', async () => {
    await choose('updateBooking');
    expect(await page.inputValue('#try-params [data-name="bookingId"]')).toBe('b-1');
    expect(JSON.parse(await page.inputValue('#try-body-text'))).toEqual({ status: 'confirmed' });
    await send('200');
    expect(await page.textContent('#try-body [data-pointer="/status"] code')).toBe('  "status": "confirmed"');
    await rows('/bookings').filter({ hasText: 'confirmed' }).waitFor();
    await choose('listBookings');
    await page.selectOption('#try-params [data-name="status"]', 'confirmed');
    await send('200');
    expect(await page.textContent('#try-body [data-pointer="/0/id"] code')).toBe('    "id": "b-1",');
    await choose('deleteRoom');
    await page.fill('#try-params [data-name="roomId"]', roomId);
    await send('204');
    expect(await page.isVisible('#try-note')).toBe(true);
    await page.waitForFunction(() => !document.querySelector('[data-collection="/rooms"]')?.textContent?.includes('Garden suite'));
    expect(await rows('/rooms').count()).toBe(1);
  });

  it('shows a refusal on its fields: the body\u2019s in the body as sent, a parameter\u2019s under its input', async () => {
    await choose('createBooking');
    await page.fill('#try-body-text', '{"id":"b-9","roomId":101,"guest":"","nights":50}');
    await send('400');
    await page.locator('#try-sent [data-pointer="/guest"] .problem').waitFor();
    expect(await page.textContent('#try-sent [data-pointer="/guest"] .problem')).toBe('guest must have at least 1 character');
    expect(await page.textContent('#try-sent [data-pointer="/nights"] .problem')).toBe('nights must be <= 30');
    await choose('listRooms');
    await page.fill('#try-params [data-name="floor"]', 'top');
    await send('400');
    await page.locator('#try-params [data-parameter="query:floor"] .problem').waitFor();
    expect(await page.textContent('#try-params [data-parameter="query:floor"] .problem')).toBe('query parameter floor must be an integer, got the string "top"');
    // The visible part: the collections beside "Try it" with the refusal under its field (README shows a copy).
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: artifactPath('inspector-bookings.png') });
  });

  it("sends Prefer's code, and never leaves the mock's API, whatever a path parameter says", async () => {
    await choose('getBooking');
    await page.fill('#try-params [data-name="bookingId"]', 'b-1');
    await page.selectOption('#try-code', '404');
    await send('404');
    await page.selectOption('#try-code', '');
    const before = (await (await fetch(`${mock.url}/__mock/requests?limit=1`)).json()).last as number;
    // Encoded as one segment: `/bookings/..%2F__mock%2Frequests` is no admin route, it stays in the API.
    await page.fill('#try-params [data-name="bookingId"]', '../__mock/requests');
    await send('404');
    expect(await page.textContent('#try-line')).toBe('GET /bookings/..%2F__mock%2Frequests');
    // A bare `..` or `.` would resolve to another path: the page does not send it.
    for (const dots of ['..', '.']) {
      await page.fill('#try-params [data-name="bookingId"]', dots);
      await page.click('#try-send');
      await page.locator('#try-status', { hasText: 'not sent' }).waitFor();
      expect(await page.textContent('#try-body')).toContain('it is not sent');
      await page.fill('#try-params [data-name="bookingId"]', 'b-1');
      await send('200');
    }
    const after = (await (await fetch(`${mock.url}/__mock/requests?after=${before}`)).json()).entries as { path: string }[];
    expect(after.map((entry) => entry.path)).toEqual(['/bookings/b-1', '/bookings/b-1', '/bookings/..%2F__mock%2Frequests']); // newest first
  });

  it('shows a --watch reload without a page reload', async () => {
    const text = readFileSync(specFile, 'utf8');
    writeFileSync(specFile, text.replace('title: Hotel Bookings', 'title: Hotel Bookings (edited)').replace('summary: Book a room', 'summary: Reserve a room'));
    await page.locator('#api-title', { hasText: 'Hotel Bookings (edited)' }).waitFor();
    await page.locator('#reloaded', { hasText: 'The spec was reloaded' }).waitFor();
    expect(await page.locator('#try-operation option[value="createBooking"]').textContent()).toBe('POST /bookings — Reserve a room');
    expect(await page.evaluate(() => (window as unknown as { marker: string }).marker)).toBe('same document');
    // The store was kept: the tables still list what was created.
    await rows('/bookings').filter({ hasText: 'Ada' }).waitFor();
    expect(seen).toEqual({ dialogs: [], errors: [], outside: [], blocked: [] });
  });

  it('serves interactive docs at /__mock/docs from the mock alone, their "Try it out" reaching the mock with the remembered key', async () => {
    const docs = await patientPage(browser, { viewport: { width: 1280, height: 900 } });
    const docsSeen = watchPage(docs, mock.url);
    const violations: string[] = [];
    docs.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    try {
      // The same tab's sessionStorage: the inspector's remembered API key.
      await docs.goto(`${mock.url}/__mock/`);
      await docs.evaluate(() => sessionStorage.setItem('plant-store-mock.credential.apiKey', 'docs-key'));
      await docs.goto(`${mock.url}/__mock/docs`);
      await docs.locator('body[data-ready="true"]').waitFor();
      expect(await docs.locator('.info .title').textContent()).toContain('Hotel Bookings (edited)');
      await docs.locator('.opblock-summary', { hasText: 'List the rooms' }).click();
      const before = (await (await fetch(`${mock.url}/__mock/requests?limit=1`)).json()).last as number;
      await docs.getByRole('button', { name: 'Execute' }).first().click();
      await docs.locator('.live-responses-table .response-col_status', { hasText: '200' }).waitFor();
      const entries = (await (await fetch(`${mock.url}/__mock/requests?after=${before}`)).json()).entries as { method: string; path: string; status: number }[];
      expect(entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['GET /rooms 200']);
      await docs.screenshot({ path: artifactPath('docs.png') });
      expect(docsSeen).toEqual({ dialogs: [], errors: [], outside: [], blocked: [] });
      // Swagger UI runs under the strict policy as it is: nothing of it was blocked.
      expect(violations).toEqual([]);
    } finally {
      await docs.close();
    }
  });
});

describe.skipIf(chromiumMissing)('/__mock/docs behind an admin token (Chromium)', () => {
  let mock: MockServer;
  let browser: Browser;

  beforeAll(async () => {
    [mock, browser] = await Promise.all([createMockServer({ port: 0, logLevel: 'silent', spec: BOOKINGS, adminToken: 'sesame' }), browserOfFile()]);
  });

  afterAll(async () => {
    await closeContexts(browser);
    await mock?.close();
  });

  it('says the token is needed, then loads with the one the inspector keeps for this tab', async () => {
    const page = await patientPage(browser, { viewport: { width: 1280, height: 900 } });
    const seen = watchPage(page, mock.url);
    try {
      await page.goto(`${mock.url}/__mock/docs`);
      await page.locator('#docs-status[data-state="failed"]', { hasText: 'protected by an admin token' }).waitFor();
      expect(await page.locator('.opblock').count()).toBe(0);
      // The inspector's token form keeps it in sessionStorage; the docs page sends it for the document alone.
      await page.goto(`${mock.url}/__mock/`);
      await page.fill('#admin-token', 'sesame');
      await page.click('#token-form button');
      await page.locator('#connection[data-state="live"]').waitFor();
      await page.goto(`${mock.url}/__mock/docs`);
      await page.locator('body[data-ready="true"]').waitFor();
      await page.locator('.opblock-summary', { hasText: 'List the rooms' }).click();
      const before = (await mock.journal.entries()).entries[0]?.seq ?? 0;
      await page.getByRole('button', { name: 'Execute' }).first().click();
      await page.locator('.live-responses-table .response-col_status', { hasText: '401' }).waitFor();
      // "Try it out" never carries the admin token: the API asked for its own key.
      const entry = (await mock.journal.entries()).entries.find((e) => e.seq > before && e.path === '/rooms');
      expect(entry?.request.headers.some(([name]) => name.toLowerCase() === 'authorization')).toBe(false);
      expect(seen).toEqual({ dialogs: [], errors: [], outside: [], blocked: [] });
    } finally {
      await page.close();
    }
  });
});

/** A spec whose every text is markup or a script: the pages must show it as text and run none of it. */
const HOSTILE = `openapi: 3.1.0
info:
  title: '<img src=x onerror="alert(1)">Evil'
  version: '<script>alert(2)</script>'
  description: |
    <script>alert(3)</script><img src="http://evil.test/pixel.png" onerror="alert(4)">
    ![tracker](http://evil.test/md.png) [click](javascript:alert(5))
paths:
  /things:
    post:
      operationId: createThing
      summary: '<b>bold</b><img src=x onerror=alert(6)>'
      description: '<iframe src="http://evil.test/"></iframe>'
      parameters:
        - name: q
          in: query
          description: '<img src=x onerror=alert(7)>'
          schema: { type: string, example: '"><img src=x onerror=alert(8)>' }
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [id]
              properties:
                id: { type: integer }
                name: { type: string, description: '<img src=x onerror=alert(9)>' }
            example: { id: 1, name: '</textarea><img src=x onerror=alert(10)>' }
      responses:
        '200':
          description: '<img src=x onerror=alert(11)>'
          content:
            application/json:
              schema: { type: object, properties: { id: { type: integer }, name: { type: string } } }
`;

describe.skipIf(chromiumMissing)('a spec full of markup renders inert in the inspector and the docs (Chromium)', () => {
  let mock: MockServer;
  let browser: Browser;

  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'inspector-hostile-')), 'openapi.yaml');
    writeFileSync(file, HOSTILE);
    [mock, browser] = await Promise.all([createMockServer({ port: 0, logLevel: 'silent', spec: file }), browserOfFile()]);
  });

  afterAll(async () => {
    await closeContexts(browser);
    await mock?.close();
  });

  it('the inspector shows the title, summaries, examples and records as text', async () => {
    const page = await patientPage(browser, { viewport: { width: 1280, height: 900 } });
    const seen = watchPage(page, mock.url);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    try {
      await fetch(`${mock.url}/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":1,"name":"<img src=x onerror=alert(12)>"}' });
      await page.goto(`${mock.url}/__mock/`);
      await page.locator('[data-collection="/things"] tbody tr').waitFor();
      expect(await page.textContent('#api-title')).toBe('<img src=x onerror="alert(1)">Evil');
      expect(await page.textContent('#api-version')).toBe('<script>alert(2)</script>');
      expect(await page.locator('#try-operation option').textContent()).toBe('POST /things — <b>bold</b><img src=x onerror=alert(6)>');
      expect(await page.textContent('#try-summary')).toContain('<iframe src="http://evil.test/"></iframe>');
      expect(await page.inputValue('#try-params [data-name="q"]')).toBe('"><img src=x onerror=alert(8)>');
      expect(JSON.parse(await page.inputValue('#try-body-text'))).toEqual({ id: 1, name: '</textarea><img src=x onerror=alert(10)>' });
      expect(await page.locator('[data-collection="/things"] tbody td').allTextContents()).toEqual(['1', '<img src=x onerror=alert(12)>']);
      await page.click('#try-send');
      await page.locator('#try-status').filter({ hasText: /^\d/ }).waitFor();
      expect(await page.locator('img, script:not([src]), iframe, b').count()).toBe(0);
      expect(await page.title()).toBe('<img src=x onerror="alert(1)">Evil · inspector');
      expect(seen).toEqual({ dialogs: [], errors: [], outside: [], blocked: [] });
      // The inspector never puts markup in the page: the policy had nothing to block.
      expect(violations).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('the docs render the Markdown sanitised, and nothing reaches another host', async () => {
    const page = await patientPage(browser, { viewport: { width: 1280, height: 900 } });
    const seen = watchPage(page, mock.url);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    try {
      await page.goto(`${mock.url}/__mock/docs`);
      await page.locator('body[data-ready="true"]').waitFor();
      await page.locator('.opblock-summary').first().click();
      await page.locator('.opblock-body').first().waitFor();
      expect(await page.locator('.info .title').textContent()).toContain('Evil');
      // DOMPurify strips scripts, handlers, frames and javascript: links; images from another host are refused by the CSP.
      expect(await page.locator('script:not([src]), iframe, [onerror], a[href^="javascript:"]').count()).toBe(0);
      // The description's images from another host were refused by the policy before any request left.
      expect(seen).toMatchObject({ dialogs: [], errors: [], outside: [] });
      expect(seen.blocked.every((url) => url.startsWith('http://evil.test/'))).toBe(true);
      // Swagger UI puts the description's markup in the page for a moment while it renders it: the
      // policy is what keeps that inert — every handler and every image load it met was blocked.
      expect(violations.length).toBeGreaterThan(0);
      expect(violations.filter((text) => !text.endsWith('The action has been blocked.'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe.skipIf(chromiumMissing)('"Try it" on request bodies whose schemas refer to themselves (Chromium)', () => {
  let mock: MockServer;
  let browser: Browser;

  beforeAll(async () => {
    const spec = fileURLToPath(new URL('../../fixtures/specs/recursive-bodies-3.1/openapi.yaml', import.meta.url));
    [mock, browser] = await Promise.all([createMockServer({ port: 0, logLevel: 'silent', spec }), browserOfFile()]);
  });

  afterAll(async () => {
    await closeContexts(browser);
    await mock?.close();
  });

  it('starts the form with a finite body generated from the schema, which the mock takes as sent', async () => {
    const page = await patientPage(browser, { viewport: { width: 1280, height: 900 } });
    const seen = watchPage(page, mock.url);
    try {
      await page.goto(`${mock.url}/__mock/`);
      await page.locator('#connection[data-state="live"]').waitFor();
      for (const [operationId, expected] of [
        ['createCategory', { name: expect.any(String), children: [] }],
        ['createNode', { label: expect.any(String), children: [], next: null }],
      ] as const) {
        await page.selectOption('#try-operation', operationId);
        await page.locator('#try-send', { hasText: /^Send POST / }).waitFor();
        expect(await page.textContent('#try-body-media')).toContain('generated from the schema');
        expect(JSON.parse(await page.inputValue('#try-body-text'))).toEqual(expected);
        await page.click('#try-send');
        await page.locator('#try-status', { hasText: /^201/ }).waitFor();
      }
      // No finite value: the editor starts empty.
      await page.selectOption('#try-operation', 'createChain');
      await page.locator('#try-send', { hasText: 'Send POST /chains' }).waitFor();
      expect(await page.inputValue('#try-body-text')).toBe('');
      expect(seen).toEqual({ dialogs: [], errors: [], outside: [], blocked: [] });
    } finally {
      await page.close();
    }
  });
});
