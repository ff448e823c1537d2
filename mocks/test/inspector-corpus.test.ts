/**
 * The inspector on two specs of the test corpus (fixtures/specs/), in Chromium: bookings-3.1
 * (ids the mock assigns, a wrapped and paged list with a filter, payments nested under bookings, a
 * problem+json error shape, a bearer scheme) and users-forms-3.1 (two collections, one identified
 * by `username`). Every kind of operation is tried from the page and the tables follow.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { artifactPath, chromiumMissing, chromiumOfFile, patientPage } from './chromium.js';

const spec = (name: string): string => fileURLToPath(new URL(`../../fixtures/specs/${name}/openapi.yaml`, import.meta.url));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The page's helpers for one mock. */
function inspectorOf(page: Page) {
  const collection = (path: string) => page.locator(`[data-collection="${path}"]`).first();
  return {
    collection,
    rows: (path: string) => collection(path).locator(':scope > .scroll tbody tr'),
    choose: async (operationId: string): Promise<void> => {
      await page.selectOption('#try-operation', operationId);
      await page.locator('#try-send', { hasText: /^Send / }).waitFor();
    },
    send: async (status: string): Promise<void> => {
      await page.click('#try-send');
      await page.locator('#try-status', { hasText: new RegExp(`^${status}`) }).waitFor();
    },
  };
}

/** One Chromium for the file (launched by the first describe that runs). */
const browserOfFile = chromiumOfFile();

describe.skipIf(chromiumMissing)('the inspector on the corpus specs (Chromium)', () => {
  let browser: Browser;
  /** One page for every test: each opens its own mock, on its own origin, so each starts a new document with nothing of the last. */
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    browser = await browserOfFile();
    page = await patientPage(browser, { viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('dialog', (dialog) => {
      errors.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
  });

  afterAll(async () => {
    await page?.close();
    expect(errors).toEqual([]);
  });

  const open = async (mock: MockServer): Promise<Page> => {
    await page.goto(`${mock.url}/__mock/`);
    await page.locator('#connection[data-state="live"]').waitFor();
    return page;
  };

  it('bookings-3.1: creates, reads, lists with a filter, pays (nested), updates and deletes from the page', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: spec('bookings-3.1') });
    const page = await open(mock);
    const { collection, rows, choose, send } = inspectorOf(page);
    try {
      expect(await page.textContent('#api-title')).toBe('Room Bookings');
      await collection('/bookings').locator('.nested [data-collection="/bookings/{bookingId}/payments"]').waitFor();

      // Create: the id is the server's.
      await choose('createBooking');
      expect(await page.inputValue('#try-credentials input[data-scheme="bearer"]')).toBe('dev-token');
      await page.fill('#try-body-text', '{"room":"101","guest":"Ada","nights":2}');
      await send('201');
      const id = JSON.parse((await page.textContent('#try-body [data-pointer="/id"] .s')) as string) as string;
      expect(id).toMatch(UUID);
      await rows('/bookings').filter({ hasText: 'Ada' }).waitFor();
      expect(await rows('/bookings').first().locator('td').first().textContent()).toBe(id);

      // Read by id, filled from the table.
      await choose('getBooking');
      expect(await page.inputValue('#try-params [data-name="bookingId"]')).toBe(id);
      await send('200');
      expect(await page.textContent('#try-body [data-pointer="/guest"] code')).toBe('  "guest": "Ada",');

      // List with a filter: the mock applies it.
      await choose('listBookings');
      await page.fill('#try-params [data-name="room"]', '101');
      await send('200');
      expect(await page.textContent('#try-line')).toMatch(/^GET \/bookings\?(.*&)?room=101/);
      expect(await page.textContent('#try-body [data-pointer="/data/0/guest"] code')).toBe('      "guest": "Ada",');
      await page.fill('#try-params [data-name="room"]', '999');
      await send('200');
      expect(await page.textContent('#try-body [data-pointer="/data"] code')).toBe('  "data": [],');

      // A nested create, under the booking picked in the table.
      await choose('payBooking');
      expect(await page.inputValue('#try-params [data-name="bookingId"]')).toBe(id);
      await page.fill('#try-body-text', '{"amount":240,"card":"4242424242424242"}');
      await send('201');
      await collection('/bookings/{bookingId}/payments').locator('tbody tr').filter({ hasText: '240' }).waitFor();

      // A refusal, in the spec's problem+json shape, on its field.
      await choose('createBooking');
      await page.fill('#try-body-text', '{"room":"101","guest":"Bo","nights":50}');
      await send('400');
      expect(await page.locator('#try-headers tr', { hasText: 'content-type' }).locator('td').textContent()).toContain('application/problem+json');
      await page.locator('#try-sent [data-pointer="/nights"] .problem').waitFor();
      expect(await page.textContent('#try-sent [data-pointer="/nights"] .problem')).toBe('nights must be <= 30');

      // Update, then delete.
      await choose('updateBooking');
      expect(await page.inputValue('#try-params [data-name="bookingId"]')).toBe(id);
      await page.fill('#try-body-text', '{"nights":3}');
      await send('200');
      await rows('/bookings').filter({ hasText: 'Ada' }).locator('td', { hasText: /^3$/ }).waitFor();
      await page.screenshot({ path: artifactPath('inspector-bookings-3.1.png'), fullPage: true });
      await choose('cancelBooking');
      await send('204');
      await collection('/bookings').locator(':scope > .scroll .empty').waitFor({ state: 'visible' });
    } finally {
      await mock.close();
    }
  });

  it('users-forms-3.1: two collections, one identified by username, created from the page', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: spec('users-forms-3.1') });
    const page = await open(mock);
    const { collection, rows, choose, send } = inspectorOf(page);
    try {
      expect(await page.textContent('#api-title')).toBe('Club Registry');
      expect(await page.locator('#collections > [data-collection]').evaluateAll((panels) => panels.map((panel) => panel.getAttribute('data-collection')))).toEqual(['/user', '/pet']);
      await choose('createUser');
      await page.fill('#try-body-text', '{"username":"ada","email":"ada@example.com","password":"secret"}');
      await send('200');
      await rows('/user').filter({ hasText: 'ada@example.com' }).waitFor();
      expect(await collection('/user').locator('thead th').first().textContent()).toBe('username');
      expect(await rows('/user').first().locator('td').first().textContent()).toBe('ada');
      await choose('getUserByName');
      expect(await page.inputValue('#try-params [data-name="username"]')).toBe('ada');
      await send('200');
      expect(await page.textContent('#try-body [data-pointer="/email"] code')).toContain('ada@example.com');
    } finally {
      await mock.close();
    }
  });

  it("singleton documents: each as stored, or not written, a record's under the record picked in its table", async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: documentsSpec() });
    const page = await open(mock);
    const { choose, send } = inspectorOf(page);
    const settings = page.locator('[data-document="/settings"]');
    const profile = page.locator('[data-collection="/users"] .nested [data-document="/users/{id}/profile"]');
    const api = (method: string, path: string, body: string) =>
      fetch(mock.url + path, { method, headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body }).then((response) => response.status);
    try {
      await settings.locator('.empty', { hasText: 'Not written \u2014 the API answers the spec\u2019s example.' }).waitFor();
      expect(await api('PUT', '/settings', '{"volume":9007199254740993}')).toBe(204);
      await settings.locator('[data-pointer="/volume"] code', { hasText: '9007199254740993' }).waitFor();
      expect(await settings.locator('.empty').isHidden()).toBe(true);

      await profile.locator('.empty', { hasText: 'No user to choose yet.' }).waitFor();
      expect(await api('POST', '/users', '{"id":1,"name":"Ada"}')).toBe(201);
      expect(await api('POST', '/users', '{"id":2,"name":"Bob"}')).toBe(201);
      expect(await api('PUT', '/users/1/profile', '{"bio":"Analyst"}')).toBe(200);
      await profile.locator('[data-pointer="/bio"] code', { hasText: 'Analyst' }).waitFor();
      await profile.locator('select.parent-key').selectOption('2');
      await profile.locator('.empty', { hasText: 'Not written' }).waitFor();

      // Written from "Try it", the user's id filled from the record picked.
      await choose('putProfile');
      expect(await page.inputValue('#try-params [data-name="id"]')).toBe('2');
      await page.fill('#try-body-text', '{"bio":"Builder"}');
      await send('200');
      await profile.locator('[data-pointer="/bio"] code', { hasText: 'Builder' }).waitFor();
    } finally {
      await mock.close();
    }
  });
});

