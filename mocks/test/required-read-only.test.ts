/**
 * Properties a record's answers require but no create can give (a readOnly `createdAt`, a `state`
 * only the answer declares): every answer — create, read, list, replace — carries them, valid
 * against the schema it is answered under.
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../openapi/operations/compile.js';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

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
  const mock = useMockForSpec(SPEC);

  it('every answer of a record carries them, valid against its schema', async () => {
    const operations = loadContract(mock.specFile).operations;
    const validator = (operationId: string, status: number) => operations.get(operationId)?.responses.get(status)?.content.get('application/json')?.validate;
    const created = await send(mock.current, '/keys', { kind: 'rsa', createdAt: '2020-01-01T00:00:00Z' });
    const read = await sendGet(mock.current, '/keys/1');
    const replaced = await send(mock.current, '/keys/1', { kind: 'ec' }, { method: 'PUT' });
    const listed = await sendGet(mock.current, '/keys');
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
