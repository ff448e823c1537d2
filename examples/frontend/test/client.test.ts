/**
 * The frontend example cannot rot: its types are regenerated from the spec and compared, it is
 * type-checked, and the client and the demo run against the mock over real HTTP.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_PATH } from '../../../openapi/plant-store.js';
import { createMockServer, type MockServer } from '../../../mocks/server.js';
import { createPlant, createPlantStoreClient, type NewPlant } from '../src/plant-store-client.js';

const run = promisify(execFile);
const EXAMPLE = fileURLToPath(new URL('../', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TOKEN = 'frontend-token';

describe('examples/frontend', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', tokens: [TOKEN] });
  });
  afterAll(() => mock?.close());

  const client = (token: string | undefined) => createPlantStoreClient({ baseUrl: mock.url, getToken: () => token });

  it('uses exactly the types openapi-typescript generates from the spec today', async () => {
    const generated = COMMENT_HEADER + astToString(await openapiTS(new URL(`file://${SPEC_PATH}`)));
    // On a difference: `npm run generate` in examples/frontend.
    expect(readFileSync(`${EXAMPLE}src/plant-store.gen.ts`, 'utf8')).toBe(generated);
  });

  it('type-checks, including the calls the spec forbids', async () => {
    const tsc = `${ROOT}node_modules/typescript/bin/tsc`;
    const result = await run(process.execPath, [tsc, '-p', `${EXAMPLE}tsconfig.json`]).catch((error: { stdout: string }) => error);
    expect(result.stdout).toBe('');
  });

  it('creates a plant', async () => {
    const result = await createPlant(client(TOKEN), { id: 1, name: 'Monstera', tag: 'tropical' });
    expect(result).toEqual({ ok: true, plant: { name: 'Monstera', tag: 'tropical' } });
    expect(await mock.store.count('/plants')).toBe(1);
  });

  it.each([
    ['no token', undefined, 'no Authorization header'],
    ['a token the API does not accept', 'expired-token', 'not one of the tokens'],
  ])('reports a 401 as unauthorized for %s', async (_case, token, words) => {
    const result = await createPlant(client(token), { id: 2, name: 'Ficus' });
    expect(result).toEqual({ ok: false, unauthorized: true, error: { error: 401, message: expect.stringContaining(words) } });
  });

  it('gives other rejections in the Error shape, with the status', async () => {
    const duplicate = await createPlant(client(TOKEN), { id: 1, name: 'Monstera again' });
    expect(duplicate).toEqual({
      ok: false,
      unauthorized: false,
      status: 409,
      error: { error: 409, message: expect.stringContaining('id 1 already exists') },
    });
    // What a form bound to `any` might send: the types forbid it, the API answers 400.
    const invalid = await createPlant(client(TOKEN), { id: '3', name: null } as unknown as NewPlant);
    expect(invalid).toMatchObject({ ok: false, unauthorized: false, status: 400, error: { error: 400 } });
    if (!invalid.ok) {
      expect(invalid.error.message).toContain('id must be an integer');
      expect(invalid.error.message).toContain('name must be a string');
    }
  });

  it('turns an answer that is not the Error shape into one', async () => {
    const proxy = createServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const behindProxy = createPlantStoreClient({
        baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        getToken: () => TOKEN,
      });
      expect(await createPlant(behindProxy, { id: 4, name: 'x' })).toEqual({
        ok: false,
        unauthorized: false,
        status: 502,
        error: { error: 502, message: 'HTTP 502 Bad Gateway' },
      });
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('runs its demo against the mock', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', `${EXAMPLE}src/demo.ts`], {
      cwd: ROOT,
      env: { ...process.env, PLANT_STORE_URL: mock.url, PLANT_STORE_TOKEN: TOKEN },
      timeout: 60_000, // a safety limit for a slow machine, not a timing
    });
    expect(stdout.trim().split('\n')).toEqual([
      'created Monstera (tropical)',
      expect.stringMatching(/^rejected with 409: A plant with id \d+ already exists/),
      expect.stringMatching(/^401, ask the user to sign in again: The request has no Authorization header/),
    ]);
  });
});
