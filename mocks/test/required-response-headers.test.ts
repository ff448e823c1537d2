/**
 * Headers a response declares `required`: every answer in that response carries them — a
 * create's `Location` naming the new record, any other a value its schema allows — on stored,
 * generated and forced answers alike.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { send } from './mock-under-test.js';

const SPEC = `
openapi: 3.1.0
info: {title: Vault, version: "1"}
paths:
  /files:
    get:
      operationId: listFiles
      responses:
        '200':
          description: ok
          headers:
            X-Request-Id: {required: true, schema: {type: string, format: uuid}}
            X-Optional: {schema: {type: string}}
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/File'}}
        '429':
          description: slow down
          headers:
            Retry-After: {$ref: '#/components/headers/RetryAfter'}
    post:
      operationId: createFile
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/File'}
      responses:
        '201':
          description: created
          headers:
            Location: {required: true, schema: {type: string}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/File'}
  /files/{name}:
    get:
      operationId: getFile
      parameters:
        - {name: name, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/File'}
components:
  headers:
    RetryAfter: {required: true, schema: {type: integer, minimum: 1}}
  schemas:
    File:
      type: object
      required: [name]
      properties:
        name: {type: string}
`;

describe('required response headers', () => {
  let dir: string;
  let mock: MockServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'required-headers-'));
    writeFileSync(join(dir, 'openapi.yaml'), SPEC);
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: join(dir, 'openapi.yaml') });
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a create's Location names the new record, readable there", async () => {
    const created = await send(mock, '/files', { name: 'a b.txt' });
    expect(created.status).toBe(201);
    const location = created.headers.get('location');
    expect(location).toBe('/files/a%20b.txt');
    const read = await send(mock, location ?? '', undefined, { method: 'GET', contentType: null });
    expect([read.status, read.json]).toEqual([200, { name: 'a b.txt' }]);
  });

  it('a list and a forced error carry the headers their responses require, valid against the schema', async () => {
    const listed = await send(mock, '/files', undefined, { method: 'GET', contentType: null });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(listed.headers.get('x-optional')).toBeNull();
    const forced = await send(mock, '/files', undefined, { method: 'GET', contentType: null, headers: { prefer: 'code=429' } });
    expect(forced.status).toBe(429);
    expect(Number(forced.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
