/**
 * Sequences over a nested collection (`/bookings/{bookingId}/payments` of fixtures/specs/bookings-3.1):
 * the parent record is created first, every step of the child's sequence names it in its path, and
 * the parent is deleted last. Against the mock they pass; a provider whose nested list forgets the
 * payments fails ensure_resource_availability; one that answers extra fields passes.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../openapi/operations/compile.js';
import { planSequences } from '../sequences.js';
import { suiteContractOf } from '../spec-contract.js';
import { editJson, mockBehindProxies, type Tamper } from './providers/mock-proxy.js';

const SPEC = fileURLToPath(new URL('../../fixtures/specs/bookings-3.1/openapi.yaml', import.meta.url));
const TOKEN = 'nested-token';

describe('a nested collection', () => {
  const { url, run, failed, through } = mockBehindProxies({ spec: SPEC, token: TOKEN, seed: 9, generated: { positive: 1, negative: 1 } });

  it('is planned with its parent: the parent create, the path parameter naming it, the item parameter and the parent delete', () => {
    const compiled = loadContract(SPEC);
    const plans = planSequences(
      compiled,
      [...compiled.operations.keys()].map((id) => suiteContractOf(compiled, id)),
    );
    const payments = plans.find((plan) => plan.collection === '/bookings/{bookingId}/payments');
    expect(payments?.parent).toMatchObject({ collection: '/bookings', parameter: 'bookingId', identity: 'id', assigned: true });
    expect(payments?.parent?.create.operationId).toBe('createBooking');
    expect(payments?.parent?.remove?.operationId).toBe('cancelBooking');
    expect(payments?.itemParameter).toBe('paymentId');
  });

  it('runs against the mock: a booking first, then the payment CRUD under it, the booking deleted last', async () => {
    const report = await run(url());
    expect(failed(report)).toEqual([]);
    const steps = report.exchanges.filter((e) => e.case.sequence).map((e) => `${e.case.sequence?.kind} ${e.request.method} ${new URL(e.request.url).pathname}`);
    const firstPayment = steps.findIndex((s) => /^create POST \/bookings\/[^/]+\/payments$/.test(s));
    expect(firstPayment).toBeGreaterThan(0);
    const booking = /^create POST \/bookings\/([^/]+)\/payments$/.exec(steps[firstPayment] ?? '')?.[1];
    expect(steps[firstPayment - 1]).toBe('create POST /bookings');
    expect(steps).toContain(`read GET /bookings/${booking}/payments/1`);
    expect(steps).toContain(`list GET /bookings/${booking}/payments`);
    expect(steps.at(-1)).toBe(`cleanup DELETE /bookings/${booking}`);
  });

  it('fails ensure_resource_availability when the nested list answers no payments', async () => {
    const report = await through(async (request, forward) => {
      const answer = await forward();
      return request.method === 'GET' && /^\/bookings\/[^/]+\/payments(\?|$)/.test(request.url) ? editJson(answer, (v) => ({ ...(v as object), data: [] })) : answer;
    });
    expect(failed(report)).toEqual(['ensure_resource_availability']);
  });

  it('passes a provider that answers each payment with a field the spec does not name', async () => {
    const tamper: Tamper = async (request, forward) => {
      const answer = await forward();
      return /\/payments\/\d+$/.test(request.url) ? editJson(answer, (v) => ({ ...(v as object), receipt: 'R-1' })) : answer;
    };
    expect(failed(await through(tamper))).toEqual([]);
  });
});
