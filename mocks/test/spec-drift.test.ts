/**
 * Spec drift: a user edits their copy of the spec and passes it with --spec; the stateful mock and
 * the Prism mock follow with no code change. One variant per row of the table, each run
 * over real HTTP against both mocks started on that variant.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPrismMock, type PrismMock } from '../prism/server.js';
import { createLogger } from '../http/logger.js';
import { createMockServer, type MockServer } from '../server.js';
import { SPEC_VARIANTS, writeSpecVariant, type SpecVariant } from '../../openapi/test/variants.js';
import { expectError, freshId, listedPlantsText, send } from './mock-under-test.js';
import { PATIENT_MS } from './processes.js';

const TOKEN = 'drift-token';
const bearer = { authorization: `Bearer ${TOKEN}` };

interface Started {
  mock: MockServer;
  prism: PrismMock;
}

/** Starts both mocks on `variant` for the describe block it is called in. */
function onVariant(variant: SpecVariant, options: { tokens?: string[] } = {}): { current: Started } {
  const holder = {} as { current: Started };
  beforeAll(async () => {
    const spec = writeSpecVariant(variant);
    holder.current = {
      mock: await createMockServer({ port: 0, logLevel: 'silent', spec, ...options }),
      prism: await startPrismMock({ port: 0, spec }),
    };
  });
  afterAll(async () => {
    await holder.current?.mock.close();
    await holder.current?.prism.close();
  });
  return holder;
}

const post = (target: { url: string }, body: unknown, headers: Record<string, string> = bearer, path = '/plants') => send(target as MockServer, path, body, { headers, noAuth: true });

describe(SPEC_VARIANTS['name-max-length'].change, () => {
  const on = onVariant('name-max-length');
  it('the mock refuses a longer name with the limit in words, and stores a name at the limit', async () => {
    const message = expectError(await post(on.current.mock, { id: freshId(), name: 'n'.repeat(51) }), 400);
    expect(message).toContain('name must have at most 50 characters');
    expect((await post(on.current.mock, { id: freshId(), name: 'n'.repeat(50) })).status).toBe(200);
  });
  it('the Prism mock refuses it too', async () => {
    const answer = await post(on.current.prism, { id: 1, name: 'n'.repeat(51) });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect((await post(on.current.prism, { id: 1, name: 'n'.repeat(50) })).status).toBe(200);
  });
});

describe(SPEC_VARIANTS['required-color'].change, () => {
  const on = onVariant('required-color');
  it('the mock requires color, stores it, answers it and lists it', async () => {
    expect(expectError(await post(on.current.mock, { id: freshId(), name: 'Ficus' }), 400)).toContain('color is required');
    const id = freshId();
    const created = await post(on.current.mock, { id, name: 'Ficus', color: 'green', unknown: 1 });
    expect(created.status).toBe(200);
    expect(created.json).toStrictEqual({ name: 'Ficus', color: 'green' });
    expect(await listedPlantsText(on.current.mock)).toContain(`{"id":${id},"name":"Ficus","color":"green"}`);
  });
  it('the Prism mock requires it and answers an example that has it', async () => {
    expect((await post(on.current.prism, { id: 1, name: 'Ficus' })).status).toBeGreaterThanOrEqual(400);
    const created = await post(on.current.prism, { id: 1, name: 'Ficus', color: 'red' });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ color: 'green' });
  });
});

describe(SPEC_VARIANTS['tag-renamed-label'].change, () => {
  const on = onVariant('tag-renamed-label');
  it('the mock stores and answers label, and ignores the now unknown tag', async () => {
    const id = freshId();
    const created = await post(on.current.mock, { id, name: 'Ficus', label: 'indoor', tag: 'old' });
    expect(created.status).toBe(200);
    expect(created.json).toStrictEqual({ name: 'Ficus', label: 'indoor' });
    const listed = await listedPlantsText(on.current.mock);
    expect(listed).toContain(`{"id":${id},"name":"Ficus","label":"indoor"}`);
    expect(listed).not.toContain('"tag"');
  });
  it('the Prism mock answers label', async () => {
    expect((await post(on.current.prism, { id: 1, name: 'Ficus', label: 'x' })).json).toStrictEqual({ name: 'Monstera', label: 'tropical' });
  });
});

