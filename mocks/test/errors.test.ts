/**
 * The error catalogue stays honest: every entry yields a body in the spec's Error shape, and
 * docs/errors.md lists exactly its codes with their statuses.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../openapi/operations/compile.js';
import { errorBody, errorCatalogue, FORCEABLE_STATUSES, forcedRejection, reject, type ErrorCode } from '../errors.js';
import { forceableStatuses, forceProblem, parsePrefer } from '../engine/prefer.js';

const isSpecError = loadContract().componentValidator('Error');

/** Parameters that fill every template of the catalogue. */
const sampleParams = {
  method: 'GET',
  path: '/x',
  allow: 'POST, OPTIONS',
  realm: 'plant-store',
  scheme: 'Bearer',
  sent: 'Basic',
  expected: "'Authorization: Bearer <token>'",
  api: 'Plant Store',
  operations: 'POST /plants',
  operationId: 'createPlant',
  schema: 'NewPlant',
  example: '{"id":1,"name":"Monstera"}',
  resource: 'NewPlant',
  noun: 'plant',
  listing: '/__mock/plants',
  parameter: 'plantId',
  list: 'GET /plants',
  property: 'id',
  key: '7',
  inPath: '7',
  inBody: '8',
  accepted: 'application/json',
  accept: 'text/html',
  available: ['application/json'],
  notFromStore: [],
  reason: 'it is not accepted',
  contentType: 'text/plain',
  charset: 'latin1',
  limit: 10,
  detail: 'something broke',
  kind: 'a TypeError',
  problems: ['id is required'],
  problem: 'code=418 is not forceable',
  ids: ['7'],
  status: 409,
  title: 'a title',
  host: 'evil.test:4010',
  origin: 'http://evil.test',
  expect: 'teapot',
  encoding: 'gzip',
  upstream: 'https://staging.example/v1',
  ms: 5000,
  operation: 'createPlant (POST /plants)',
  declared: '200, 400',
  what: 'response body',
  violation: "The upstream's 400 answer to createPlant (POST /plants) is not a valid Error: message is required.",
  more: 2,
  route: '/__mock/requests',
  seq: 12,
  reasons: ["2 requests to the mock's own routes"],
  member: 'id',
  pointer: '/id',
  pointers: ['/password'],
  headers: ['retry-after'],
  header: 'x-total-count',
  value: '"many"',
};

