/**
 * Stored records answered as the spec declares (fixtures/specs/real-world-answers/): every answer
 * here is judged by the mock's own self-check (the one judge), and must carry no violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { corpusSpec } from './corpus.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('real-world-answers'), selfCheck: true });
});
afterAll(async () => {
  await mock.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; violations: string | null }> {
  const response = await fetch(mock.url + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), violations: response.headers.get('plant-store-violations') };
}

describe('stored records answered through the response schema', () => {
  it('a document written with a password and without the token its answer requires', async () => {
    const written = await call('PUT', '/user', { user: { username: 'ada', email: 'ada@example.com', password: 'hunter2' } });
    expect(written.violations).toBeNull();
    expect(written.status).toBe(200);
    expect(written.body.user).toMatchObject({ username: 'ada', email: 'ada@example.com' });
    expect(written.body.user).not.toHaveProperty('password');
    expect(typeof written.body.user.token).toBe('string');
    const read = await call('GET', '/user');
    expect(read).toEqual({ status: 200, body: written.body, violations: null });
  });

  it('a value written single and read as an array, server fields filled', async () => {
    const sent = await call('POST', '/emails', { to: 'a@b.example', subject: 'hi' });
    expect(sent.violations).toBeNull();
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ id: 1, to: ['a@b.example'], subject: 'hi' });
    expect(['queued', 'sent']).toContain(sent.body.status);
    const read = await call('GET', `/emails/${sent.body.id}`);
    expect(read.violations).toBeNull();
    expect(read.body).toEqual(sent.body);
  });

  it('a writeOnly property of a response union branch is never answered', async () => {
    const added = await call('POST', '/payment-methods', { type: 'card', number: '4242', cvc: '123' });
    expect(added.violations).toBeNull();
    expect(added.body).toEqual({ id: 1, type: 'card', number: '4242' });
    const read = await call('GET', '/payment-methods/1');
    expect(read).toEqual({ status: 200, body: { id: 1, type: 'card', number: '4242' }, violations: null });
  });

  it('a list whose items schema comes from a later allOf part keeps the records', async () => {
    await call('POST', '/bookings', { guest: 'Ada' });
    await call('POST', '/bookings', { guest: 'Grace' });
    const listed = await call('GET', '/bookings');
    expect(listed.violations).toBeNull();
    expect(listed.body.data).toEqual([
      { id: 1, guest: 'Ada' },
      { id: 2, guest: 'Grace' },
    ]);
  });
});

describe('a POST whose success answers text/plain', () => {
  it('is no create: answered from the spec in its own type, nothing stored', async () => {
    const plain = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('real-world-answers', 'plain-answers.yaml'), selfCheck: true });
    try {
      for (const accept of ['*/*', 'text/plain']) {
        const response = await fetch(`${plain.url}/renders`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ template: 'Hello, {name}' }) });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await response.text()).toBe('Hello, Ada');
        expect(response.headers.get('plant-store-violations')).toBeNull();
      }
      // Nothing stored: no collection /renders at all.
      expect((await fetch(`${plain.url}/__mock/renders`)).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('server fields and updates judged by their own schema', () => {
  let orders: MockServer;
  beforeAll(async () => {
    orders = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('real-world-answers', 'server-fields.yaml'), selfCheck: true });
  });
  afterAll(async () => {
    await orders.close();
  });
  const at = async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const response = await fetch(orders.url + path, { method, headers: body === undefined ? {} : { 'content-type': type }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text), violations: response.headers.get('plant-store-violations') };
  };

  it('required answer properties no client sends are made once at create and stored: every read and list answers the same', async () => {
    const before = Date.now();
    const first = await at('POST', '/orders', { item: 'tea' });
    const second = await at('POST', '/orders', { item: 'cake' });
    for (const created of [first, second]) {
      expect(created.violations).toBeNull();
      expect(created.status).toBe(201);
    }
    // Made per record from the schema: a fresh UUID, the create's time, the default.
    expect(first.body.token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(second.body.token).not.toBe(first.body.token);
    expect(Date.parse(first.body.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(first.body.status).toBe('new');
    expect(first.body.reference).toMatch(/^R-[0-9]{6}$/);
    // The example is a string the integer schema refuses: passed over for a value the schema takes.
    expect(Number.isInteger(first.body.created)).toBe(true);
    // Read twice, and listed: the same values, stored with the record.
    for (let round = 0; round < 2; round++) expect(await at('GET', `/orders/${first.body.id}`)).toEqual({ status: 200, body: first.body, violations: null });
    expect((await at('GET', '/orders')).body).toEqual([first.body, second.body]);
    expect((await at('GET', '/__mock/orders')).body).toEqual([first.body, second.body]);
  });

  it('a PATCH its own schema allows is accepted though the create schema would refuse it; the server fields stay', async () => {
    const created = await at('POST', '/orders', { item: 'jam', tls: 'none' });
    const patched = await at('PATCH', `/orders/${created.body.id}`, { tls: 'tls13', note: 'fragile' }, 'application/merge-patch+json');
    expect(patched).toEqual({ status: 200, body: { ...created.body, tls: 'tls13', note: 'fragile' }, violations: null });
    expect(await at('GET', `/orders/${created.body.id}`)).toEqual(patched);
  });
});

describe('a list wrapper built from every allOf part', () => {
  it('answers every record of the page through the items part, and page links at the mock itself', async () => {
    const lists = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('real-world-answers', 'list-wrapper.yaml'), selfCheck: true });
    try {
      const get = async (path: string) => {
        const response = await fetch(lists.url + path);
        return { status: response.status, body: JSON.parse(await response.text()), violations: response.headers.get('plant-store-violations') };
      };
      for (const guest of ['Ada', 'Grace', 'Edsger']) await fetch(`${lists.url}/bookings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ guest }) });
      const first = await get('/bookings?limit=2');
      expect(first.violations).toBeNull();
      expect(first.body.data).toEqual([
        { id: 1, guest: 'Ada' },
        { id: 2, guest: 'Grace' },
      ]);
      expect(first.body.links.self).toBe(`${lists.url}/bookings?limit=2`);
      expect(first.body.links.previous).toBeNull();
      expect(first.body.links.next).toMatch(new RegExp(`^${lists.url}/bookings\\?limit=2&cursor=`));
      // The next link is the mock's own URL for the same list's next page.
      const next = await get(first.body.links.next.slice(lists.url.length));
      expect(next.violations).toBeNull();
      expect(next.body.data).toEqual([{ id: 3, guest: 'Edsger' }]);
      expect(next.body.links.next).toBeNull();
      expect(JSON.stringify([first.body, next.body])).not.toContain('api.example.com');
    } finally {
      await lists.close();
    }
  });
});

describe('a create sent as XML', () => {
  it('is read into the record through the XML Object (attribute, renamed element, wrapped array), its identity found', async () => {
    const pets = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('real-world-answers', 'xml-create.yaml'), selfCheck: true });
    try {
      const xml = '<?xml version="1.0" encoding="UTF-8"?><pet id="7"><petName>Rex</petName><vaccinated>true</vaccinated><tags><tag>good</tag><tag>dog</tag></tags></pet>';
      const created = await fetch(`${pets.url}/pets`, { method: 'POST', headers: { 'content-type': 'application/xml', accept: 'application/json' }, body: xml });
      const pet = { id: 7, name: 'Rex', vaccinated: true, tags: ['good', 'dog'] };
      expect(created.status).toBe(200);
      expect(created.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(await created.text())).toEqual(pet);
      expect(created.headers.get('plant-store-violations')).toBeNull();
      const read = await fetch(`${pets.url}/pets/7`);
      expect(JSON.parse(await read.text())).toEqual(pet);
    } finally {
      await pets.close();
    }
  });
});
