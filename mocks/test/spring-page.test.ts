/**
 * A Spring Data style page (`{content, totalElements, totalPages}`): the total and the page count
 * are the store's, whatever the page asked for.
 */
import { describe, expect, it } from 'vitest';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

const SPEC = `
openapi: 3.1.0
info: {title: Spring, version: "1"}
paths:
  /orders:
    get:
      operationId: listOrders
      parameters:
        - {name: page, in: query, schema: {type: integer, minimum: 0, default: 0}}
        - {name: size, in: query, schema: {type: integer, default: 2}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [content, totalElements, totalPages]
                properties:
                  content: {type: array, items: {$ref: '#/components/schemas/Order'}}
                  totalElements: {type: integer, format: int64}
                  totalPages: {type: integer}
                  size: {type: integer}
                  number: {type: integer}
    post:
      operationId: createOrder
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Order'}
      responses:
        '201':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Order'}
  /orders/{id}:
    get:
      operationId: getOrder
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Order'}
components:
  schemas:
    Order:
      type: object
      required: [item]
      properties:
        id: {type: integer, readOnly: true}
        item: {type: string}
`;

describe('a Spring Data style page', () => {
  const mock = useMockForSpec(SPEC);

  it('fills totalElements and totalPages from the store', async () => {
    for (const item of ['a', 'b', 'c', 'd', 'e']) expect((await send(mock.current, '/orders', { item })).status).toBe(201);
    const first = await sendGet(mock.current, '/orders');
    expect(first.json).toMatchObject({ totalElements: 5, totalPages: 3, size: 2 });
    expect(first.json.content).toHaveLength(2);
    const last = await sendGet(mock.current, '/orders?page=2&size=4');
    expect(last.json).toMatchObject({ totalElements: 5, totalPages: 2, size: 4, content: [] });
  });
});
