/**
 * An error schema whose required member is an enum naming the side at fault (`kind: [client,
 * server]`): the mock's own answers pick the value that fits their status, not the first listed.
 */
import { describe, expect, it } from 'vitest';
import { sendGet, useMockForSpec } from './mock-under-test.js';

const SPEC = `
openapi: 3.0.3
info: {title: Gadgets, version: "1"}
paths:
  /status:
    get:
      operationId: getStatus
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {up: {type: boolean}}}
        default:
          description: error
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                required: [kind, code, reason]
                properties:
                  kind: {type: string, enum: [client, server]}
                  code: {type: string, enum: ['400', '404', '500', '503', other]}
                  reason: {type: string}
`;

describe('an error enum naming the side at fault', () => {
  const mock = useMockForSpec(SPEC);

  it.each([
    [500, 'server', '500'],
    [503, 'server', '503'],
    [400, 'client', '400'],
    [429, 'client', 'other'],
  ])('a forced %i says kind %s, code %s', async (status, kind, code) => {
    const answer = await sendGet(mock.current, '/status', { headers: { prefer: `code=${status}` } });
    expect(answer.status).toBe(status);
    expect(answer.json).toEqual({ kind, code, reason: expect.any(String) });
  });
});
