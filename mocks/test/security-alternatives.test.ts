/**
 * An operation that takes one of several security schemes (`security: [{basic: []}, {queryKey: []}]`)
 * and a request that sent one of them, refused: both mocks answer the 401 of the credential that was
 * sent (the API key was rejected), not the first alternative's "no Authorization header" that sent the
 * client to fix what it never tried. With nothing sent, the first alternative's 401 as before.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrismMock, type PrismMock } from '../prism/server.js';
import { createMockServer, type MockServer } from '../server.js';

const spec = fileURLToPath(new URL('../../fixtures/specs/credentials-3.1/openapi.yaml', import.meta.url));

describe('a refused credential under one of several alternatives', () => {
  let mock: MockServer;
  let prism: PrismMock;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: ['k1', 'ada:secret'] });
    prism = await startPrismMock({ port: 0, spec });
  });
  afterAll(async () => {
    await mock.close();
    await prism.close();
  });

  async function answer(url: string): Promise<{ status: number; message: string }> {
    const response = await fetch(url);
    const body = (await response.json()) as { message?: string };
    return { status: response.status, message: String(body.message) };
  }

  it('names the API key the request sent, not the Authorization header of the first alternative', async () => {
    const refused = await answer(`${mock.url}/either/secrets?api_key=stolen&limit=2`);
    expect(refused.status).toBe(401);
    expect(refused.message).toMatch(/^The API key was rejected: it is not one of the keys this mock accepts/);
    expect((await answer(`${mock.url}/either/secrets?api_key=k1&limit=2`)).status).toBe(200);
  });

  it('answers the first alternative when nothing was sent', async () => {
    for (const base of [mock.url, prism.url]) {
      const none = await answer(`${base}/either/secrets?limit=2`);
      expect(none).toMatchObject({ status: 401, message: expect.stringMatching(/^The request has no Authorization header/) });
    }
  });
});
