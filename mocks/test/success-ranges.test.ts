/**
 * Operations that declare their success only as a `2XX` range (and `default`): the mock answers
 * 200 in that range's shape, stores through them and lists through a wrapper the range declares.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { send } from './mock-under-test.js';

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
  let dir: string;
  let mock: MockServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'success-ranges-'));
    writeFileSync(join(dir, 'openapi.yaml'), SPEC);
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: join(dir, 'openapi.yaml') });
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates with 200 and the record as the range declares it, then reads and lists it', async () => {
    const created = await send(mock, '/gadgets', { name: 'lamp' });
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toBe('application/json');
    expect(created.json).toEqual({ id: 1, name: 'lamp' });
    const read = await send(mock, '/gadgets/1', undefined, { method: 'GET', contentType: null });
    expect([read.status, read.json]).toEqual([200, { id: 1, name: 'lamp' }]);
    const listed = await send(mock, '/gadgets', undefined, { method: 'GET', contentType: null });
    expect([listed.status, listed.json]).toEqual([200, { results: [{ id: 1, name: 'lamp' }] }]);
  });

  it('answers an operation from the spec with its 2XX, not the first error it declares', async () => {
    const status = await send(mock, '/status', undefined, { method: 'GET', contentType: null });
    expect(status.status).toBe(200);
    expect(status.json).toEqual({ up: expect.any(Boolean) });
  });
});
