/**
 * response_echoes_request compares only what the answer declares with the request's own schema: a
 * card number sent whole and answered masked (the answer's schema says so) is the provider's choice,
 * and a property the answer declares writeOnly is never answered. Before, a correct provider failed
 * response_echoes_request on both; a provider that changes a value answered with the request's schema
 * still fails.
 */
import { describe, expect, it } from 'vitest';
import { formatReport } from '../index.js';
import { compileSuiteSpec } from '../spec-contract.js';
import { runSuiteAgainst, type SmallHandler } from './providers/small-provider.js';

const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Cards', version: '1' },
  paths: {
    '/cards': {
      post: {
        operationId: 'createCard',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['number', 'holder', 'nickname'],
                additionalProperties: false,
                properties: {
                  number: { type: 'string', pattern: '^[0-9]{16}$' },
                  holder: { type: 'string', minLength: 1, maxLength: 40 },
                  nickname: { type: 'string', minLength: 1, maxLength: 40 },
                },
              },
            },
          },
        },
        responses: {
          '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Card' } } } },
          '400': { description: 'refused', content: { 'application/json': { schema: ERROR } } },
        },
      },
    },
    '/cards/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        operationId: 'getCard',
        responses: {
          '200': { description: 'the card', content: { 'application/json': { schema: { $ref: '#/components/schemas/Card' } } } },
          '404': { description: 'none', content: { 'application/json': { schema: ERROR } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Card: {
        type: 'object',
        required: ['id', 'number', 'holder'],
        properties: {
          id: { type: 'integer', readOnly: true },
          // Answered masked: another schema than the request's.
          number: { type: 'string', pattern: '^\\*{12}[0-9]{4}$', description: 'the last four digits' },
          holder: { type: 'string', minLength: 1, maxLength: 40, description: 'as printed on the card' },
          // Declared writeOnly in the answer: never answered.
          nickname: { type: 'string', writeOnly: true },
        },
      },
    },
  },
};

function cardProvider(changeHolder: boolean): SmallHandler {
  const cards = new Map<number, { id: number; number: string; holder: string }>();
  let next = 1;
  return (request, answer) => {
    const path = request.url.pathname;
    if (request.method === 'POST' && path === '/cards') {
      const body = request.json() as Record<string, unknown> | undefined;
      const valid =
        body !== null &&
        typeof body === 'object' &&
        !Array.isArray(body) &&
        Object.keys(body).every((k) => ['number', 'holder', 'nickname'].includes(k)) &&
        typeof body.number === 'string' &&
        /^[0-9]{16}$/.test(body.number) &&
        typeof body.holder === 'string' &&
        [...body.holder].length >= 1 &&
        [...body.holder].length <= 40 &&
        typeof body.nickname === 'string' &&
        [...body.nickname].length >= 1 &&
        [...body.nickname].length <= 40;
      if (!valid) return answer(400, { message: 'invalid card' });
      const card = { id: next++, number: `************${(body.number as string).slice(-4)}`, holder: changeHolder ? (body.holder as string).toUpperCase() + 'X' : (body.holder as string) };
      cards.set(card.id, card);
      return answer(201, card, { location: `/cards/${card.id}` });
    }
    const match = /^\/cards\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && match) {
      const card = cards.get(Number(match[1]));
      return card && /^[0-9]+$/.test(match[1] as string) ? answer(200, card) : answer(404, { message: 'no such card' });
    }
    answer(404, { message: 'no such route' });
  };
}

describe('an echo the answer declares with another schema', () => {
  const contract = compileSuiteSpec(SPEC, 'cards.json');
  it('is a provider choice when it differs (a card number answered masked), and a writeOnly one in the answer is never expected', async () => {
    const report = await runSuiteAgainst(cardProvider(false), { token: '', contract, seed: 2, generated: { positive: 5, negative: 5 } });
    const echoes = report.checks.find((c) => c.name === 'response_echoes_request');
    expect(
      report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`),
      formatReport(report),
    ).toEqual([]);
    expect(echoes?.judged).toBeGreaterThan(0);
    expect(report.findings.some((f) => f.check === 'response_echoes_request' && f.severity === 'info' && f.message.includes('number'))).toBe(true);
  });

  it('still fails a provider that changes a value the answer declares with the request schema', async () => {
    const report = await runSuiteAgainst(cardProvider(true), { token: '', contract, seed: 2, generated: { positive: 5, negative: 5 } });
    const failures = report.findings.filter((f) => f.severity === 'failure' && f.check === 'response_echoes_request');
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((f) => f.message.includes('holder'))).toBe(true);
    expect(report.findings.some((f) => f.severity === 'failure' && f.check === 'resource_consistency' && f.message.includes('holder'))).toBe(true);
  });
});
