/**
 * A small, correct provider of fixtures/specs/trains-3.1 (stations, trips between two stations,
 * bookings of a trip it runs, a booking's payment), in memory: the dependency graph's test (dependency-graph.test.ts)
 * runs the suite against it, and against it with one flaw. It validates with the spec's own
 * validators, as the Plant Store reference provider does.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadContract } from '../../../openapi/operations/compile.js';
import { startSmallProvider, type SmallRequest, type Answer } from './small-provider.js';
import type { Provider } from './provider.js';

export const TRAINS_SPEC = fileURLToPath(new URL('../../../fixtures/specs/trains-3.1/openapi.yaml', import.meta.url));
const compiled = loadContract(TRAINS_SPEC);
const bodyValidator = (operationId: string) => compiled.operations.get(operationId)?.requestBody?.content.get('application/json')?.validate;
const validBooking = bodyValidator('createBooking');
const validPayment = bodyValidator('payBooking');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const STATIONS = [
  { id: 'b2e783e1-c824-4d63-b37a-d8d698862f1d', name: 'Berlin Hauptbahnhof', country: 'DE' },
  { id: 'efdbb9d1-02c2-4bc3-afb7-6788d8782b1e', name: 'Paris Gare du Nord', country: 'FR' },
  { id: '7b2c9a39-5a34-4d6b-9a8f-2f7b1d5c3e10', name: 'London St Pancras', country: 'GB' },
];

/** The one trip the provider runs (between any two of its stations). */
export const TRIP_ID = 'd7a1a3d2-8f1e-4a7e-9f57-8b0f4c2a1e11';

/** One flaw of the provider, or none. */
export type TrainsFlaw =
  /** A payment's status outside its enum (`paid`). */
  | 'payment-status-outside-enum'
  /** A trip's departure without its offset (`2026-01-01T10:00:00`). */
  | 'departure-without-offset'
  /** A payment of amount 0 accepted (the spec's exclusiveMinimum is 0). */
  | 'zero-amount-accepted'
  /** A booking deleted answers 204 for any id, never created or not. */
  | 'delete-unknown-204'
  | undefined;

export async function startTrainsProvider(token: string, flaw?: TrainsFlaw): Promise<Provider> {
  const bookings = new Map<string, Record<string, unknown>>();
  return startSmallProvider((request: SmallRequest, answer: Answer) => {
    // RFC 9110 §11.1: the scheme is case-insensitive, one or more spaces before the token.
    const credential = /^bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (credential !== token) return answer(401, { title: 'no valid credential' });
    const { pathname, searchParams } = request.url;
    const json = (): Record<string, unknown> | undefined => {
      if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) return undefined;
      const value = request.json();
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    };
    if (request.method === 'GET' && pathname === '/stations') {
      const country = searchParams.get('country');
      if (country !== null && !/^[A-Z]{2}$/.test(country)) return answer(400, { title: 'country is an ISO code' });
      return answer(200, { data: STATIONS.filter((s) => country === null || s.country === country) });
    }
    if (request.method === 'GET' && pathname === '/trips') {
      const origin = searchParams.get('origin');
      const destination = searchParams.get('destination');
      if (!origin || !destination || !UUID.test(origin) || !UUID.test(destination)) return answer(400, { title: 'origin and destination are station ids' });
      if (!STATIONS.some((s) => s.id === origin) || !STATIONS.some((s) => s.id === destination)) return answer(400, { title: 'unknown station' });
      const departure = flaw === 'departure-without-offset' ? '2026-01-01T10:00:00' : '2026-01-01T10:00:00Z';
      return answer(200, { data: [{ id: TRIP_ID, origin, destination, departure }] });
    }
    if (pathname === '/bookings' && request.method === 'POST') {
      const body = json();
      if (!body || !validBooking?.(body)) return answer(400, { title: 'invalid booking' });
      // A booking names a trip the provider runs (the spec's 400 is for an invalid booking, and one of no trip is).
      if (body.trip_id !== TRIP_ID) return answer(400, { title: 'no such trip' });
      // Only what the schema declares is kept (a body may carry any other member, at any depth).
      const booking = { id: randomUUID(), trip_id: body.trip_id, passenger_name: body.passenger_name };
      bookings.set(booking.id, booking);
      return answer(201, booking);
    }
    if (pathname === '/bookings' && request.method === 'GET') return answer(200, { data: [...bookings.values()] });
    const item = /^\/bookings\/([^/]+)$/.exec(pathname);
    if (item) {
      const id = decodeURIComponent(item[1] as string);
      const booking = bookings.get(id);
      if (request.method === 'GET') return booking ? answer(200, booking) : answer(404, { title: 'no such booking' });
      if (request.method === 'DELETE') {
        if (!booking && flaw !== 'delete-unknown-204') return answer(404, { title: 'no such booking' });
        bookings.delete(id);
        return answer(204);
      }
    }
    const payment = /^\/bookings\/([^/]+)\/payment$/.exec(pathname);
    if (payment && request.method === 'POST') {
      const id = decodeURIComponent(payment[1] as string);
      const body = json();
      const zero = flaw === 'zero-amount-accepted' && body !== undefined && body.amount === 0 && validPayment?.({ ...body, amount: 1 });
      if (!body || (!validPayment?.(body) && !zero)) return answer(400, { title: 'invalid payment' });
      // The spec declares 400, not 404, for a booking it does not have.
      if (!bookings.has(id)) return answer(400, { title: 'no such booking' });
      const status = flaw === 'payment-status-outside-enum' ? 'paid' : 'succeeded';
      return answer(200, { id: randomUUID(), amount: body.amount, currency: body.currency, status });
    }
    return answer(404, { title: 'not found' });
  });
}
