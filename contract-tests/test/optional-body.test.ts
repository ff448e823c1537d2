/**
 * An operation whose request body is optional (no `required: true`, OpenAPI's default): a request
 * without a body is valid, so the bundled fixture case "empty-body" (written for the Plant Store,
 * whose body is required) does not stand for a rejected body there. Before, it was sent and a
 * provider answering the bodiless request 200, as the spec allows, failed negative_data_rejection.
 * Against the stateful mock serving the spec written here, over real HTTP.
 */
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { runContractSuite } from '../index.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NOTE = { type: 'object', properties: { text: { type: 'string' } } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes/search': {
      post: {
        operationId: 'searchNotes',
        requestBody: { content: { 'application/json': { schema: NOTE } } },
        responses: { '200': { description: 'found', content: { 'application/json': { schema: { type: 'array', items: NOTE }, example: [] } } } },
      },
    },
  },
};

describe('an optional request body', () => {
  it('is not refused for being empty: the empty-body fixture is not offered, the mock passes', async () => {
    const spec = join(mkdtempSync(join(tmpdir(), 'optional-body-')), 'notes.json');
    writeFileSync(spec, JSON.stringify(SPEC));
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
    try {
      const report = await runContractSuite({ baseUrl: mock.url, token: '', spec, seed: 3, generated: { positive: 5, negative: 5 } });
      expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
      expect(report.exchanges.some((x) => x.case.id === 'fixture:empty-body' && x.outcome !== 'not-sent')).toBe(false);
    } finally {
      await mock.close();
    }
  });
});
