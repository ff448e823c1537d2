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
