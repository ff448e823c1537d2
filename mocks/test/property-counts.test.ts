/**
 * A stored record answered through a schema that bounds how many members an object has (CAMARA
 * QoD's SessionInfo.device: Device, minProperties 1, narrowed to maxProperties 1 by
 * DeviceResponse), over real HTTP: the answer keeps one of the identifiers the client wrote,
 * never an empty object.
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../openapi/operations/compile.js';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

const SPEC = `
openapi: 3.0.3
info: {title: Sessions, version: "1"}
paths:
  /sessions:
    post:
      operationId: createSession
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/CreateSession'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/SessionInfo'}
  /sessions/{sessionId}:
    get:
      operationId: getSession
      parameters:
        - {name: sessionId, in: path, required: true, schema: {type: string, format: uuid}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/SessionInfo'}
components:
  schemas:
    Device:
      type: object
      minProperties: 1
      properties:
        phoneNumber: {type: string, pattern: '^\\+[1-9][0-9]{4,14}$', example: '+123456789'}
        ipv4Address: {type: object, properties: {publicAddress: {type: string, format: ipv4}}}
        ipv6Address: {type: string, format: ipv6}
    DeviceResponse:
      allOf:
        - $ref: '#/components/schemas/Device'
        - maxProperties: 1
    CreateSession:
      type: object
      required: [duration]
      properties:
        device: {$ref: '#/components/schemas/Device'}
        duration: {type: integer, minimum: 1}
    SessionInfo:
      type: object
      required: [sessionId, duration]
      properties:
        sessionId: {type: string, format: uuid}
        device: {$ref: '#/components/schemas/DeviceResponse'}
        duration: {type: integer, minimum: 1}
`;

describe('an answer whose object member is bounded by maxProperties and minProperties', () => {
  const mock = useMockForSpec(SPEC);

  it('answers one of the identifiers written, valid against the schema, on create and on read', async () => {
    const device = { phoneNumber: '+3912345678', ipv4Address: { publicAddress: '203.0.113.7' }, ipv6Address: '2001:db8::1' };
    const created = await send(mock.current, '/sessions', { device, duration: 60 });
    expect(created.status, created.text).toBe(201);
    const validate = loadContract(mock.specFile).operations.get('getSession')?.responses.get(200)?.content.get('application/json')?.validate;
    const read = await sendGet(mock.current, `/sessions/${created.json.sessionId as string}`);
    expect(read.status, read.text).toBe(200);
    for (const answer of [created.json, read.json]) {
      expect(validate?.(answer), JSON.stringify([answer, validate?.errors])).toBe(true);
      expect(Object.entries(answer.device as object)).toHaveLength(1);
      const [name, value] = Object.entries(answer.device as object)[0] as [keyof typeof device, unknown];
      expect(value).toEqual(device[name]);
    }
  });
});
