/**
 * The start banner's credential line (issue 40): a spec that secures no operation says so, rather
 * than "any well-formed credential", which sends a user looking for a token to send; a secured one
 * keeps the rule (any credential, or how many --tokens), and one where only some operations opt out
 * is secured.
 */
import { describe, expect, it } from 'vitest';
import { startSummary, summaryLines } from '../start-summary.js';
import { useMockForSpec } from './mock-under-test.js';

const ok = { '200': { description: 'ok' } };
const specWith = (security: Record<string, unknown>) => ({
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  ...security,
  paths: { '/notes': { get: { operationId: 'listNotes', responses: ok } }, '/health': { get: { operationId: 'health', security: [], responses: ok } } },
});

const open = useMockForSpec(specWith({}));
const optional = useMockForSpec(specWith({ security: [{}, { bearer: [] }] }));
const secured = useMockForSpec(specWith({ security: [{ bearer: [] }] }));

describe('the start banner says whose credentials the mock takes', () => {
  it('none, for a spec that declares no security (with or without --tokens)', () => {
    const lines = summaryLines(startSummary(open.current.url, open.current.engine, 0, 'memory'));
    expect(lines).toContain('Tokens:     none needed: the spec declares no security');
    expect(startSummary(open.current.url, open.current.engine, 2, 'memory').tokens).toBe('none needed: the spec declares no security (--tokens unused)');
    // An empty alternative ({}) makes credentials optional: nothing is needed either.
    expect(startSummary(optional.current.url, optional.current.engine, 0, 'memory').tokens).toBe('none needed: the spec declares no security');
  });

  it('the rule, for a spec that secures an operation', () => {
    expect(startSummary(secured.current.url, secured.current.engine, 0, 'memory').tokens).toBe('any well-formed credential');
    expect(startSummary(secured.current.url, secured.current.engine, 1, 'memory').tokens).toBe('1 accepted credential (--tokens)');
  });
});