describe('error catalogue', () => {
  const codes = Object.keys(errorCatalogue) as ErrorCode[];

  it.each(codes.filter((code) => code !== 'FORCED'))('%s renders an Error body with an error status and a full sentence', (code) => {
    const rejection = (reject as (c: ErrorCode, p: unknown) => ReturnType<typeof reject>)(code, sampleParams);
    expect(rejection.status).toBeGreaterThanOrEqual(400);
    expect(rejection.status).toBeLessThan(600);
    expect(rejection.message).toMatch(/^[A-Z'].{15,}[.]$/s);
    expect(rejection.message).not.toContain('undefined');
    const body = JSON.parse(errorBody(rejection));
    expect(isSpecError(body)).toBe(true);
    expect(body).toEqual({ error: rejection.status, message: rejection.message });
  });

  it('never tells a client that nothing was stored when the store may have applied the change', () => {
    const unsent = reject('STORE_UNAVAILABLE', {});
    const unacknowledged = reject('STORE_UNAVAILABLE', { maybeApplied: true });
    expect(unsent.message).toContain('Nothing was stored');
    expect(unacknowledged.message).not.toMatch(/nothing was stored/i);
    expect(unacknowledged.message).toContain('may or may not have been applied');
    for (const rejection of [unsent, unacknowledged]) {
      expect(rejection.status).toBe(503);
      expect(rejection.headers).toEqual({ 'retry-after': '1' });
      expect(isSpecError(JSON.parse(errorBody(rejection)))).toBe(true);
    }
  });

  it('gives every 401 a challenge (RFC 7235) and every 405 an Allow header', () => {
    for (const code of codes.filter((c) => c !== 'FORCED')) {
      const rejection = (reject as (c: ErrorCode, p: unknown) => ReturnType<typeof reject>)(code, sampleParams);
      if (rejection.status === 401) expect(rejection.headers?.['www-authenticate']).toMatch(/^Bearer realm="/);
      if (rejection.status === 405) expect(rejection.headers?.allow).toBeTruthy();
    }
  });

  it.each([...FORCEABLE_STATUSES])('has a forced example for %i in the Error shape', (status) => {
    const rejection = forcedRejection(status, { allow: 'POST, OPTIONS', challengeScheme: 'Bearer', realm: 'plant-store' });
    expect(rejection.status).toBe(status);
    expect(isSpecError(JSON.parse(errorBody(rejection)))).toBe(true);
    expect(rejection.message).not.toContain('forced response.'); // each forceable status has its own title
  });

  it('can force every status POST /plants answers by itself', () => {
    // Admin-route answers and connection-level answers (before any route) are not the API's table.
    const notTheTable = new Set<ErrorCode>([
      'FORCED',
      'INVALID_SEED',
      'ADMIN_UNAUTHORIZED',
      'ADMIN_ORIGIN_NOT_ALLOWED',
      'HEADERS_TOO_LARGE',
      'REQUEST_TIMEOUT',
      // Answered before any route, to every route: the edge's, not the API's.
      'HOST_NOT_ALLOWED',
      'EXPECTATION_FAILED',
      'CONNECT_NOT_SUPPORTED',
    ]);
    const ownStatuses = new Set((Object.keys(errorCatalogue) as ErrorCode[]).filter((code) => !notTheTable.has(code)).map((code) => errorCatalogue[code].status));
    for (const status of ownStatuses) expect(FORCEABLE_STATUSES).toContain(status);
  });
});

describe('INVALID_PREFER', () => {
  it("lists every status the operation can be forced to, however many (the mock's own sentence is not cut)", () => {
    const forceable = forceableStatuses([200, 400, 401, 404, 405, 409, 413, 415, 422, 429, 500, 502, 503, 504]);
    const message = JSON.parse(errorBody(reject('INVALID_PREFER', { problem: forceProblem(418, forceable, { responses: new Map() }) as string }))).message as string;
    for (const status of forceable) expect(message).toContain(String(status));
    expect(message).not.toContain('…');
  });

  it('still cuts what the client wrote to 100 characters', () => {
    const problem = parsePrefer(`code=${'9'.repeat(500)}`).problem as string;
    const message = JSON.parse(errorBody(reject('INVALID_PREFER', { problem }))).message as string;
    expect(message.length).toBeLessThan(300);
    expect(message).toContain('…');
  });
});

describe('INVALID_PREFER of a header with many bad parts', () => {
  it('names a few and counts the rest', () => {
    const problem = parsePrefer(Array.from({ length: 500 }, (_, i) => `code=x${i}`).join(', ')).problem as string;
    expect(problem.length).toBeLessThan(300);
    expect(problem).toContain('(497 more)');
  });
});

describe('docs/errors.md', () => {
  // Its table rows: | `CODE` | status | when | what to do |
  const rows = [...readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8').matchAll(/^\| `([A-Z0-9_]+)` *\| *([^|]+?) *\|/gm)].map(
    ([, code, status]) => [code as string, (status as string).trim()] as const,
  );

  it('lists every code of the catalogue once, and no other', () => {
    const listed = rows.map(([code]) => code);
    expect(new Set(listed).size, 'a code listed twice').toBe(listed.length);
    expect([...listed].sort()).toEqual(Object.keys(errorCatalogue).sort());
  });

  it("gives each code the catalogue's status", () => {
    for (const [code, status] of rows) {
      const fixed = errorCatalogue[code as ErrorCode].status;
      // FORCED answers whatever status Prefer asked for (its entry says 0).
      expect(status, code).toBe(fixed === 0 ? 'the status asked' : String(fixed));
    }
  });
});