describe(SPEC_VARIANTS['api-key'].change, () => {
  const on = onVariant('api-key', { tokens: ['key-1'] });
  it('the mock wants the X-API-Key header, with no invented challenge, and --tokens lists the keys', async () => {
    const none = await post(on.current.mock, { id: freshId(), name: 'Ficus' }, {});
    expect(expectError(none, 401)).toContain("the header 'x-api-key: <key>'");
    expect(none.headers.get('www-authenticate')).toBeNull();
    expectError(await post(on.current.mock, { id: freshId(), name: 'Ficus' }, bearer), 401);
    expect(expectError(await post(on.current.mock, { id: freshId(), name: 'Ficus' }, { 'x-api-key': 'key-2' }), 401)).toContain('not one of the keys');
    expect((await post(on.current.mock, { id: freshId(), name: 'Ficus' }, { 'x-api-key': 'key-1' })).status).toBe(200);
  });
  it('the Prism mock wants the header too', async () => {
    expect((await post(on.current.prism, { id: 1, name: 'Ficus' }, {})).status).toBe(401);
    expect((await post(on.current.prism, { id: 1, name: 'Ficus' }, { 'x-api-key': 'anything' })).status).toBe(200);
  });
});

describe(SPEC_VARIANTS['no-security'].change, () => {
  const on = onVariant('no-security');
  it('both mocks answer without credentials', async () => {
    expect((await post(on.current.mock, { id: freshId(), name: 'Ficus' }, {})).status).toBe(200);
    expect((await post(on.current.prism, { id: 1, name: 'Ficus' }, {})).status).toBe(200);
  });
});

describe(SPEC_VARIANTS['get-by-id'].change, () => {
  const on = onVariant('get-by-id');
  it('the mock reads back what it stored, ids exact, and lists it', async () => {
    const id = 9223372036854775807n - BigInt(freshId() % 1000);
    expect((await post(on.current.mock, `{"id":${id},"name":"Max","tag":"t"}`)).status).toBe(200);
    const read = await send(on.current.mock, `/plants/${id}`, undefined, { method: 'GET', headers: bearer, noAuth: true, contentType: null });
    expect(read.status).toBe(200);
    expect(read.text).toBe(`{"id":${id},"name":"Max","tag":"t"}`);
    const listed = await send(on.current.mock, '/plants', undefined, { method: 'GET', headers: bearer, noAuth: true, contentType: null });
    expect(listed.text).toContain(`{"id":${id},"name":"Max","tag":"t"}`);
    const missing = await send(on.current.mock, '/plants/12', undefined, { method: 'GET', headers: bearer, noAuth: true, contentType: null });
    expect(expectError(missing, 404)).toContain('No plant with id 12 is stored');
    const notAnId = await send(on.current.mock, '/plants/abc', undefined, { method: 'GET', headers: bearer, noAuth: true, contentType: null });
    expect(expectError(notAnId, 400)).toContain('path parameter id must be an integer');
  });
  it('the mock never creates from a GET, whatever its body', async () => {
    const before = await on.current.mock.store.count('/plants');
    // fetch cannot send a GET with a body; node:http can, as any client may.
    const body = JSON.stringify({ id: freshId(), name: 'not created' });
    const headers = { ...bearer, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    const status = await new Promise<number>((resolve, fail) => {
      const req = request(`${on.current.mock.url}/plants`, { method: 'GET', headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', fail);
      req.end(body);
    });
    expect(status).toBe(200);
    expect(await on.current.mock.store.count('/plants')).toBe(before);
  });
  it('the Prism mock answers the read from the schema', async () => {
    const read = await send(on.current.prism as never, '/plants/5', undefined, { method: 'GET', headers: bearer, noAuth: true, contentType: null });
    expect(read.status).toBe(200);
    expect(read.json).toHaveProperty('name');
  });
});

describe(SPEC_VARIANTS['created-201'].change, () => {
  const on = onVariant('created-201');
  it('the mock answers 201 with the Plant, and 200 can no longer be forced', async () => {
    const created = await post(on.current.mock, { id: freshId(), name: 'Ficus' });
    expect(created.status).toBe(201);
    expect(created.json).toStrictEqual({ name: 'Ficus' });
    expect(expectError(await post(on.current.mock, { id: freshId(), name: 'x' }, { ...bearer, prefer: 'code=200' }), 400)).toContain('code=200 is not a status the mock can force');
    expect((await post(on.current.mock, { id: freshId(), name: 'x' }, { ...bearer, prefer: 'code=201' })).status).toBe(201);
  });
  it('the Prism mock answers 201', async () => {
    expect((await post(on.current.prism, { id: 1, name: 'Ficus' })).status).toBe(201);
  });
});

describe('an operation the mock has no stateful handler for', () => {
  const on = onVariant('get-by-id');
  it('is answered from the spec, journaled as not stateful, when --stateless names it', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: writeSpecVariant('get-by-id'), stateless: ['getPlant'] });
    try {
      const read = await send(mock, '/plants/5', undefined, { method: 'GET', headers: bearer, noAuth: true, contentType: null });
      expect(read.status).toBe(200);
      expect(read.json).toHaveProperty('name');
      const [entry] = (await mock.journal.entries()).entries;
      expect(entry).toMatchObject({ method: 'GET', path: '/plants/5', status: 200, operationId: 'getPlant', stateful: false });
    } finally {
      await mock.close();
    }
    expect(on.current.mock.engine.stateful.has('getPlant')).toBe(true);
  });
});

