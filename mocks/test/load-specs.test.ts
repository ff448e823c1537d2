/**
 * Loading what users have, as they run it: each corpus spec served over real HTTP (3.0 and Swagger
 * 2.0 upgraded, a sibling file bundled, operations without operationId), and a spec that cannot
 * be loaded ending the CLI with exit 1 and one line naming the document, the JSON pointer and the
 * reason.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { send, useMock } from './mock-under-test.js';
import { MOCK_CLI, run } from './processes.js';
import { startPrismMock } from '../prism/server.js';

const corpus = (name: string): string => fileURLToPath(new URL(`../../fixtures/specs/${name}`, import.meta.url));

describe('a 3.1 spec with schemas in a sibling file and an x- extension referring to Markdown', () => {
  const mock = useMock({ spec: corpus('external-ref/openapi.yaml') });
  it('starts, and judges bodies by the bundled schemas', async () => {
    const valid = await send(mock.current, '/entries', { plant: 'tomato', note: 'first flowers' });
    expect(valid.status, valid.text).toBe(201);
    const invalid = await send(mock.current, '/entries', { plant: '', note: 'first flowers' });
    expect(invalid.status, invalid.text).toBe(400);
    expect(invalid.text).toMatch(/plant must have at least 1 character\b/);
  });
});

describe('a Swagger 2.0 spec', () => {
  const mock = useMock({ spec: corpus('swagger-2.0/swagger.yaml') });
  it('is upgraded and served: its body parameter is the request body, its csv array parameter read as one', async () => {
    const created = await send(mock.current, '/seeds', { id: 1, kind: 'bean' });
    expect(created.status, created.text).toBe(201);
    expect((await send(mock.current, '/seeds', { id: 'one', kind: 'bean' })).status).toBe(400);
    const listed = await fetch(`${mock.current.url}/seeds?kinds=bean,pea`);
    expect(listed.status).toBe(200);
  });
});

describe('operations without operationId', () => {
  const mock = useMock({ spec: corpus('no-operation-ids/openapi.yaml') });
  it('are served, each by its generated id', async () => {
    expect((await fetch(`${mock.current.url}/notes`)).status).toBe(200);
    const created = await send(mock.current, '/notes', { id: 1, text: 'a heron' });
    expect(created.status, created.text).toBe(201);
    expect((await send(mock.current, '/notes/7/pin', undefined, { method: 'PUT', contentType: null })).status).toBe(204);
    expect((await send(mock.current, '/notes/7/pin', undefined, { contentType: null })).status).toBe(204);
    const operations = mock.current.engine.routes.operations.map((o) => o.operationId);
    expect(operations).toEqual(expect.arrayContaining(['get_notes', 'post_notes', 'post_notes_note_id_pin', 'post_notes_note_id_pin_2', 'get_ping']));
  });
});

describe('a spec that cannot be loaded', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-load-'));
  it.each([
    [
      'a remote ref',
      'remote.yaml',
      { openapi: '3.1.0', paths: { '/x': { get: { responses: { '200': { $ref: 'https://example.com/r.yaml' } } } } } },
      /remote\.yaml#\/paths\/~1x\/get\/responses\/200: refers to https:\/\/example\.com\/r\.yaml; remote references are not fetched/,
    ],
    ['an OpenAPI 2.5', 'v25.yaml', { openapi: '2.5', paths: {} }, /v25\.yaml#\/openapi: says "2\.5"; the tools read OpenAPI 3\.1 and 3\.0 and Swagger 2\.0 documents/],
    [
      'a missing sibling file',
      'sibling.yaml',
      { openapi: '3.0.3', paths: { '/x': { get: { responses: { '200': { $ref: './gone.yaml' } } } } } },
      /sibling\.yaml#\/paths\/~1x\/get\/responses\/200: cannot bundle \.\/gone\.yaml/,
    ],
  ])('ends the CLI with exit 1 naming the document, the pointer and the reason: %s', async (_what, name, document, message) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(document));
    const { code, output } = await run(process.execPath, [MOCK_CLI, '--port', '0', '--spec', path], {}, 30_000);
    expect(output).toMatch(message);
    expect(output).not.toMatch(/\n\s+at /);
    expect(code).toBe(1);
  });
});

describe('the Prism mock on a 3.0 spec and on one with a sibling file', () => {
  it.each([
    ['petstore-expanded-3.0/openapi.yaml', '/pets', 200],
    ['external-ref/openapi.yaml', '/entries', 200],
  ])('serves %s from the contract it was compiled to', async (spec, path, status) => {
    const prism = await startPrismMock({ port: 0, spec: corpus(spec) });
    try {
      const answer = await fetch(`${prism.url}${path}`);
      expect(answer.status, await answer.text()).toBe(status);
    } finally {
      await prism.close();
    }
  });
});
