/**
 * Checks run in a fixed order — route, auth, media type, size, parse, schema, forced response,
 * duplicate, store — so a 401 never reveals schema details and a forced response never hides a
 * real fault in the request. Also Prefer: code and delay.
 */
import { describe, expect, it } from 'vitest';
import { MAX_DELAY_MS } from '../engine/prefer.js';
import { createPlant, expectError, expectPlant, freshId, listedPlantsText, send, useMock } from './mock-under-test.js';

const mock = useMock({ maxBody: 100 });
const tooBig = `{"id":1,"name":"${'a'.repeat(200)}"}`;

describe('check order', () => {
  it('route before auth: an unknown path is a 404 even without a token', async () => {
    expectError(await send(mock.current, '/nope', 'x', { noAuth: true, contentType: 'text/plain' }), 404);
  });

  it('route before auth: a wrong method is a 405 even without a token', async () => {
    expectError(await send(mock.current, '/plants', undefined, { method: 'GET', noAuth: true }), 405);
  });

  it('auth before everything about the body: a 401 tells nothing of the schema', async () => {
    for (const body of [tooBig, '{bad json', '{"name": 5}']) {
      const message = expectError(await createPlant(mock.current, body, { noAuth: true, contentType: 'text/plain' }), 401);
      expect(message).not.toMatch(/name|JSON|NewPlant|bytes/i);
    }
  });

  it('media type before size', async () => {
    expectError(await createPlant(mock.current, tooBig, { contentType: 'text/plain' }), 415);
  });

  it('size before parse', async () => {
    expectError(await createPlant(mock.current, `{bad${'x'.repeat(200)}`), 413);
  });

  it('schema before a forced response: Prefer cannot hide an invalid body', async () => {
    const message = expectError(await createPlant(mock.current, { name: 1 }, { headers: { prefer: 'code=200' } }), 400);
    expect(message).toContain('id is required');
  });

  it('forced response before duplicate: Prefer answers even for a stored id, storing nothing', async () => {
    const id = freshId();
    await createPlant(mock.current, { id, name: 'Kept' });
    const forced = await createPlant(mock.current, { id, name: 'Forced' }, { headers: { prefer: 'code=200' } });
    expect(forced.status).toBe(200);
    expect(await listedPlantsText(mock.current)).not.toContain('Forced');
  });
});

describe('Prefer: code=N', () => {
  it.each([404, 409, 413, 415, 500])('answers %i, which the spec does not declare, in the Error shape saying it was forced, storing nothing', async (code) => {
    const id = freshId();
    const response = await createPlant(mock.current, { id, name: 'x' }, { headers: { prefer: `code=${code}` } });
    expect(expectError(response, code)).toContain(`Prefer: code=${code}`);
    expect(response.headers.get('preference-applied')).toBe(`code=${code}`);
    expect(await listedPlantsText(mock.current)).not.toContain(String(id));
  });

  it("answers a forced 400 with the spec's example for 400, storing nothing", async () => {
    const id = freshId();
    const response = await createPlant(mock.current, { id, name: 'x' }, { headers: { prefer: 'code=400' } });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: 400, message: 'The request body is not a valid NewPlant: id is required.' });
    expect(response.headers.get('preference-applied')).toBe('code=400');
    expect(await listedPlantsText(mock.current)).not.toContain(String(id));
  });

  it('answers a forced 401 with its challenge and a forced 405 with Allow', async () => {
    const unauthorized = await createPlant(mock.current, { id: freshId(), name: 'x' }, { headers: { prefer: 'code=401' } });
    expectError(unauthorized, 401);
    expect(unauthorized.headers.get('www-authenticate')).toContain('Bearer realm="plant-store"');
    const notAllowed = await createPlant(mock.current, { id: freshId(), name: 'x' }, { headers: { prefer: 'code=405' } });
    expectError(notAllowed, 405);
    expect(notAllowed.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it("answers a forced 200 with the spec's example Plant, storing nothing", async () => {
    const id = freshId();
    const response = await createPlant(mock.current, { id, name: 'Mine' }, { headers: { prefer: 'code=200' } });
    expectPlant(response, { name: 'Monstera', tag: 'tropical' });
    expect(await listedPlantsText(mock.current)).not.toContain(String(id));
  });

  it.each(['code=418', 'code=201', 'code=abc', 'code=2000', 'delay=-1', `delay=${MAX_DELAY_MS + 1}`, 'delay=soon'])('rejects the unusable preference %s with a 400 that says why', async (prefer) => {
    const message = expectError(await createPlant(mock.current, { id: freshId(), name: 'x' }, { headers: { prefer } }), 400);
    expect(message).toContain(prefer.split('=')[0] as string);
  });

  it('ignores preferences it does not know (RFC 7240)', async () => {
    const response = await createPlant(mock.current, { id: freshId(), name: 'x' }, { headers: { prefer: 'return=minimal, respond-async' } });
    expect(response.status).toBe(200);
  });
});

describe('Prefer: delay=MS', () => {
  it('delays a success, a forced answer and a rejection alike', async () => {
    for (const [body, prefer, status] of [
      [{ id: freshId(), name: 'x' }, 'delay=300', 200],
      [{ id: freshId(), name: 'x' }, 'code=500, delay=300', 500],
      [{ name: 'x' }, 'delay=300', 400],
    ] as const) {
      const started = performance.now();
      const response = await createPlant(mock.current, body, { headers: { prefer } });
      expect(response.status).toBe(status);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    }
  });
});
