/**
 * A list filtered by an int64 query parameter: records are kept by the exact number, not by the
 * double both it and its neighbour round to.
 */
import { describe, expect, it } from 'vitest';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

const SPEC = `
openapi: 3.1.0
info: {title: Parts, version: "1"}
paths:
  /parts:
    get:
      operationId: listParts
      parameters:
        - {name: serial, in: query, schema: {type: integer, format: int64}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Part'}}
    post:
      operationId: createPart
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Part'}
      responses:
        '201':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Part'}
  /parts/{id}:
    get:
      operationId: getPart
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Part'}
components:
  schemas:
    Part:
      type: object
      required: [serial]
      properties:
        id: {type: integer, readOnly: true}
        serial: {type: integer, format: int64}
`;

describe('an int64 filter', () => {
  const mock = useMockForSpec(SPEC);

  it('keeps only the record with that exact number', async () => {
    // 2^53 and 2^53 + 1: one double.
    expect((await send(mock.current, '/parts', '{"serial":9007199254740992}')).status).toBe(201);
    expect((await send(mock.current, '/parts', '{"serial":9007199254740993}')).status).toBe(201);
    const list = async (query: string) => (await sendGet(mock.current, `/parts${query}`)).text;
    expect(await list('?serial=9007199254740993')).toBe('[{"id":2,"serial":9007199254740993}]');
    expect(await list('?serial=9007199254740992')).toBe('[{"id":1,"serial":9007199254740992}]');
    expect(await list('?serial=7')).toBe('[]');
  });
});
