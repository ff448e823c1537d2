/**
 * What the report tells a reader to do: the Replay lines read the token from $PLANT_STORE_TOKEN, so
 * the report says once how to set it (before, it never did, even when the token came with --token);
 * "… in the JUnit report" is said only when one is written, else how to get one.
 */
import { describe, expect, it } from 'vitest';
import { formatReport } from '../index.js';
import { compileSuiteSpec } from '../spec-contract.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  security: [{ bearer: [] }],
  paths: {
    '/notes': {
      get: {
        operationId: 'listNotes',
        parameters: [{ name: 'q', in: 'query', schema: { type: 'string', maxLength: 5 } }],
        responses: {
          '200': { description: 'notes', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } },
          '401': { description: 'no' },
        },
      },
    },
  },
};

describe('the report of a failing run', () => {
  it('says once how to set the variable its replay lines read, and where the rest of the failures are', async () => {
    const contract = compileSuiteSpec(SPEC, 'notes.json');
    // Broken: a server error for every request.
    const report = await runSuiteAgainst((_request, answer) => answer(500, { message: 'down' }), { token: 'note-token', contract, seed: 1, generated: { positive: 3, negative: 3 } });
    const text = formatReport(report, { maxFailuresPerCheck: 1 });
    expect(text).toContain('Replay:   curl');
    expect(text).toContain('${PLANT_STORE_TOKEN}');
    expect(text.split("export PLANT_STORE_TOKEN='<the token given with --token>'").length).toBe(2);
    expect(text).not.toContain('in the JUnit report)');
    expect(text).toContain('(pass --junit <file> to get all of them)');
    expect(formatReport(report, { maxFailuresPerCheck: 1, junit: 'out/contract.xml' })).toContain('(all are in the JUnit report, out/contract.xml)');
  });
});
