/**
 * How the mock words a refused integer or a repeated parameter, over HTTP: one sentence per
 * value. An int32 with its own bounds past both used to get two overlapping sentences (`must be
 * <= 100; … must be an integer from -2147483648 to 2147483647`), and `?limit=1&limit=2` was
 * said to be "an array".
 */
import { describe, expect, it } from 'vitest';
import { expectError, send, useMockForSpec } from './mock-under-test.js';

const SPEC = `
openapi: 3.1.0
info: {title: Counters, version: "1"}
paths:
  /counters:
    post:
      operationId: addCounter
      parameters:
        - {name: limit, in: query, schema: {type: integer, format: int32, minimum: 1, maximum: 100}}
        - {name: q, in: query, schema: {type: string}}
        - {name: tags, in: query, schema: {type: array, items: {type: string}}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                count: {type: integer, format: int32}
                step: {type: [integer, 'null'], format: int32, exclusiveMinimum: 0}
                big: {type: integer, format: int64, maximum: 1000}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
`;

describe('the words for a refused integer', () => {
  const mock = useMockForSpec(SPEC);
  const post = (query: string, body: string) => send(mock.current, `/counters${query}`, body);

  it.each([
    ['an int32 parameter past its format and its maximum', '?limit=2147483648', '{}', 'query parameter limit must be an integer from 1 to 100'],
    ['an int32 parameter below both', '?limit=-2147483649', '{}', 'query parameter limit must be an integer from 1 to 100'],
    ['an int32 parameter with a fraction past its maximum', '?limit=150.5', '{}', 'query parameter limit must be an integer from 1 to 100, got the number 150.5'],
    ['an int32 with a fraction past the format', '', '{"count":2147483647.5}', 'count must be an integer from -2147483648 to 2147483647, got the number 2147483647.5'],
    ['an int32 or null with an exclusive minimum', '', '{"step":-2147483649}', 'step must be an integer from 1 to 2147483647'],
    ['an int64 past its format and its maximum', '', '{"big":9223372036854775808}', 'big must be an integer from -9223372036854775808 to 1000'],
  ])('says %s in one sentence', async (_what, query, body, sentence) => {
    const message = expectError(await post(query, body), 400);
    expect(message).toMatch(/: [^;]*[.]$/);
    expect(message).toContain(`${sentence}.`);
  });

  it('keeps the one sentence a single fault gets', async () => {
    expect(expectError(await post('?limit=101', '{}'), 400)).toContain('query parameter limit must be <= 100.');
    expect(expectError(await post('', '{"count":2147483648}'), 400)).toContain('count must be an integer from -2147483648 to 2147483647.');
  });

  it('says a fraction inside the range once, without the range', async () => {
    const message = expectError(await post('', '{"count":1.5}'), 400);
    expect(message).toBe('The request body is not a valid request body: count must be an integer, got the number 1.5.');
  });
});

describe('the words for a parameter sent more than once', () => {
  const mock = useMockForSpec(SPEC);
  const post = (query: string) => send(mock.current, `/counters${query}`, '{}');

  it.each([
    ['an integer', '?limit=1&limit=2', 'limit'],
    ['a string', '?q=a&q=b&q=c', 'q'],
  ])('says that %s taking one value was sent more than once', async (_what, query, name) => {
    const message = expectError(await post(query), 400);
    expect(message).toBe(`The request's parameters do not fit the spec: query parameter ${name} was sent more than once but takes one value.`);
    expect(message).not.toContain('array');
  });

  it('still takes a repeated array parameter, and still judges a value sent once', async () => {
    const taken = await post('?tags=a&tags=b');
    expect(taken.status, taken.text).toBe(200);
    expect(expectError(await post('?limit=x'), 400)).toContain('query parameter limit must be an integer, got the string "x"');
  });
});
