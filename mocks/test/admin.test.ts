/** The /__mock admin routes: list, reset, seed, journal, health, and the admin token. */
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createPlant, expectError, listedPlantsText, send, useMock } from './mock-under-test.js';

describe('admin routes without an admin token', () => {
  const mock = useMock({ journalSize: 5 });

  it('answers health', async () => {
    const response = await fetch(`${mock.current.url}/__mock/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', replica: `${hostname()}:${process.pid}`, store: { state: 'up', kind: 'memory' } });
  });

  it('lists plants in creation order with exact ids, resets, and lets ids be reused', async () => {
    await send(mock.current, '/__mock/plants', undefined, { method: 'DELETE', contentType: null });
    await createPlant(mock.current, '{"id":9223372036854775807,"name":"b"}');
    await createPlant(mock.current, '{"id":1,"name":"a","tag":"t"}');
    expect(await listedPlantsText(mock.current)).toBe('[{"id":9223372036854775807,"name":"b"},{"id":1,"name":"a","tag":"t"}]');
    const reset = await send(mock.current, '/__mock/plants', undefined, { method: 'DELETE', contentType: null });
    expect(reset.status).toBe(204);
    expect(await listedPlantsText(mock.current)).toBe('[]');
    expect((await createPlant(mock.current, { id: 1, name: 'again' })).status).toBe(200);
  });

  it('seeds an array of NewPlants, all or nothing', async () => {
    await send(mock.current, '/__mock/plants', undefined, { method: 'DELETE', contentType: null });
    const seeded = await send(mock.current, '/__mock/plants', '[{"id":10,"name":"a"},{"id":18446744073709551,"name":"b","tag":"x"}]');
    expect(seeded.status).toBe(200);
    // Each identity as stored, its digits exact.
    expect(seeded.text).toBe('{"created":2,"ids":[10,18446744073709551]}');
    const invalid = await send(mock.current, '/__mock/plants', [{ id: 11, name: 'ok' }, { id: 'x' }, { name: 3 }]);
    const message = expectError(invalid, 400);
    expect(message).toContain('[1] id must be an integer');
    expect(message).toContain('[2] id is required');
    const duplicate = await send(mock.current, '/__mock/plants', [
      { id: 12, name: 'new' },
      { id: 10, name: 'dup' },
    ]);
    expect(expectError(duplicate, 409)).toContain('10');
    expect(await listedPlantsText(mock.current)).toBe('[{"id":10,"name":"a"},{"id":18446744073709551,"name":"b","tag":"x"}]');
  });

  it('rejects a seed that is not an array, or not JSON', async () => {
    expectError(await send(mock.current, '/__mock/plants', { id: 1, name: 'x' }), 400);
    expectError(await send(mock.current, '/__mock/plants', '[{', {}), 400);
    expectError(await send(mock.current, '/__mock/plants', '[]', { contentType: 'text/plain' }), 415);
  });

  it('keeps a bounded journal, newest first, with the reason for each rejection', async () => {
    for (let i = 0; i < 8; i++) await createPlant(mock.current, { name: i });
    await createPlant(mock.current, '{"id":1', { noAuth: true });
    const journal = ((await (await fetch(`${mock.current.url}/__mock/requests`)).json()) as { entries: any[] }).entries;
    expect(journal).toHaveLength(5);
    expect(journal[0]).toMatchObject({ method: 'POST', path: '/plants', status: 401, code: 'MISSING_CREDENTIALS' });
    expect(journal[1]).toMatchObject({ status: 400, code: 'INVALID_REQUEST_BODY', problems: expect.arrayContaining(['id is required']) });
    expect(journal[0].seq).toBeGreaterThan(journal[1].seq);
    expect(typeof journal[0].durationMs).toBe('number');
  });

  it('answers 405 with Allow for an unsupported admin method', async () => {
    const response = await send(mock.current, '/__mock/requests', undefined, { method: 'PUT', contentType: null });
    expectError(response, 405);
    expect(response.headers.get('allow')).toBe('GET, DELETE, OPTIONS');
  });
});

describe('admin routes with --admin-token', () => {
  const mock = useMock({ adminToken: 'sesame' });
  const admin = { authorization: 'Bearer sesame' };

  it.each([
    ['GET', '/__mock/plants'],
    ['DELETE', '/__mock/plants'],
    ['POST', '/__mock/plants'],
    ['GET', '/__mock/requests'],
  ])('refuses %s %s without the admin token', async (method, path) => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Basic c2VzYW1l' }] as Record<string, string>[]) {
      const response = await fetch(mock.current.url + path, { method, headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('realm="plant-store-admin"');
    }
  });

  it('serves them with the admin token, and health with none', async () => {
    expect((await fetch(`${mock.current.url}/__mock/plants`, { headers: admin })).status).toBe(200);
    expect((await fetch(`${mock.current.url}/__mock/requests`, { headers: admin })).status).toBe(200);
    expect((await fetch(`${mock.current.url}/__mock/health`)).status).toBe(200);
  });

  it('does not open the admin routes to an API token', async () => {
    expect((await createPlant(mock.current, { id: 5, name: 'x' })).status).toBe(200);
    expect((await fetch(`${mock.current.url}/__mock/plants`, { headers: { authorization: 'Bearer test-token' } })).status).toBe(401);
  });
});

describe('token allow-list (--tokens)', () => {
  const mock = useMock({ tokens: ['alpha', 'beta'] });

  it('accepts listed tokens and rejects others with error="invalid_token"', async () => {
    expect((await createPlant(mock.current, { id: 1, name: 'x' }, { headers: { authorization: 'Bearer beta' } })).status).toBe(200);
    const rejected = await createPlant(mock.current, { id: 2, name: 'x' }, { headers: { authorization: 'Bearer gamma' } });
    expectError(rejected, 401);
    expect(rejected.headers.get('www-authenticate')).toBe('Bearer realm="plant-store", error="invalid_token", error_description="The access token is not accepted"');
  });
});
