/**
 * The bookings-3.1 round trip on the durable stores: UUIDs and sequences the mock assigns,
 * nested collections named by their parent's id, wrapped paged lists — on a state file (and after
 * a restart on it) and on a real redis-server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { openRedisStore } from '../stores/redis.js';
import { openStateFile } from '../stores/state-file.js';
import type { ResourceStore } from '../stores/store.js';
import { call, corpusSpec, expectDeclared } from './corpus.js';
import { REDIS_SKIP_REASON, RedisServer } from './redis-server.js';

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function serve(store: ResourceStore): Promise<MockServer> {
  const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('bookings-3.1'), store });
  return mock;
}

/** Create, pay, list, patch, delete; returns the booking's id and its payment's path. */
async function roundTrip(mock: MockServer): Promise<{ id: string; payments: string }> {
  const created = expectDeclared(mock, 'createBooking', await call(mock, 'POST', '/bookings', { room: 'r-9', guest: 'Grace', nights: 3 }), 201);
  const payments = `/bookings/${created.id}/payments`;
  const paid = expectDeclared(mock, 'payBooking', await call(mock, 'POST', payments, { amount: 5, card: '4111111111111111', cvc: '999' }), 201);
  expect(paid).toEqual({ id: 1, amount: 5 });
  expect(expectDeclared(mock, 'listPayments', await call(mock, 'GET', payments), 200).data).toEqual([paid]);
  const listed = expectDeclared(mock, 'listBookings', await call(mock, 'GET', '/bookings?room=r-9&per_page=1'), 200);
  expect(listed).toMatchObject({ data: [created], total: 1, per_page: 1 });
  const patched = expectDeclared(mock, 'updateBooking', await call(mock, 'PATCH', `/bookings/${created.id}`, { nights: 4 }, 'application/merge-patch+json'), 200);
  expect(patched).toEqual({ ...created, nights: 4 });
  const gone = expectDeclared(mock, 'createBooking', await call(mock, 'POST', '/bookings', { room: 'r-0', guest: 'x', nights: 1 }), 201);
  expectDeclared(mock, 'cancelBooking', await call(mock, 'DELETE', `/bookings/${gone.id}`), 204);
  expectDeclared(mock, 'getBooking', await call(mock, 'GET', `/bookings/${gone.id}`), 404);
  return { id: created.id, payments };
}

describe('bookings-3.1 on a state file', () => {
  it('round trip, then after a restart the records, nested ones included, are there and new ids do not collide', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corpus-state-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'state.log');
    const first = await serve(await openStateFile(path));
    const { id, payments } = await roundTrip(first);
    await first.close();
    const again = await serve(await openStateFile(path));
    cleanups.push(() => again.close());
    expect(expectDeclared(again, 'getBooking', await call(again, 'GET', `/bookings/${id}`), 200)).toMatchObject({ id, nights: 4 });
    expect(expectDeclared(again, 'getPayment', await call(again, 'GET', `${payments}/1`), 200)).toEqual({ id: 1, amount: 5 });
    const second = expectDeclared(again, 'payBooking', await call(again, 'POST', payments, { amount: 6, card: '4111111111111111' }), 201);
    expect(second).toEqual({ id: 2, amount: 6 });
  });
});

describe.skipIf(REDIS_SKIP_REASON)(`bookings-3.1 on a real redis-server${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  it('round trip; a second mock on the same Redis sees the records and assigns past the first one’s ids', async () => {
    const redis = await RedisServer.start();
    cleanups.push(() => redis.stop());
    const one = await serve(await openRedisStore({ url: redis.url, prefix: 'corpus' }));
    cleanups.push(() => one.close());
    const { id, payments } = await roundTrip(one);
    const two = await serve(await openRedisStore({ url: redis.url, prefix: 'corpus' }));
    cleanups.push(() => two.close());
    expect(expectDeclared(two, 'getPayment', await call(two, 'GET', `${payments}/1`), 200)).toEqual({ id: 1, amount: 5 });
    // The second replica's sequence starts from the count; the first's next value is then taken and skipped.
    expect(expectDeclared(two, 'payBooking', await call(two, 'POST', payments, { amount: 7, card: '4111111111111111' }), 201)).toEqual({ id: 2, amount: 7 });
    expect(expectDeclared(one, 'payBooking', await call(one, 'POST', payments, { amount: 8, card: '4111111111111111' }), 201).id).toBeGreaterThan(2);
    expect(expectDeclared(one, 'listPayments', await call(one, 'GET', payments), 200).data).toHaveLength(3);
    expect(expectDeclared(two, 'getBooking', await call(two, 'GET', `/bookings/${id}`), 200)).toMatchObject({ id });
  });
});
