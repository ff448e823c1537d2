/**
 * Headers a response declares `required`: every answer in that response carries them — a
 * create's `Location` naming the new record, any other a value its schema allows (its pattern
 * too) — on stored, generated and forced answers alike; and stored records in the JSON media type
 * it declares.
 */
import { describe, expect, it } from 'vitest';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

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
            X-Trace: {required: true, schema: {type: string, pattern: '^trace-[0-9a-f]{8}$'}}
            X-Region: {required: true, schema: {type: string, pattern: '^[A-Z]{2}$', example: EU}}
            X-Banner: {required: true, schema: {type: string, example: "two\\nlines"}}
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
  /notes:
    get:
      operationId: listNotes
      responses:
        '200':
          description: ok
          content:
            application/vnd.api+json:
              schema: {type: object, properties: {data: {type: array, items: {$ref: '#/components/schemas/File'}}}}
    post:
      operationId: createNote
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/File'}
      responses:
        '201':
          description: created
          content:
            application/hal+json:
              schema: {$ref: '#/components/schemas/File'}
  /notes/{name}:
    get:
      operationId: getNote
      parameters:
        - {name: name, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: ok
          content:
            application/hal+json:
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

describe('headers the declared response asks for', () => {
  const mock = useMockForSpec(SPEC);

  it("a create's Location names the new record, readable there", async () => {
    const created = await send(mock.current, '/files', { name: 'a b.txt' });
    expect(created.status).toBe(201);
    const location = created.headers.get('location');
    expect(location).toBe('/files/a%20b.txt');
    const read = await sendGet(mock.current, location ?? '');
    expect([read.status, read.json]).toEqual([200, { name: 'a b.txt' }]);
  });

  it('a list and a forced error carry the headers their responses require, valid against the schema', async () => {
    const listed = await sendGet(mock.current, '/files');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(listed.headers.get('x-optional')).toBeNull();
    // A pattern the plain sample breaks gets a string made from it; the spec's own example stays where it has one.
    expect(listed.headers.get('x-trace')).toMatch(/^trace-[0-9a-f]{8}$/);
    expect(listed.headers.get('x-region')).toBe('EU');
    // An example no header can carry (a line break) is left out, not a failed answer.
    expect(listed.headers.get('x-banner')).toBeNull();
    const forced = await sendGet(mock.current, '/files', { headers: { prefer: 'code=429' } });
    expect(forced.status).toBe(429);
    expect(Number(forced.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('answers stored records in the JSON media type the response declares when it is not application/json', async () => {
    const created = await send(mock.current, '/notes', { name: 'n1' });
    expect([created.status, created.headers.get('content-type'), created.json]).toEqual([201, 'application/hal+json', { name: 'n1' }]);
    const listed = await sendGet(mock.current, '/notes');
    expect([listed.status, listed.headers.get('content-type'), listed.json]).toEqual([200, 'application/vnd.api+json', { data: [{ name: 'n1' }] }]);
    const read = await sendGet(mock.current, '/notes/n1');
    expect([read.status, read.headers.get('content-type'), read.json]).toEqual([200, 'application/hal+json', { name: 'n1' }]);
  });
});
