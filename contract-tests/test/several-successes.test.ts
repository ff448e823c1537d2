/**
 * An operation may declare more than one success: a create answering 200 or 201 (an upsert tells
 * "replaced" from "created"). A provider answering any declared 2xx passes status_code_conformance,
 * and its answer is still held to response_echoes_request; a 2xx the spec does not declare fails.
 * Against a small notes provider of the test's own (node:http, in memory).
 */
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { json, NOTE, notesProvider, writeNotesSpec, type NotesBehaviour } from './providers/notes-provider.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const specFile = writeNotesSpec('several-successes', {
  create: {
    '201': { description: 'Created', content: json(NOTE) },
    '200': { description: 'Replaced a note of the same title', content: json(NOTE) },
    '400': { description: 'Invalid', content: json({ type: 'object', properties: { message: { type: 'string' } } }) },
  },
  read: { '200': { description: 'The note', content: json(NOTE) }, '404': { description: 'None' } },
});

function runAgainst(behaviour: NotesBehaviour & { created: number }): Promise<ContractReport> {
  return runSuiteAgainst(notesProvider(behaviour), { spec: specFile, seed: 12, generated: { positive: 2, negative: 2 } });
}

const failed = (report: ContractReport, check: string): string[] => report.findings.filter((f) => f.severity === 'failure' && f.check === check).map((f) => f.message);

describe('an operation declaring two successes', () => {
  it('passes a provider answering its creates with the second one (201 where 200 and 201 are declared)', async () => {
    const report = await runAgainst({ created: 201 });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'response_echoes_request')?.judged).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });

  it('still holds that answer to response_echoes_request', async () => {
    const report = await runAgainst({ created: 201, garbles: true });
    expect(failed(report, 'response_echoes_request').join('\n')).toMatch(/The answer's title is .*!/);
    expect(failed(report, 'status_code_conformance')).toEqual([]);
  });

  it('fails a 2xx it does not declare', async () => {
    const report = await runAgainst({ created: 202 });
    expect(failed(report, 'status_code_conformance').join('\n')).toMatch(/Accepted a valid body with 202; the spec's success statuses are 200 and 201/);
  });
});
