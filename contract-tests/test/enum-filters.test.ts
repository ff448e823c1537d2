/**
 * An enum filter judged with records that match and records that do not (issue 38 §2): where the
 * records the sequence made all share the filtered value, one with another of the enum's values is
 * created first, so a provider ignoring the filter lists it. Against a tickets provider of the test's
 * own (node:http, in memory; the Zendesk shape: `GET /tickets?status=open`): the correct one passes,
 * one ignoring the status fails list_honours_parameters.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const STATUSES = ['new', 'open', 'pending', 'solved'];
const Ticket = {
  type: 'object',
  required: ['subject', 'status'],
  properties: { id: { type: 'integer', readOnly: true }, subject: { type: 'string', minLength: 1, maxLength: 60 }, status: { type: 'string', enum: STATUSES } },
};
const Problem = { description: 'A problem', content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } } } } } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Tickets', version: '1' },
  paths: {
    '/tickets': {
      get: {
        operationId: 'listTickets',
        parameters: [{ name: 'status', in: 'query', schema: { type: 'string', enum: STATUSES } }],
        responses: {
          '200': { description: 'Tickets', content: { 'application/json': { schema: { type: 'object', required: ['tickets'], properties: { tickets: { type: 'array', items: Ticket } } } } } },
          '400': Problem,
        },
      },
      post: {
        operationId: 'createTicket',
        requestBody: { required: true, content: { 'application/json': { schema: Ticket } } },
        responses: { '201': { description: 'The ticket', content: { 'application/json': { schema: Ticket } } }, '400': Problem, '415': Problem },
      },
    },
    '/tickets/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      get: { operationId: 'getTicket', responses: { '200': { description: 'The ticket', content: { 'application/json': { schema: Ticket } } }, '400': Problem, '404': Problem } },
      delete: { operationId: 'deleteTicket', responses: { '204': { description: 'Deleted' }, '400': Problem, '404': Problem } },
    },
  },
};
const dir = mkdtempSync(join(tmpdir(), 'enum-filters-'));
const SPEC_FILE = join(dir, 'tickets.json');
writeFileSync(SPEC_FILE, JSON.stringify(SPEC));

interface Stored {
  id: number;
  subject: string;
  status: string;
}

function runAgainst(ignoreStatus: boolean, seed: number): Promise<ContractReport> {
  const tickets = new Map<number, Stored>();
  let lastId = 0;
  return runSuiteAgainst(
    (request, answer) => {
      const { url } = request;
      if (url.pathname === '/tickets' && request.method === 'GET') {
        const status = url.searchParams.get('status');
        if (status !== null && !STATUSES.includes(status)) return answer(400, { error: `status is one of ${STATUSES.join(', ')}` });
        return answer(200, { tickets: [...tickets.values()].filter((ticket) => ignoreStatus || status === null || ticket.status === status) });
      }
      if (url.pathname === '/tickets' && request.method === 'POST') {
        if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return answer(415, { error: 'send application/json' });
        const body = request.json() as Record<string, unknown> | null | undefined;
        const { subject, status } = body ?? {};
        if (typeof subject !== 'string' || [...subject].length < 1 || [...subject].length > 60 || typeof status !== 'string' || !STATUSES.includes(status))
          return answer(400, { error: 'a ticket is {subject, status}' });
        const ticket: Stored = { id: ++lastId, subject, status };
        tickets.set(ticket.id, ticket);
        return answer(201, ticket);
      }
      const item = /^\/tickets\/([^/]+)$/.exec(url.pathname);
      if (item && (request.method === 'GET' || request.method === 'DELETE')) {
        if (!/^[1-9]\d{0,9}$/.test(item[1] ?? '')) return answer(400, { error: 'id is a positive integer' });
        const ticket = tickets.get(Number(item[1]));
        if (!ticket) return answer(404, { error: 'no such ticket' });
        if (request.method === 'GET') return answer(200, ticket);
        tickets.delete(ticket.id);
        return answer(204);
      }
      answer(404, { error: 'no such route' });
    },
    { spec: SPEC_FILE, seed, generated: { positive: 2, negative: 2 }, fixtures: [] },
  );
}

const failed = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name);
const SEEDS = [1, 2, 3, 4, 5, 6];

describe('an enum filter judged with records that match and records that do not', () => {
  it.each(SEEDS)('passes a provider filtering by status (seed %i)', async (seed) => {
    const report = await runAgainst(false, seed);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.exchanges.some((e) => e.case.sequence?.filter?.parameter === 'status')).toBe(true);
  });

  it.each(SEEDS)('fails a provider ignoring the status filter (seed %i): list_honours_parameters', async (seed) => {
    expect(failed(await runAgainst(true, seed))).toEqual(['list_honours_parameters']);
  });
});
