/**
 * fixtures/specs/bookings-3.1 (OpenAPI 3.1): read-only UUID ids the mock assigns, wrapped and
 * paginated lists, a nested collection with a write-only card, over real HTTP. Every operation's
 * answer is one it declares (status, media type, body valid against the schema).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { call, corpusSpec, expectDeclared } from './corpus.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('bookings-3.1') });
});
afterAll(() => mock?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const booking = (room: string, nights = 2) => ({ room, guest: 'Ada', nights });

describe('bookings-3.1: the CRUD round trip, every answer as declared', () => {
  it('recognises every operation', () => {
    expect(Object.fromEntries([...mock.engine.stateful].map(([id, { role }]) => [id, role]))).toEqual({
      createBooking: 'create',
      listBookings: 'list',
      getBooking: 'read',
      replaceBooking: 'replace',
      updateBooking: 'patch',
      cancelBooking: 'delete',
      payBooking: 'create',
      listPayments: 'list',
      getPayment: 'read',
    });
  });

  it('create → read → list → replace → patch → delete → 404, the id a UUID the mock assigned', async () => {
    // A client-sent read-only id is ignored: the mock assigns its own.
    const created = expectDeclared(mock, 'createBooking', await call(mock, 'POST', '/bookings', { id: '00000000-0000-4000-8000-000000000000', ...booking('r-1') }), 201);
    expect(created.id).toMatch(UUID);
    expect(created.id).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(created).toEqual({ id: created.id, ...booking('r-1') });
    const at = `/bookings/${created.id}`;
    expect(expectDeclared(mock, 'getBooking', await call(mock, 'GET', at), 200)).toEqual(created);
    const listed = expectDeclared(mock, 'listBookings', await call(mock, 'GET', '/bookings?room=r-1'), 200);
    // `self` is the request itself, never the example's.
    expect(listed).toEqual({ data: [created], links: { self: '/bookings?room=r-1' }, total: 1, page: 1, per_page: 10 });
    const replaced = expectDeclared(mock, 'replaceBooking', await call(mock, 'PUT', at, booking('r-1', 5)), 200);
    expect(replaced).toEqual({ id: created.id, ...booking('r-1', 5) });
    const patched = expectDeclared(mock, 'updateBooking', await call(mock, 'PATCH', at, { note: 'late arrival' }, 'application/merge-patch+json'), 200);
    expect(patched).toEqual({ ...replaced, note: 'late arrival' });
    expect(await call(mock, 'DELETE', at)).toMatchObject({ status: 204, text: '' });
    // The mock's own 404 in the spec's problem+json shape.
    expect(expectDeclared(mock, 'getBooking', await call(mock, 'GET', at), 404)).toMatchObject({ status: 404 });
    expectDeclared(mock, 'cancelBooking', await call(mock, 'DELETE', at), 404);
  });

  it('a patch that would leave an invalid booking is refused, the record unchanged', async () => {
    const created = (await call(mock, 'POST', '/bookings', booking('r-2'))).json;
    expect((await call(mock, 'PATCH', `/bookings/${created.id}`, { nights: 99 }, 'application/merge-patch+json')).status).toBe(400);
    expect((await call(mock, 'GET', `/bookings/${created.id}`)).json).toEqual(created);
  });

  it('lists a page at a time (page, per_page), filtered by room, with the total', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await call(mock, 'POST', '/bookings', booking('paged', i + 1))).json.id);
    const third = expectDeclared(mock, 'listBookings', await call(mock, 'GET', '/bookings?room=paged&per_page=10&page=3'), 200);
    expect(third.data.map((b: { id: string }) => b.id)).toEqual(ids.slice(20));
    expect(third).toMatchObject({ total: 25, page: 3, per_page: 10 });
    const first = expectDeclared(mock, 'listBookings', await call(mock, 'GET', '/bookings?room=paged'), 200);
    expect(first.data.map((b: { id: string }) => b.id)).toEqual(ids.slice(0, 10));
    const beyond = expectDeclared(mock, 'listBookings', await call(mock, 'GET', '/bookings?room=paged&page=9'), 200);
    expect(beyond).toMatchObject({ data: [], total: 25 });
    expect(expectDeclared(mock, 'listBookings', await call(mock, 'GET', '/bookings?room=nowhere'), 200)).toMatchObject({ data: [], total: 0 });
  });

  it('payments belong to their booking: 404 while it does not exist, a sequence id, the card never answered', async () => {
    const missing = '/bookings/11111111-1111-4111-8111-111111111111/payments';
    expect((await call(mock, 'POST', missing, { amount: 10, card: '4111111111111111', cvc: '123' })).status).toBe(404);
    expect((await call(mock, 'GET', missing)).status).toBe(404);
    const { id } = (await call(mock, 'POST', '/bookings', booking('r-3'))).json;
    const payments = `/bookings/${id}/payments`;
    const paid = expectDeclared(mock, 'payBooking', await call(mock, 'POST', payments, { amount: 120, card: '4111111111111111', cvc: '123' }), 201);
    expect(paid).toEqual({ id: 1, amount: 120 });
    expect(expectDeclared(mock, 'getPayment', await call(mock, 'GET', `${payments}/1`), 200)).toEqual(paid);
    expect(expectDeclared(mock, 'listPayments', await call(mock, 'GET', payments), 200)).toEqual({ data: [paid], links: { self: payments } });
    // Another booking's payments are its own.
    const other = (await call(mock, 'POST', '/bookings', booking('r-4'))).json.id;
    expect((await call(mock, 'GET', `/bookings/${other}/payments/1`)).status).toBe(404);
    // The admin route addresses them by real ids and shows what is stored, write-only fields included.
    const stored = await (await fetch(`${mock.url}/__mock${payments}`)).json();
    expect(stored).toEqual([{ id: 1, amount: 120, card: '4111111111111111', cvc: '123' }]);
    expect((await call(mock, 'DELETE', `/bookings/${id}`)).status).toBe(204);
    expect((await call(mock, 'GET', `${payments}/1`)).status).toBe(404);
  });
});
