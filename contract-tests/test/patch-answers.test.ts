/**
 * A PATCH (here a JSON merge patch, RFC 7396) answers the whole record, so a property the patch
 * did not send comes back with the record's value: response_echoes_request does not warn about it,
 * and still fails a patched property answered otherwise than sent. Against a small cards provider
 * of the test's own (node:http, in memory).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const card = { $ref: '#/components/schemas/Card' };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const cardId = { name: 'cardId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Cards', version: '1' },
  security: [],
  paths: {
    '/cards': {
      post: {
        operationId: 'createCard',
        requestBody: { required: true, content: json(card) },
        responses: { '201': { description: 'Created', content: json(card) }, '400': { description: 'Invalid' } },
      },
    },
    '/cards/{cardId}': {
      get: { operationId: 'getCard', parameters: [cardId], responses: { '200': { description: 'The card', content: json(card) }, '404': { description: 'None' } } },
      patch: {
        operationId: 'patchCard',
        parameters: [cardId],
        requestBody: { required: true, content: { 'application/merge-patch+json': { schema: { $ref: '#/components/schemas/CardChange' } } } },
        responses: { '200': { description: 'The card as changed', content: json(card) }, '400': { description: 'Invalid' }, '404': { description: 'None' } },
      },
    },
  },
  components: {
    schemas: {
      Card: {
        type: 'object',
        required: ['front', 'back'],
        properties: { id: { type: 'integer', readOnly: true }, front: { type: 'string', minLength: 1, maxLength: 20 }, back: { type: 'string', minLength: 1, maxLength: 20 } },
      },
      CardChange: { type: 'object', properties: { front: { type: 'string', minLength: 1, maxLength: 20 }, back: { type: 'string', minLength: 1, maxLength: 20 } } },
    },
  },
};
const specFile = join(mkdtempSync(join(tmpdir(), 'patch-answers-')), 'cards.json');
writeFileSync(specFile, JSON.stringify(SPEC));

/** A patch's answer shows the patched `front` with a suffix (what is stored is right). */
async function runAgainst(garblesPatchedFront: boolean): Promise<ContractReport> {
  const cards = new Map<number, { front: string; back: string }>();
  return runSuiteAgainst(
    (request, answer) => {
      const { url } = request;
      const id = Number(/^\/cards\/(\d+)$/.exec(url.pathname)?.[1]);
      let body: Record<string, unknown> = {};
      if (request.method === 'POST' || request.method === 'PATCH') {
        const wanted = request.method === 'POST' ? 'application/json' : 'application/merge-patch+json';
        const parsed = request.json();
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return answer(400);
        body = parsed as Record<string, unknown>;
        const side = (name: string): boolean => !(name in body) || (typeof body[name] === 'string' && [...(body[name] as string)].length >= 1 && [...(body[name] as string)].length <= 20);
        const required = request.method === 'PATCH' || ('front' in body && 'back' in body);
        if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith(wanted) || !side('front') || !side('back') || !required) return answer(400);
      }
      if (url.pathname === '/cards' && request.method === 'POST') {
        const created = { front: body.front as string, back: body.back as string };
        cards.set(cards.size + 1, created);
        return answer(201, { id: cards.size, ...created });
      }
      const stored = cards.get(id);
      if (!stored) return answer(404);
      if (request.method === 'GET') return answer(200, { id, ...stored });
      if (request.method === 'PATCH') {
        if (typeof body.front === 'string') stored.front = body.front;
        if (typeof body.back === 'string') stored.back = body.back;
        return answer(200, { id, ...stored, ...(garblesPatchedFront && 'front' in body ? { front: `${stored.front}!` } : {}) });
      }
      answer(404);
    },
    { spec: specFile, seed: 8, generated: { positive: 4, negative: 2 } },
  );
}

const echoes = (report: ContractReport, severity: 'failure' | 'warning'): string[] =>
  report.findings.filter((f) => f.check === 'response_echoes_request' && f.severity === severity && f.exchange.case.operationId === 'patchCard').map((f) => f.message);

describe("a PATCH's answer", () => {
  it('may show the properties the patch did not send: no warning, and the run passes', async () => {
    const report = await runAgainst(false);
    expect(echoes(report, 'warning')).toEqual([]);
    expect(report.checks.find((c) => c.name === 'response_echoes_request')?.judged).toBeGreaterThan(0);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`)).toEqual([]);
  });

  it('still fails when it shows a patched property otherwise than sent', async () => {
    expect(echoes(await runAgainst(true), 'failure').join('\n')).toMatch(/The answer's front is .*!/);
  });
});
