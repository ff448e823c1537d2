/**
 * response_headers_conformance: an answer carries every header the spec marks `required` for its
 * status, and each declared header it carries is valid against its schema, read as OpenAPI writes a
 * header (style simple). A provider that leaves a create's required Location out fails it, naming the
 * header; one whose rate limit says `lots`, or whose exploded object header is written unexploded,
 * fails naming the header and its value; one that sends every header right, in its own letter case,
 * spaced after the commas and beside headers of its own, passes; and the stateful mock, serving the
 * same spec, passes it. Against a small notes provider of the test's own (node:http, in memory) and
 * the mock over real HTTP.
 */
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { runContractSuite, type ContractReport } from '../index.js';
import { json, NOTE, notesProvider, writeNotesSpec } from './providers/notes-provider.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const specFile = writeNotesSpec('response-headers', {
  create: {
    '201': {
      description: 'Created',
      headers: {
        Location: { required: true, schema: { type: 'string' } },
        'X-Request-Id': { schema: { type: 'string', format: 'uuid' } },
      },
      content: json(NOTE),
    },
    '400': { description: 'Invalid', content: json({ type: 'object', properties: { message: { type: 'string' } } }) },
  },
  read: {
    '200': {
      description: 'The note',
      headers: {
        'X-Rate-Limit': { required: true, schema: { type: 'integer', minimum: 1 } },
        'X-Quota': { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
        'X-Window': {
          required: true,
          explode: true,
          schema: { type: 'object', required: ['limit', 'remaining'], properties: { limit: { type: 'integer' }, remaining: { type: 'integer' } }, additionalProperties: false },
        },
      },
      content: json(NOTE),
    },
    '404': { description: 'None' },
  },
});
const OPTIONS = { spec: specFile, seed: 5, generated: { positive: 3, negative: 3 } };

const RIGHT = { location: 'Location', requestId: '0b6f7a0e-3c1d-4f3e-9a51-7d2b1c4e5f60', rateLimit: '100', window: 'limit=100, remaining=99', quota: '{"id": 1, "title": "daily"}' };

/** The notes provider sending these headers (a name: the letter case it sends it in; undefined: left out). */
function runAgainst(headers: { location?: string; requestId?: string; rateLimit?: string; window?: string; quota?: string; rateLimitName?: string }): Promise<ContractReport> {
  const { location, requestId, rateLimit, window, quota, rateLimitName = 'X-Rate-Limit' } = headers;
  const read: Record<string, string> = {};
  if (rateLimit !== undefined) read[rateLimitName] = rateLimit;
  if (window !== undefined) read['x-window'] = window;
  if (quota !== undefined) read['x-quota'] = quota;
  return runSuiteAgainst(
    notesProvider({
      createdHeaders: (id) => ({
        ...(location ? { [location]: `/notes/${id}` } : {}),
        ...(requestId ? { 'X-Request-Id': requestId } : {}),
        'x-served-by': 'notes-1',
      }),
      readHeaders: read,
    }),
    OPTIONS,
  );
}

const failed = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`);
const judged = (report: ContractReport): number | undefined => report.checks.find((c) => c.name === 'response_headers_conformance')?.judged;

describe('response_headers_conformance', () => {
  it('passes a provider sending every declared header right, in its own letter case, spaced after commas, beside headers of its own', async () => {
    const report = await runAgainst({ ...RIGHT, location: 'LOCATION', rateLimitName: 'x-rate-limit' });
    expect(failed(report)).toEqual([]);
    expect(judged(report)).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });

  it("fails a provider leaving a create's required Location out, and one leaving a read's X-Rate-Limit out", async () => {
    const noLocation = failed(await runAgainst({ ...RIGHT, location: undefined }));
    expect(noLocation.length).toBeGreaterThan(0);
    expect(new Set(noLocation)).toEqual(new Set(["response_headers_conformance: The 201 answer has no 'location' header; the spec marks it required for 201."]));
    const noRateLimit = failed(await runAgainst({ ...RIGHT, rateLimit: undefined }));
    expect(new Set(noRateLimit)).toEqual(new Set(["response_headers_conformance: The 200 answer has no 'x-rate-limit' header; the spec marks it required for 200."]));
  });

  it('fails a header whose value its schema refuses, naming the header and quoting the value: required or not, scalar or object', async () => {
    const lots = failed(await runAgainst({ ...RIGHT, rateLimit: 'lots' }));
    expect(lots.length).toBeGreaterThan(0);
    expect(
      lots.every((message) => message.startsWith(`response_headers_conformance: The 200 answer's 'x-rate-limit' header "lots" is not what the spec declares for 200: `) && message.includes('integer')),
    ).toBe(true);
    const zero = failed(await runAgainst({ ...RIGHT, rateLimit: '0' }));
    expect(zero.length).toBeGreaterThan(0);
    expect(zero.every((message) => message.includes(`'x-rate-limit' header "0"`) && message.endsWith('the value must be >= 1.'))).toBe(true);
    // Not required, but declared: a value it carries is judged all the same.
    const requestId = failed(await runAgainst({ ...RIGHT, requestId: 'request-7' }));
    expect(requestId.length).toBeGreaterThan(0);
    expect(requestId.every((message) => message.includes(`The 201 answer's 'x-request-id' header "request-7"`) && message.includes('uuid'))).toBe(true);
    // Declared exploded (limit=100,remaining=99): the unexploded form is not the object the spec describes.
    const unexploded = failed(await runAgainst({ ...RIGHT, window: 'limit,100,remaining,99' }));
    expect(unexploded.length).toBeGreaterThan(0);
    expect(unexploded.every((message) => message.includes(`The 200 answer's 'x-window' header "limit,100,remaining,99"`))).toBe(true);
    // A `content` header is a JSON document of its schema (a component, by $ref).
    const quota = failed(await runAgainst({ ...RIGHT, quota: '{"id": "one", "title": "daily"}' }));
    expect(quota.length).toBeGreaterThan(0);
    expect(quota.every((message) => message.includes(`The 200 answer's 'x-quota' header`) && message.includes('id must be'))).toBe(true);
  });

  it('passes the stateful mock serving the same spec', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: specFile });
    try {
      const report = await runContractSuite({ ...OPTIONS, baseUrl: mock.url, token: '' });
      expect(failed(report)).toEqual([]);
      expect(judged(report)).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });
});
