/**
 * A PUT that declares 201 beside 200 creates the record it names when none is stored (an upsert),
 * answered 201, then read and listed; a PUT declaring no 201 still answers 404 for it.
 */
import { describe, expect, it } from 'vitest';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

const item = (put: string) => `
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer}}
    get:
      operationId: get${put}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}}
    put:
      operationId: put${put}
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}
      responses:
        '200': {description: replaced, content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}}${
          put === 'Order'
            ? `
        '201': {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}}`
            : ''
        }`;
const collection = (name: string) => `
    get:
      operationId: list${name}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Order'}}}}}
    post:
      operationId: create${name}
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}}`;

const SPEC = `
openapi: 3.1.0
info: {title: Orders, version: "1"}
paths:
  /orders:${collection('Orders')}
  /orders/{id}:${item('Order')}
  /carts:${collection('Carts')}
  /carts/{id}:${item('Cart')}
components:
  schemas:
    Order:
      type: object
      required: [item]
      properties:
        id: {type: integer, readOnly: true}
        item: {type: string}
`;

describe('PUT to an id not stored', () => {
  const mock = useMockForSpec(SPEC);

  it('creates it with 201 where the PUT declares 201, then replaces it with 200', async () => {
    const created = await send(mock.current, '/orders/9', { item: 'tea' }, { method: 'PUT' });
    expect([created.status, created.json]).toEqual([201, { id: 9, item: 'tea' }]);
    const replaced = await send(mock.current, '/orders/9', { item: 'coffee' }, { method: 'PUT' });
    expect([replaced.status, replaced.json]).toEqual([200, { id: 9, item: 'coffee' }]);
    const listed = await sendGet(mock.current, '/orders');
    expect(listed.json).toEqual([{ id: 9, item: 'coffee' }]);
  });

  it('answers 404 where the PUT declares no 201', async () => {
    const missing = await send(mock.current, '/carts/9', { item: 'tea' }, { method: 'PUT' });
    expect(missing.status).toBe(404);
    expect((await sendGet(mock.current, '/carts')).json).toEqual([]);
  });
});
