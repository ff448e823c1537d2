/**
 * Operations that declare their success only as a `2XX` range (and `default`): the mock answers
 * 200 in that range's shape, stores through them and lists through a wrapper the range declares.
 */
import { describe, expect, it } from 'vitest';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

const SPEC = `
openapi: 3.0.3
info: {title: Gadgets, version: "1"}
paths:
  /gadgets:
    get:
      operationId: listGadgets
      responses:
        2XX:
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  results: {type: array, items: {$ref: '#/components/schemas/Gadget'}}
        default: {$ref: '#/components/responses/Problem'}
    post:
      operationId: createGadget
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Gadget'}
      responses:
        2XX:
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Gadget'}
        '404': {$ref: '#/components/responses/Problem'}
  /gadgets/{gadgetId}:
    get:
      operationId: getGadget
      parameters:
        - {name: gadgetId, in: path, required: true, schema: {type: integer, format: int32}}
      responses:
        2XX:
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Gadget'}
        default: {$ref: '#/components/responses/Problem'}
  /status:
    get:
      operationId: getStatus
      responses:
        '404': {$ref: '#/components/responses/Problem'}
        2XX:
          description: ok
          content:
            application/json:
              schema: {type: object, required: [up], properties: {up: {type: boolean}}}
components:
  responses:
    Problem:
      description: error
      content:
        application/json:
          schema: {type: object, required: [reason], properties: {reason: {type: string}}}
  schemas:
    Gadget:
      type: object
      additionalProperties: false
      required: [name]
      properties:
        id: {type: integer, format: int32, readOnly: true}
        name: {type: string}
`;

describe('success declared only as 2XX', () => {
  const mock = useMockForSpec(SPEC);

  it('creates with 200 and the record as the range declares it, then reads and lists it', async () => {
    const created = await send(mock.current, '/gadgets', { name: 'lamp' });
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toBe('application/json');
    expect(created.json).toEqual({ id: 1, name: 'lamp' });
    const read = await sendGet(mock.current, '/gadgets/1');
    expect([read.status, read.json]).toEqual([200, { id: 1, name: 'lamp' }]);
    const listed = await sendGet(mock.current, '/gadgets');
    expect([listed.status, listed.json]).toEqual([200, { results: [{ id: 1, name: 'lamp' }] }]);
  });

  it('answers an operation from the spec with its 2XX, not the first error it declares', async () => {
    const status = await sendGet(mock.current, '/status');
    expect(status.status).toBe(200);
    expect(status.json).toEqual({ up: expect.any(Boolean) });
  });
});
