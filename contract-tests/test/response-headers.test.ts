/**
 * response_headers_conformance: an answer carries every header the spec marks `required` for its
 * status. A provider that leaves a create's required Location out fails it, naming the header; one
 * that sends every required header, in its own letter case and beside headers of its own, passes;
 * and the stateful mock, serving the same spec, passes it. Against a small notes provider of the
 * test's own (node:http, in memory) and the mock over real HTTP.
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
      headers: { Location: { required: true, schema: { type: 'string' } }, 'X-Request-Id': { schema: { type: 'string' } } },
      content: json(NOTE),
    },
    '400': { description: 'Invalid', content: json({ type: 'object', properties: { message: { type: 'string' } } }) },
  },
  read: {
    '200': { description: 'The note', headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer' } } }, content: json(NOTE) },
    '404': { description: 'None' },
  },
});
const OPTIONS = { spec: specFile, seed: 5, generated: { positive: 3, negative: 3 } };

/** The notes provider; `location` and `rateLimit` name those headers as it sends them (its letter case), or leave them out. */
function runAgainst(headers: { location?: string; rateLimit?: string }): Promise<ContractReport> {
  const { location, rateLimit } = headers;
  return runSuiteAgainst(
    notesProvider({
      createdHeaders: location ? (id) => ({ [location]: `/notes/${id}`, 'x-served-by': 'notes-1' }) : undefined,
      readHeaders: rateLimit ? { [rateLimit]: '100' } : undefined,
    }),
    OPTIONS,
  );
}

const failed = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`);
const judged = (report: ContractReport): number | undefined => report.checks.find((c) => c.name === 'response_headers_conformance')?.judged;

describe('response_headers_conformance', () => {
  it('passes a provider sending every required header, in its own letter case, beside headers of its own', async () => {
    const report = await runAgainst({ location: 'LOCATION', rateLimit: 'x-rate-limit' });
    expect(failed(report)).toEqual([]);
    expect(judged(report)).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });

  it("fails a provider leaving a create's required Location out, and one leaving a read's X-Rate-Limit out", async () => {
    const noLocation = failed(await runAgainst({ rateLimit: 'X-Rate-Limit' }));
    expect(noLocation.length).toBeGreaterThan(0);
    expect(new Set(noLocation)).toEqual(new Set(["response_headers_conformance: The 201 answer has no 'location' header; the spec marks it required for 201."]));
    const noRateLimit = failed(await runAgainst({ location: 'Location' }));
    expect(new Set(noRateLimit)).toEqual(new Set(["response_headers_conformance: The 200 answer has no 'x-rate-limit' header; the spec marks it required for 200."]));
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
