/**
 * fixtures/specs/lists-3.1 (OpenAPI 3.1) over real HTTP: a wrapped list fills every member it
 * knows (the paging values in effect, the total, a `next`/`prev` link), and each answer is valid
 * against the list's own schema; filters by a singular array parameter, by a property's default
 * and by a deepObject parameter's members; a seed assigns identities as a create does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { call, corpusSpec, expectDeclared } from './corpus.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('lists-3.1') });
});
afterAll(() => mock?.close());
beforeEach(async () => {
  expect((await call(mock, 'DELETE', '/__mock/books')).status).toBe(204);
});

const book = (title: string, more: Record<string, unknown> = {}) => ({ title, author: 'Ada', ...more });

async function createBooks(n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(expectDeclared(mock, 'createBook', await call(mock, 'POST', '/books', book(`b${i}`)), 201).id);
  return ids;
}

describe('lists-3.1: a wrapped list fills the members it knows, valid against its schema', () => {
  it('answers the page and limit in effect when not sent (their defaults), and next null on the only page', async () => {
    const [id] = await createBooks(1);
    const listed = expectDeclared(mock, 'listBooks', await call(mock, 'GET', '/books'), 200);
    expect(listed).toEqual({ items: [{ id, ...book('b0') }], total: 1, page: 1, limit: 10, next: null });
  });

  it('links the next page (same query, the page advanced) and the previous one, null on the last page', async () => {
    const ids = await createBooks(5);
    const first = expectDeclared(mock, 'listBooks', await call(mock, 'GET', '/books?status=open&limit=2'), 200);
    expect(first).toMatchObject({ total: 5, page: 1, limit: 2, next: '/books?status=open&limit=2&page=2' });
    expect(first).not.toHaveProperty('prev');
    const second = expectDeclared(mock, 'listBooks', await call(mock, 'GET', first.next), 200);
    expect(second.items.map((b: { id: number }) => b.id)).toEqual(ids.slice(2, 4));
    expect(second).toMatchObject({ page: 2, next: '/books?status=open&limit=2&page=3', prev: '/books?status=open&limit=2&page=1' });
    const last = expectDeclared(mock, 'listBooks', await call(mock, 'GET', second.next), 200);
    expect(last.items.map((b: { id: number }) => b.id)).toEqual(ids.slice(4));
    expect(last).toMatchObject({ page: 3, limit: 2, next: null, prev: '/books?status=open&limit=2&page=2' });
    // Every page followed from the first holds every record once.
    expect([...first.items, ...second.items, ...last.items].map((b: { id: number }) => b.id)).toEqual(ids);
    const sized = expectDeclared(mock, 'listBooks', await call(mock, 'GET', '/books?limit=4&page=1'), 200);
    expect(sized).toMatchObject({ page: 1, limit: 4, next: '/books?limit=4&page=2' });
  });

  it('an offset list without the offset sent answers offset 0, and links.next is left out on the last page', async () => {
    const notes: number[] = [];
    for (let i = 0; i < 4; i++) notes.push(expectDeclared(mock, 'createNote', await call(mock, 'POST', '/notes', { text: `n${i}` }), 201).id);
    const first = expectDeclared(mock, 'listNotes', await call(mock, 'GET', '/notes?limit=3'), 200);
    expect(first.offset).toBe(0);
    expect(first.data).toHaveLength(3);
    expect(first.links).toEqual({ next: '/notes?limit=3&offset=3' });
    const last = expectDeclared(mock, 'listNotes', await call(mock, 'GET', first.links.next), 200);
    expect(last).toMatchObject({ offset: 3, links: { prev: '/notes?limit=3&offset=0' } });
    expect(last.links).not.toHaveProperty('next');
    expect(last.data.map((n: { id: number }) => n.id)).toEqual(notes.slice(3));
  });

  it('a link whose format is uri is an absolute URL', async () => {
    const absolute = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('lists-3.1', 'absolute-links.yaml') });
    try {
      for (let i = 0; i < 4; i++) expectDeclared(absolute, 'createNote', await call(absolute, 'POST', '/notes', { text: `n${i}` }), 201);
      const first = expectDeclared(absolute, 'listNotes', await call(absolute, 'GET', '/notes'), 200);
      expect(first).toMatchObject({ offset: 0, links: { next: `${absolute.url}/notes?offset=3` } });
      const last = expectDeclared(absolute, 'listNotes', await call(absolute, 'GET', '/notes?offset=3'), 200);
      expect(last.links).toEqual({ prev: `${absolute.url}/notes?offset=0` });
    } finally {
      await absolute.close();
    }
  });
});

describe('lists-3.1: filters', () => {
  it('a singular array parameter (tag=b,two) keeps the records whose array property (tags) holds any of its values', async () => {
    const a = expectDeclared(mock, 'createBook', await call(mock, 'POST', '/books', book('a', { tags: ['a', 'one'] })), 201);
    const b = expectDeclared(mock, 'createBook', await call(mock, 'POST', '/books', book('b', { tags: ['b'] })), 201);
    const c = expectDeclared(mock, 'createBook', await call(mock, 'POST', '/books', book('c', { tags: ['x', 'two'] })), 201);
    const listed = expectDeclared(mock, 'listBooks', await call(mock, 'GET', '/books?tag=b,two'), 200);
    expect(listed.items.map((x: { id: number }) => x.id)).toEqual([b.id, c.id]);
    expect(listed.total).toBe(2);
    expect(expectDeclared(mock, 'listBooks', await call(mock, 'GET', '/books?tag=one'), 200).items).toEqual([a]);
  });

  it('a record without the property matches the default its schema gives it', async () => {
    const plain = expectDeclared(mock, 'createBook', await call(mock, 'POST', '/books', book('plain')), 201);
    const done = expectDeclared(mock, 'createBook', await call(mock, 'POST', '/books', book('done', { status: 'done' })), 201);
    const open = expectDeclared(mock, 'createBook', await call(mock, 'POST', '/books', book('open', { status: 'open' })), 201);
    expect(plain).not.toHaveProperty('status');
    expect(expectDeclared(mock, 'listBooks', await call(mock, 'GET', '/books?status=open'), 200).items).toEqual([plain, open]);
    expect(expectDeclared(mock, 'listBooks', await call(mock, 'GET', '/books?status=done'), 200).items).toEqual([done]);
  });

  it("a deepObject parameter's members naming stored properties are equality filters (the others ignored)", async () => {
    const ada = expectDeclared(mock, 'createBook', await call(mock, 'POST', '/books', book('x')), 201);
    expectDeclared(mock, 'createBook', await call(mock, 'POST', '/books', { title: 'y', author: 'Grace' }), 201);
    const listed = expectDeclared(mock, 'listBooks', await call(mock, 'GET', '/books?filter[author]=Ada&filter[minYear]=1900'), 200);
    expect(listed).toMatchObject({ items: [ada], total: 1 });
  });
});

describe('lists-3.1: seeding', () => {
  it('assigns the identities a create would assign, answers them, and creates continue past them', async () => {
    const seeded = await call(mock, 'POST', '/__mock/books', [book('s1'), book('s2', { status: 'done' })]);
    expect(seeded.status, seeded.text).toBe(200);
    expect(seeded.json.created).toBe(2);
    const ids: number[] = seeded.json.ids;
    expect(ids).toHaveLength(2);
    expect(expectDeclared(mock, 'getBook', await call(mock, 'GET', `/books/${ids[0]}`), 200)).toEqual({ id: ids[0], ...book('s1') });
    const next = expectDeclared(mock, 'createBook', await call(mock, 'POST', '/books', book('after')), 201);
    expect(ids).not.toContain(next.id);
    expect(expectDeclared(mock, 'listBooks', await call(mock, 'GET', '/books'), 200).total).toBe(3);
  });
});