describe('a cookie parameter the spec declares', () => {
  it('is read from the Cookie header and validated like any other parameter', async () => {
    const spec = writeSpecVariant('no-security', (d) => {
      d.paths['/plants'].post.parameters = [{ name: 'session', in: 'cookie', required: true, schema: { type: 'string', minLength: 3 } }];
    });
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
    try {
      const create = (cookie?: string) => send(mock, '/plants', { id: freshId(), name: 'Fern' }, { noAuth: true, headers: cookie === undefined ? {} : { cookie } });
      expect(expectError(await create(), 400)).toMatch(/session/);
      expect(expectError(await create('theme=dark; session=ab'), 400)).toMatch(/session/);
      expect((await create('theme=dark; session=abcd')).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});

describe('--watch', () => {
  /** Polls until `ready` holds; the limit is a safety net for a slow machine, not a timing. */
  async function eventually(what: string, ready: () => boolean | Promise<boolean>): Promise<void> {
    await vi.waitUntil(ready, { timeout: PATIENT_MS, interval: 50 }).catch(() => {
      throw new Error(`${what}: not within ${PATIENT_MS} ms`);
    });
  }

  it('follows an edited spec without a restart, keeps the store, and keeps the last good spec on a broken edit', async () => {
    const path = writeSpecVariant('no-security');
    let log = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    const mock = await createMockServer({ port: 0, logger: createLogger('info', out), spec: path, watch: true });
    try {
      const kept = freshId();
      expect((await post(mock, { id: kept, name: 'kept' }, {})).status).toBe(200);
      writeFileSync(path, readFileSync(writeSpecVariant('created-201'), 'utf8'));
      await eventually('the mock did not follow the edited spec', async () => (await post(mock, { id: freshId(), name: 'x' })).status === 201);
      expect(await listedPlantsText(mock)).toContain(`{"id":${kept},"name":"kept"}`);
      expect(expectError(await post(mock, { id: kept, name: 'again' }), 409)).toContain(`id ${kept} already exists`);

      writeFileSync(path, 'openapi: 3.1.0\npaths: [this is not\n');
      // The watcher has read the broken edit (it says so), and the last good spec is still served.
      await eventually('the watcher did not report the broken edit', () => log.includes('cannot be served'));
      expect((await post(mock, { id: freshId(), name: 'still served' })).status).toBe(201);
    } finally {
      await mock.close();
    }
  });
});

describe(SPEC_VARIANTS['json-with-charset'].change, () => {
  const on = onVariant('json-with-charset');
  it('the mock takes JSON bodies with or without the charset, stores them, and still refuses other media types', async () => {
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8']) {
      const id = freshId();
      const created = await send(on.current.mock, '/plants', { id, name: 'Ficus' }, { headers: bearer, contentType, noAuth: true });
      expect(created.status, contentType).toBe(200);
      expect(created.json).toStrictEqual({ name: 'Ficus' });
      expect(await listedPlantsText(on.current.mock)).toContain(`{"id":${id},"name":"Ficus"}`);
    }
    const refused = await send(on.current.mock, '/plants', { id: freshId(), name: 'Ficus' }, { headers: bearer, contentType: 'text/plain', noAuth: true });
    expect(expectError(refused, 415)).toContain('application/json');
  });
});
