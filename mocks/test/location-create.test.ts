/**
 * A create whose only success answer is `201` with a `Location` header and no body (a common REST
 * style) is still a collection's create: the record is stored, its identity assigned where the
 * client does not send one, and `Location` names the item path, where it is then read and listed.
 * Where no schema declares the identity (`/notes/{noteId}`, a Note of `text` alone), the item
 * path's parameter is the identity: Location is the only place it shows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { send } from './mock-under-test.js';

const collection = (name: string, body: string) => `
    get:
      operationId: list${name}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/${name}'}}}}}
    post:
      operationId: create${name}
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/${body}'}}}
      responses:
        '201':
          description: created
          headers:
            Location: {required: true, schema: {type: string}}
        '400': {description: bad, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}`;
const item = (name: string, type: string) => `
    parameters:
      - {name: id, in: path, required: true, schema: {type: ${type}}}
    get:
      operationId: get${name}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/${name}'}}}}
        '404': {description: missing, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}`;

const SPEC = `
openapi: 3.1.0
info: {title: Located, version: "1"}
paths:
  /widgets:${collection('Widget', 'NewWidget')}
  /widgets/{id}:${item('Widget', 'integer')}
  /codes:${collection('Code', 'Code')}
  /codes/{id}:${item('Code', 'string')}
  /notes:${collection('Note', 'Note')}
  /notes/{noteId}:${item('Note', 'integer').replace('name: id,', 'name: noteId,')}
components:
  schemas:
    NewWidget:
      type: object
      required: [name]
      properties:
        name: {type: string}
    Widget:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
    Code:
      type: object
      required: [id, label]
      properties:
        id: {type: string}
        label: {type: string}
    Note:
      type: object
      required: [text]
      properties:
        text: {type: string}
    Error:
      type: object
      required: [message]
      properties:
        message: {type: string}
`;

describe('a create answering 201 with Location and no body', () => {
  let dir: string;
  let mock: MockServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'location-create-'));
    writeFileSync(join(dir, 'openapi.yaml'), SPEC);
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: join(dir, 'openapi.yaml') });
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string) => send(mock, path, undefined, { method: 'GET', contentType: null });

  it('stores the record under an assigned identity, names it in Location, then reads and lists it', async () => {
    const first = await send(mock, '/widgets', { name: 'gear' });
    expect([first.status, first.text, first.headers.get('location')]).toEqual([201, '', '/widgets/1']);
    const second = await send(mock, '/widgets', { name: 'cog' });
    expect([second.status, second.text, second.headers.get('location')]).toEqual([201, '', '/widgets/2']);
    const read = await get(second.headers.get('location') as string);
    expect([read.status, read.json]).toEqual([200, { id: 2, name: 'cog' }]);
    expect((await get('/widgets')).json).toEqual([
      { id: 1, name: 'gear' },
      { id: 2, name: 'cog' },
    ]);
    expect((await get('/__mock/widgets')).json).toEqual([
      { id: 1, name: 'gear' },
      { id: 2, name: 'cog' },
    ]);
  });

  it('keeps the identity the client sends, and Location names it', async () => {
    const created = await send(mock, '/codes', { id: 'a b', label: 'spaced' });
    expect([created.status, created.text, created.headers.get('location')]).toEqual([201, '', '/codes/a%20b']);
    const read = await get('/codes/a%20b');
    expect([read.status, read.json]).toEqual([200, { id: 'a b', label: 'spaced' }]);
    expect((await get('/codes')).json).toEqual([{ id: 'a b', label: 'spaced' }]);
    // Stored, so a second create of it is refused as one.
    expect((await send(mock, '/codes', { id: 'a b', label: 'again' })).status).toBe(409);
  });

  it('takes the item path parameter as the identity when no schema declares one', async () => {
    const created = await send(mock, '/notes', { text: 'first' });
    expect([created.status, created.text, created.headers.get('location')]).toEqual([201, '', '/notes/1']);
    expect((await send(mock, '/notes', { text: 'second' })).headers.get('location')).toBe('/notes/2');
    const read = await get('/notes/2');
    expect([read.status, read.json]).toEqual([200, { text: 'second' }]);
    expect((await get('/notes/3')).status).toBe(404);
    expect((await get('/notes')).json).toEqual([{ text: 'first' }, { text: 'second' }]);
    // The store keeps the identity with the record, as for any assigned one.
    expect((await get('/__mock/notes')).json).toEqual([
      { noteId: 1, text: 'first' },
      { noteId: 2, text: 'second' },
    ]);
  });
});
