/**
 * The Prism mock's parameters, over real HTTP against the `mock:prism` process serving a user's
 * spec (petstore-expanded, OpenAPI 3.0): each is judged by the contract's own readers and
 * validators (exact int64, no empty integer) before Prism sees the request, and refused with a
 * 400 in the Error shape the spec declares; a valid request is still Prism's to answer.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATIENT_MS, startServer, type Server } from '../../test/processes.js';
import { loadContract } from '../../../openapi/operations/compile.js';

const PRISM_CLI = fileURLToPath(new URL('../../../dist/mocks/prism/cli.js', import.meta.url));
const SPEC = fileURLToPath(new URL('../../../fixtures/specs/petstore-expanded-3.0/openapi.yaml', import.meta.url));
const isError = loadContract(SPEC).componentValidator('Error');

let prism: Server;
beforeAll(async () => {
  prism = await startServer(process.execPath, [PRISM_CLI, '--spec', SPEC, '--port', '0', '--log-level', 'silent'], {}, PATIENT_MS, 'file');
});

async function call(method: string, path: string) {
  const response = await fetch(`${prism.url}${path}`, { method });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), text };
}

describe("the Prism mock judges parameters by the spec's schemas", () => {
  it.each([
    ['GET', '/pets/9223372036854775808', 'id'],
    ['GET', '/pets/-9223372036854775809', 'id'],
    ['GET', '/pets/-9.223372036854775809e18', 'id'],
    ['GET', '/pets/-9223372036854775808.5', 'id'],
    ['DELETE', '/pets/9223372036854775808', 'id'],
    ['DELETE', '/pets/-9223372036854775809', 'id'],
    ['GET', '/pets?limit=', 'limit'],
    ['GET', '/pets?tags=a&limit=0', 'limit'],
  ])('refuses %s %s with a 400 in the Error shape the spec declares', async (method, path, parameter) => {
    const { status, contentType, text } = await call(method, path);
    expect(status, text).toBe(400);
    expect(contentType).toBe('application/json');
    const body = JSON.parse(text) as { code: number; message: string };
    expect(isError(body), text).toBe(true);
    expect(body.code).toBe(400);
    expect(body.message).toContain(parameter);
  });

  it("leaves a valid request to Prism, which answers the spec's example", async () => {
    for (const path of ['/pets?limit=2', '/pets?tags=dog&tags=cat', '/pets']) {
      const { status, text } = await call('GET', path);
      expect(status, path).toBe(200);
      expect(JSON.parse(text), path).toEqual([{ name: 'Biscuit', tag: 'dog', id: expect.any(Number) }]);
    }
    // The int64 ends exactly: Prism alone judged 9223372036854775807 on its double, 2^63, and refused it.
    for (const id of ['1', '-9223372036854775808', '9223372036854775807', '9007199254740993']) {
      const { status, text } = await call('GET', `/pets/${id}`);
      expect(status, id).toBe(200);
      expect(JSON.parse(text), id).toEqual({ name: 'Biscuit', tag: 'dog', id: expect.any(Number) });
    }
    expect((await call('DELETE', '/pets/7')).status).toBe(204);
    expect((await call('DELETE', '/pets/9223372036854775807')).status).toBe(204);
  });
});

describe('every style the spec writes, read by the one judge (Prism no longer reads parameters itself)', () => {
  const STYLES = fileURLToPath(new URL('../../../fixtures/specs/parameter-styles/openapi.yaml', import.meta.url));
  let styles: Server;
  beforeAll(async () => {
    styles = await startServer(process.execPath, [PRISM_CLI, '--spec', STYLES, '--port', '0', '--log-level', 'silent'], {}, PATIENT_MS, 'file');
  });
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${styles.url}${path}`, { headers });
    return { status: response.status, text: await response.text() };
  };

  it("answers valid requests with Prism's example, where Prism's own reading refused them or failed", async () => {
    // Prism split a spaceDelimited value on `%20` (it is decoded by then), and failed (500) on an absent optional array header.
    expect(await get('/search?sizes=1%202&colours=red|blue&filter[min]=1&limit=50&fresh=true')).toEqual({ status: 200, text: '{"found":0}' });
    expect(await get('/headers')).toEqual({ status: 200, text: '{"ok":true}' });
    expect(await get('/headers', { 'x-ids': '1,2', 'x-point': 'x=1,y=2', cookie: 'session=3; flavours=a,b' })).toEqual({ status: 200, text: '{"ok":true}' });
    expect((await get('/rows/1,2/.a.b/;r=1;c=2')).status).toBe(200);
  });

  it.each([
    ['/search?sizes=1%20101', 'sizes'],
    ['/search?limit=', 'limit'],
    ['/search?filter[min]=1.5', 'filter'],
    ['/search?json=%7B%7D', 'json'],
    ['/rows/1/.a/;r=1;c=2', 'ids'],
    ['/rows/1,2/.a/;r=1', 'matrix'],
  ])('refuses %s with a 400 naming %s', async (path, parameter) => {
    const { status, text } = await get(path);
    expect(status, text).toBe(400);
    expect(text).toContain(parameter);
  });

  it('refuses a header or a cookie its schema refuses', async () => {
    const refused: Record<string, string>[] = [{ 'x-ids': '1,a' }, { 'x-count': '' }, { 'x-point': 'x=1' }, { cookie: 'flavours=a' }, { cookie: 'session=9223372036854775808.5' }];
    for (const headers of refused) {
      const { status, text } = await get('/headers', headers);
      expect(status, JSON.stringify(headers)).toBe(400);
      expect(JSON.parse(text), text).toMatchObject({ message: expect.stringMatching(/parameters do not fit/) });
    }
  });
});
