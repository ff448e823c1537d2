/**
 * What the inspector and the docs page read of the loaded spec, over HTTP: `GET /__mock/spec`
 * (title, collections, every operation's "Try it" form, an ETag the page polls for `--watch`
 * reloads) and `/__mock/docs` (Swagger UI from the mock itself, the document with the mock as its
 * only server, behind the admin token like the rest of the data).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SpecView } from '../admin/spec-view.js';
import { createMockServer } from '../server.js';
import { useMock } from './mock-under-test.js';

const BOOKINGS = fileURLToPath(new URL('../../fixtures/specs/bookings/openapi.yaml', import.meta.url));
const ADMIN_TOKEN = 'sesame';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function specOf(url: string, headers: Record<string, string> = {}): Promise<{ status: number; etag: string | null; view: SpecView }> {
  const response = await fetch(`${url}/__mock/spec`, { headers });
  return { status: response.status, etag: response.headers.get('etag'), view: (await response.json()) as SpecView };
}

describe('/__mock/spec on a spec with three collections, one nested', () => {
  const mock = useMock({ spec: BOOKINGS, adminToken: ADMIN_TOKEN });

  it('names the spec and each collection with the operations that serve it', async () => {
    expect((await fetch(`${mock.current.url}/__mock/spec`)).status).toBe(401);
    const { status, view } = await specOf(mock.current.url, admin);
    expect(status).toBe(200);
    expect(view).toMatchObject({ title: 'Hotel Bookings', version: '2.3.0' });
    expect(view.collections.map((c) => [c.path, c.itemPath, c.identity, c.admin])).toEqual([
      ['/rooms', '/rooms/{roomId}', 'id', '/__mock/rooms'],
      ['/bookings', '/bookings/{bookingId}', 'id', '/__mock/bookings'],
      ['/bookings/{bookingId}/payments', undefined, 'id', '/__mock/bookings/{bookingId}/payments'],
    ]);
    expect(view.collections[2]).toMatchObject({ parent: '/bookings', parentParameter: 'bookingId', noun: 'payment' });
    expect(view.collections[1]?.operations.sort()).toEqual(['cancelBooking', 'createBooking', 'getBooking', 'listBookings', 'updateBooking']);
    expect(view.securitySchemes).toEqual([{ name: 'apiKey', kind: 'api-key', in: 'header', parameter: 'x-api-key' }]);
  });

  it("gives every operation its form: parameters, a body from the spec's example or generated from the schema, Prefer's choices", async () => {
    const { view } = await specOf(mock.current.url, admin);
    const byId = new Map(view.operations.map((o) => [o.operationId, o]));
    expect(view.operations).toHaveLength(11);
    expect(byId.get('createRoom')?.body).toMatchObject({ mediaType: 'application/json', required: true, from: 'example' });
    expect(JSON.parse(byId.get('createRoom')?.body?.example ?? '')).toEqual({ id: 101, name: 'Garden suite', floor: 1, beds: 2 });
    // No example in the spec: one generated from the schema (openapi-backend's generator), with every required property.
    const generated = byId.get('createBooking')?.body;
    expect(generated?.from).toBe('schema');
    expect(Object.keys(JSON.parse(generated?.example ?? '{}'))).toEqual(expect.arrayContaining(['id', 'roomId', 'guest', 'nights']));
    expect(byId.get('listBookings')?.parameters).toEqual([
      { name: 'status', in: 'query', required: false, description: 'Only the bookings in this state.', type: 'string', enum: ['pending', 'confirmed', 'cancelled'], example: 'pending' },
      { name: 'x-request-id', in: 'header', required: false, type: 'string', example: 'trace-1' },
    ]);
    expect(byId.get('getBooking')).toMatchObject({ method: 'GET', path: '/bookings/{bookingId}', role: 'read', collection: '/bookings', security: [['apiKey']] });
    expect(byId.get('getBooking')?.parameters).toEqual([{ name: 'bookingId', in: 'path', required: true, type: 'string' }]);
    expect(byId.get('listBookings')?.examples).toEqual({ 200: ['two'] });
    expect(byId.get('createBooking')?.forceable).toEqual(expect.arrayContaining([201, 400, 500]));
  });

  it('answers 304 to the ETag the page holds, and is not journaled', async () => {
    const first = await specOf(mock.current.url, admin);
    expect(first.etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${mock.current.url}/__mock/spec`, { headers: { ...admin, 'if-none-match': first.etag as string } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const { entries } = await mock.current.journal.entries();
    expect(entries.filter((entry) => entry.path === '/__mock/spec' && entry.status < 400)).toEqual([]);
  });
});

describe('/__mock/spec on a spec whose ids the mock assigns', () => {
  const mock = useMock({ spec: fileURLToPath(new URL('../../fixtures/specs/bookings-3.1/openapi.yaml', import.meta.url)) });

  it('generates bodies without the readOnly properties (the id is the server\u2019s)', async () => {
    const { view } = await specOf(mock.current.url);
    const create = view.operations.find((o) => o.operationId === 'createBooking');
    expect(create?.body?.from).toBe('schema');
    const body = JSON.parse(create?.body?.example ?? '{}') as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['room', 'guest', 'nights']));
    expect(body).not.toHaveProperty('id');
    expect(view.collections.find((c) => c.path === '/bookings/{bookingId}/payments')).toMatchObject({ parent: '/bookings', parentParameter: 'bookingId' });
  });
});

describe('/__mock/spec on request bodies whose schemas refer to themselves', () => {
  const mock = useMock({ spec: fileURLToPath(new URL('../../fixtures/specs/recursive-bodies-3.1/openapi.yaml', import.meta.url)) });

  it('pre-fills a finite body valid by the spec, the recursion cut where the schema allows it', async () => {
    const { view } = await specOf(mock.current.url);
    const body = (operationId: string) => view.operations.find((o) => o.operationId === operationId)?.body;
    expect(body('createCategory')?.from).toBe('schema');
    expect(JSON.parse(body('createCategory')?.example ?? '')).toEqual({ name: expect.any(String), children: [] });
    expect(JSON.parse(body('createNode')?.example ?? '')).toEqual({ label: expect.any(String), children: [], next: null });
    // No finite value exists: the editor starts empty rather than with a body the spec refuses.
    expect(body('createChain')).toMatchObject({ example: '', from: 'none' });
    // What the form starts with is what the mock takes.
    for (const operationId of ['createCategory', 'createNode']) {
      const operation = view.operations.find((o) => o.operationId === operationId);
      const response = await fetch(`${mock.current.url}${operation?.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(operationId)?.example });
      expect(response.status, operationId).toBe(201);
    }
  });
});

describe('/__mock/spec follows --watch', () => {
  it('changes its ETag and content when the spec file changes', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'inspector-spec-')), 'openapi.yaml');
    const original = readFileSync(BOOKINGS, 'utf8');
    writeFileSync(path, original);
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: path, watch: true });
    try {
      const before = await specOf(mock.url);
      expect(before.view.title).toBe('Hotel Bookings');
      writeFileSync(path, original.replace('title: Hotel Bookings', 'title: Hotel Bookings, renamed').replace(/\n {2}\/rooms\/\{roomId\}:[\s\S]*?(?=\n {2}\/bookings:)/, ''));
      let after = before;
      for (let attempt = 0; attempt < 100 && after.etag === before.etag; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await specOf(mock.url);
      }
      expect(after.etag).not.toBe(before.etag);
      expect(after.view.title).toBe('Hotel Bookings, renamed');
      expect(after.view.operations.map((o) => o.operationId)).not.toContain('getRoom');
    } finally {
      await mock.close();
    }
  });
});

describe('/__mock/docs over HTTP', () => {
  const mock = useMock({ spec: BOOKINGS, adminToken: ADMIN_TOKEN });

  it.each([
    ['/__mock/docs', 'text/html'],
    ['/__mock/docs/docs.js', 'text/javascript'],
    ['/__mock/docs/docs.css', 'text/css'],
    ['/__mock/docs/swagger-ui-bundle.js', 'text/javascript'],
    ['/__mock/docs/swagger-ui.css', 'text/css'],
  ])('serves %s (%s) from the mock itself, without the token, under the strict CSP', async (path, type) => {
    const response = await fetch(mock.current.url + path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:");
  });

  it('references nothing outside the mock: the page works offline', async () => {
    const html = await (await fetch(`${mock.current.url}/__mock/docs`)).text();
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(references.every((reference) => reference?.startsWith('/__mock/') || reference?.startsWith('data:'))).toBe(true);
  });

  it('serves the document behind the admin token, with the mock as its only server', async () => {
    expect((await fetch(`${mock.current.url}/__mock/docs/openapi.json`)).status).toBe(401);
    const response = await fetch(`${mock.current.url}/__mock/docs/openapi.json`, { headers: admin });
    expect(response.status).toBe(200);
    const document = (await response.json()) as { servers: unknown; info: { title: string }; paths: Record<string, unknown> };
    expect(document.servers).toEqual([{ url: '/', description: 'this mock' }]);
    expect(document.info.title).toBe('Hotel Bookings');
    expect(Object.keys(document.paths)).toEqual(['/rooms', '/rooms/{roomId}', '/bookings', '/bookings/{bookingId}', '/bookings/{bookingId}/payments']);
  });

  it('lists and seeds a nested collection per parent record', async () => {
    const payments = (booking: string) => `${mock.current.url}/__mock/bookings/${encodeURIComponent(booking)}/payments`;
    const bookings = await fetch(`${mock.current.url}/__mock/bookings`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify(['b 1', 'b-2'].map((id) => ({ id, roomId: 1, guest: 'Ada', nights: 2 }))),
    });
    expect(bookings.status).toBe(200);
    const seeded = await fetch(payments('b 1'), { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: '[{"id":9007199254740993,"amount":5,"currency":"EUR"}]' });
    expect(seeded.status).toBe(200);
    expect(await (await fetch(payments('b 1'), { headers: admin })).text()).toBe('[{"id":9007199254740993,"amount":5,"currency":"EUR"}]');
    expect(await (await fetch(payments('b-2'), { headers: admin })).text()).toBe('[]');
    expect((await fetch(payments('b 1'))).status).toBe(401);
  });

  it('refuses the document to a page of another origin', async () => {
    const response = await fetch(`${mock.current.url}/__mock/docs/openapi.json`, { headers: { ...admin, origin: 'http://evil.test' } });
    expect(response.status).toBe(403);
  });
});

describe('/__mock/spec on a document whose refs point into paths (as a bundled multi-file spec has them)', () => {
  // `~1` and percent-escapes in a ref: openapi-backend's quick dereferencer read `#/paths/~1auth/…` as the
  // keys `~1auth`, threw on the dead end, and the whole view answered 500 (Pi-hole's document, 477 such refs).
  const SPEC = {
    openapi: '3.0.3',
    info: { title: 'Escaped refs', version: '1' },
    paths: {
      '/a/{id}': {
        get: {
          operationId: 'getA',
          parameters: [{ name: 'id', in: 'path', required: true, description: 'The id of an a.', schema: { type: 'string' } }],
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } } },
        },
      },
      '/b/{id}': {
        get: {
          operationId: 'getB',
          description: 'Reads a b.',
          parameters: [{ $ref: '#/paths/~1a~1%7Bid%7D/get/parameters/0' }],
          responses: { 200: { $ref: '#/paths/~1a~1{id}/get/responses/200' } },
        },
      },
    },
  };

  it('answers the view, with what the escaped refs name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'escaped-refs-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(SPEC));
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: join(dir, 'openapi.json') });
    try {
      const { status, view } = await specOf(mock.url);
      expect(status).toBe(200);
      const b = view.operations.find((o) => o.operationId === 'getB');
      expect(b).toMatchObject({ description: 'Reads a b.', parameters: [{ name: 'id', in: 'path', description: 'The id of an a.' }] });
    } finally {
      await mock.close();
    }
  });

  it('answers it on Pi-hole, bundled from its files', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: fileURLToPath(new URL('../../fixtures/real-world/pihole/main.yaml', import.meta.url)) });
    try {
      const { status, view } = await specOf(mock.url);
      expect(status).toBe(200);
      expect(view.operations).toHaveLength(85);
      expect(view.operations.find((o) => o.path === '/auth' && o.method === 'GET')?.summary).toBe('Check if authentication is required');
    } finally {
      await mock.close();
    }
  });
});
