/**
 * Properties a record's answers require but no create can give (a readOnly `createdAt`, a `state`
 * only the answer declares): every answer — create, read, list, replace — carries them, valid
 * against the schema it is answered under.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../spec/contract.js';
import { createMockServer, type MockServer } from '../server.js';
import { send } from './mock-under-test.js';

const SPEC = `
openapi: 3.0.3
info: {title: Keys, version: "1"}
paths:
  /keys:
    get:
      operationId: listKeys
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Key'}}
    post:
      operationId: createKey
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/KeyBase'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Key'}
  /keys/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer}}
    get:
      operationId: getKey
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Key'}
    put:
      operationId: putKey
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/KeyBase'}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Key'}
components:
  schemas:
    KeyBase:
      type: object
      required: [kind]
      properties:
        id: {type: integer, readOnly: true}
        kind: {type: string}
        createdAt: {type: string, format: date-time, readOnly: true}
    Key:
      allOf:
        - $ref: '#/components/schemas/KeyBase'
        - type: object
          required: [id, createdAt, state]
          properties:
            state: {type: string, enum: [active, revoked]}
`;

describe('required properties no create can give', () => {
  let dir: string;
  let specFile: string;
  let mock: MockServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'required-read-only-'));
    specFile = join(dir, 'openapi.yaml');
    writeFileSync(specFile, SPEC);
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: specFile });
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every answer of a record carries them, valid against its schema', async () => {
    const operations = loadContract(specFile).operations;
    const validator = (operationId: string, status: number) => operations.get(operationId)?.responses.get(status)?.content.get('application/json')?.validate;
    const created = await send(mock, '/keys', { kind: 'rsa', createdAt: '2020-01-01T00:00:00Z' });
    const read = await send(mock, '/keys/1', undefined, { method: 'GET', contentType: null });
    const replaced = await send(mock, '/keys/1', { kind: 'ec' }, { method: 'PUT' });
    const listed = await send(mock, '/keys', undefined, { method: 'GET', contentType: null });
    const answers = [
      ['createKey', 201, created],
      ['getKey', 200, read],
      ['putKey', 200, replaced],
      ['listKeys', 200, listed],
    ] as const;
    for (const [operationId, status, answer] of answers) {
      expect(answer.status, operationId).toBe(status);
      const validate = validator(operationId, status);
      expect(validate?.(answer.json), `${operationId}: ${answer.text} ${JSON.stringify(validate?.errors)}`).toBe(true);
    }
    expect(read.json).toMatchObject({ id: 1, kind: 'rsa', state: 'active' });
    expect(listed.json).toEqual([replaced.json]);
  });
});
