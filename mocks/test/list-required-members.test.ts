/**
 * A list wrapped in an object whose schema requires members the mock has no rule for and the
 * spec gives no example of: each answer still carries them, valid against the schema, and a
 * "there is more" boolean says whether a page follows.
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../openapi/operations/compile.js';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

const SPEC = `
openapi: 3.1.0
info: {title: Vault, version: "1"}
paths:
  /files:
    get:
      operationId: listFiles
      parameters:
        - {name: limit, in: query, schema: {type: integer, default: 2}}
        - {name: offset, in: query, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                required: [entries, hasMore, generatedAt, region, flags]
                properties:
                  entries: {type: array, items: {$ref: '#/components/schemas/File'}}
                  hasMore: {type: boolean}
                  generatedAt: {type: string, format: date-time}
                  region: {type: string, enum: [eu, us]}
                  flags: {type: array, items: {type: string}}
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
          content:
            application/json:
              schema: {$ref: '#/components/schemas/File'}
components:
  schemas:
    File:
      type: object
      required: [id, kind]
      properties:
        id: {type: string}
        kind: {type: string}
`;

describe('a wrapped list with required members of its own', () => {
  const mock = useMockForSpec(SPEC);

  it('answers every page valid against the schema, with hasMore saying whether a page follows', async () => {
    for (const id of ['a', 'b', 'c']) expect((await send(mock.current, '/files', { id, kind: 'doc' })).status).toBe(201);
    const operation = loadContract(mock.specFile).operations.get('listFiles');
    const validate = operation?.responses.get(200)?.content.get('application/json')?.validate;
    expect(validate).toBeDefined();
    const first = await sendGet(mock.current, '/files');
    const last = await sendGet(mock.current, '/files?offset=2');
    for (const page of [first, last]) {
      expect(page.status).toBe(200);
      expect(validate?.(page.json), JSON.stringify([page.json, validate?.errors])).toBe(true);
    }
    expect([first.json.entries.length, first.json.hasMore]).toEqual([2, true]);
    expect([last.json.entries, last.json.hasMore]).toEqual([[{ id: 'c', kind: 'doc' }], false]);
  });
});

/**
 * gotify's PagedMessages: the wrapper requires `paging`, an object whose own required members
 * (size, since, limit) sit beside an optional `next` link. The link is the mock's to fill or leave
 * out; the object's required members are still answered.
 */
const NESTED_PAGING = `
openapi: 3.1.0
info: {title: Messages, version: "1"}
paths:
  /message:
    get:
      operationId: getMessages
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 200, default: 100}}
        - {name: since, in: query, schema: {type: integer, minimum: 0}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [paging, messages]
                properties:
                  messages: {type: array, readOnly: true, items: {$ref: '#/components/schemas/Message'}}
                  paging: {$ref: '#/components/schemas/Paging'}
    post:
      operationId: createMessage
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Message'}
      responses:
        '200':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Message'}
components:
  schemas:
    Message:
      type: object
      required: [message]
      properties:
        id: {type: integer, readOnly: true}
        message: {type: string}
    Paging:
      type: object
      required: [size, since, limit]
      properties:
        limit: {type: integer, minimum: 1, maximum: 200, readOnly: true, example: 123}
        next: {type: string, readOnly: true, example: "/message?limit=50&since=123456"}
        since: {type: integer, minimum: 0, readOnly: true, example: 5}
        size: {type: integer, readOnly: true, example: 5}
`;

describe('a wrapped list whose required object member holds a page link', () => {
  const mock = useMockForSpec(NESTED_PAGING);

  it('answers the object with its required members, with or without a next page', async () => {
    for (const message of ['a', 'b', 'c']) expect((await send(mock.current, '/message', { message })).status).toBe(200);
    const validate = loadContract(mock.specFile).operations.get('getMessages')?.responses.get(200)?.content.get('application/json')?.validate;
    expect(validate).toBeDefined();
    for (const path of ['/message', '/message?limit=2']) {
      const page = await sendGet(mock.current, path);
      expect(page.status).toBe(200);
      expect(validate?.(page.json), JSON.stringify([path, page.json, validate?.errors])).toBe(true);
    }
  });
});
