/**
 * A list whose success response declares `X-Total-Count`: every answer carries the number of
 * records the filters let through, whole lists (streamed) and pages alike.
 */
import { describe, expect, it } from 'vitest';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

const SPEC = `
openapi: 3.1.0
info: {title: Books, version: "1"}
paths:
  /books:
    get:
      operationId: listBooks
      parameters:
        - {name: _limit, in: query, schema: {type: integer}}
        - {name: limit, in: query, schema: {type: integer}}
        - {name: genre, in: query, schema: {type: string}}
      responses:
        '200':
          description: ok
          headers:
            X-Total-Count: {schema: {type: integer}}
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Book'}}
    post:
      operationId: createBook
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Book'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Book'}
  /books/{id}:
    get:
      operationId: getBook
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Book'}
components:
  schemas:
    Book:
      type: object
      required: [genre]
      properties:
        id: {type: integer, readOnly: true}
        genre: {type: string}
`;

describe('X-Total-Count on a list', () => {
  const mock = useMockForSpec(SPEC);

  it('counts the records of the whole list, of a page, and of a filter', async () => {
    const get = (query: string) => sendGet(mock.current, `/books${query}`);
    expect((await get('')).headers.get('x-total-count')).toBe('0');
    for (const genre of ['sf', 'sf', 'poetry']) expect((await send(mock.current, '/books', { genre })).status).toBe(201);
    const whole = await get('');
    expect([whole.json.length, whole.headers.get('x-total-count')]).toEqual([3, '3']);
    const page = await get('?limit=1');
    expect([page.json.length, page.headers.get('x-total-count')]).toEqual([1, '3']);
    const filtered = await get('?genre=sf&limit=1');
    expect([filtered.json.length, filtered.headers.get('x-total-count')]).toEqual([1, '2']);
  });
});