/** A spec with a user's profile (under a record) and top-level settings, written to a temporary file. */
function documentsSpec(): string {
  const json = (schema: unknown, example?: unknown) => ({ content: { 'application/json': example === undefined ? { schema } : { schema, example } } });
  const user = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
  const profile = { type: 'object', required: ['bio'], properties: { bio: { type: 'string' } } };
  const settings = { type: 'object', properties: { volume: { type: 'integer', format: 'int64' } } };
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
  const file = join(mkdtempSync(join(tmpdir(), 'inspector-documents-')), 'openapi.json');
  writeFileSync(
    file,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Profiles', version: '1' },
      paths: {
        '/users': {
          get: { operationId: 'listUsers', responses: { '200': { description: 'ok', ...json({ type: 'array', items: user }) } } },
          post: { operationId: 'createUser', requestBody: { required: true, ...json(user) }, responses: { '201': { description: 'ok', ...json(user) } } },
        },
        '/users/{id}': { parameters: [id], get: { operationId: 'getUser', responses: { '200': { description: 'ok', ...json(user) } } } },
        '/users/{id}/profile': {
          parameters: [id],
          get: { operationId: 'getProfile', responses: { '200': { description: 'ok', ...json(profile, { bio: 'from the spec' }) } } },
          put: { operationId: 'putProfile', requestBody: { required: true, ...json(profile) }, responses: { '200': { description: 'ok', ...json(profile) } } },
        },
        '/settings': {
          get: { operationId: 'getSettings', responses: { '200': { description: 'ok', ...json(settings, { volume: 3 }) } } },
          put: { operationId: 'putSettings', requestBody: { required: true, ...json(settings) }, responses: { '204': { description: 'saved' } } },
        },
      },
    }),
  );
  return file;
}
