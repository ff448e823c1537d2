/**
 * How the list checks judge what a list walk saw, against a small task-list provider of the test's
 * own (node:http, in memory). A list whose every page offers a next page is walked a bounded number
 * of pages and the report says the walk was cut short, instead of judging the pages seen as the
 * whole list (by next links, or by an offset parameter); a list that ends is judged whole. A filter on a property whose schema declares a
 * `default` counts a record without the property as having the default, as the mock does; so does
 * response_echoes_request for a created record's answer.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatReport, runContractSuite, type ContractReport } from '../index.js';
import { startSmallProvider } from './providers/small-provider.js';

const SEED = 31;
/** A seed whose first task is open, so that the filter step asks for state=open, the default. */
const OPEN_SEED = 4;

/** Tasks: the server assigns ids; a new task names its state, which answers may leave out when it is the default (`open`). */
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Tasks', version: '1' },
  paths: {
    '/tasks': {
      get: {
        operationId: 'listTasks',
        parameters: [
          { name: 'state', in: 'query', schema: { type: 'string', enum: ['open', 'done'] } },
          { name: 'cursor', in: 'query', schema: { type: 'integer', minimum: 0 } },
        ],
        responses: {
          '200': {
            description: 'One page of tasks',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Task' } }, next: { type: 'string' } } },
              },
            },
          },
          '400': { $ref: '#/components/responses/Problem' },
        },
      },
      post: {
        operationId: 'createTask',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewTask' } } } },
        responses: {
          '201': { description: 'The task', content: { 'application/json': { schema: { $ref: '#/components/schemas/Task' } } } },
          '400': { $ref: '#/components/responses/Problem' },
          '415': { $ref: '#/components/responses/Problem' },
        },
      },
    },
    '/tasks/{taskId}': {
      parameters: [{ name: 'taskId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      get: {
        operationId: 'getTask',
        responses: {
          '200': { description: 'The task', content: { 'application/json': { schema: { $ref: '#/components/schemas/Task' } } } },
          '400': { $ref: '#/components/responses/Problem' },
          '404': { $ref: '#/components/responses/Problem' },
        },
      },
      delete: {
        operationId: 'deleteTask',
        responses: { '204': { description: 'Deleted' }, '400': { $ref: '#/components/responses/Problem' }, '404': { $ref: '#/components/responses/Problem' } },
      },
    },
  },
  components: {
    schemas: {
      NewTask: {
        type: 'object',
        required: ['title', 'state'],
        properties: { title: { type: 'string', minLength: 1 }, state: { type: 'string', enum: ['open', 'done'], default: 'open' } },
      },
      Task: {
        type: 'object',
        required: ['id', 'title'],
        properties: { id: { type: 'integer', minimum: 1 }, title: { type: 'string' }, state: { type: 'string', enum: ['open', 'done'], default: 'open' } },
      },
    },
    responses: {
      Problem: { description: 'A problem', content: { 'application/json': { schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } } } },
    },
  },
};

interface Behaviour {
  /** Tasks stored before the run, listed before the run's own: every other one done, the others without a state (`open` by default). */
  fillers?: number;
  pageSize?: number;
  /** Every page offers a next one, past the last task too (empty pages). */
  nextForever?: boolean;
  /** List answers leave `state` out when it is the default, `open`. */
  omitDefault?: boolean;
  /** The list answers every task, whatever `state` asks for. */
  ignoreFilter?: boolean;
  /** The list forgets every task but the fillers. */
  listFillersOnly?: boolean;
  /** Pages by an `offset` parameter (OFFSET_SPEC), no next links. */
  byOffset?: boolean;
  /** A page past the last task (by offset): a server error, or the first page again. */
  pastEnd?: 'crash' | 'wraps';
  /** Every next link names the page it is on. */
  nextLoops?: boolean;
  /** What the create and read answers leave out: `state` when it is the default, or `state` always. */
  answersOmit?: 'default' | 'state';
}

interface Task {
  id: number;
  title: string;
  state?: string;
}

/** The task list provider: in memory, validating what it is sent, paging by a `cursor` its `next` link carries. */
async function startProvider(behaviour: Behaviour): Promise<{ url: string; listRequests: () => number; close: () => Promise<void> }> {
  const tasks = new Map<number, Task>();
  let lastId = 0;
  // Every other filler done; the others without a state, which makes them open (the default).
  for (let i = 0; i < (behaviour.fillers ?? 0); i++) tasks.set(++lastId, { id: lastId, title: `filler ${lastId}`, ...(lastId % 2 ? {} : { state: 'done' }) });
  let lists = 0;
  const pageSize = behaviour.pageSize ?? 10;
  const shown = (task: Task): Task => (behaviour.omitDefault && task.state === 'open' ? { id: task.id, title: task.title } : task);
  const answered = (task: Task): Task => (behaviour.answersOmit === 'state' || (behaviour.answersOmit === 'default' && task.state === 'open') ? { id: task.id, title: task.title } : task);
  const provider = await startSmallProvider((request, answer) => {
    const { url } = request;
    const item = /^\/tasks\/([^/]+)$/.exec(url.pathname);
    if (url.pathname === '/tasks' && request.method === 'GET') {
      lists++;
      const state = url.searchParams.get('state');
      const cursorText = url.searchParams.get(behaviour.byOffset ? 'offset' : 'cursor') ?? '0';
      if ((state !== null && state !== 'open' && state !== 'done') || !/^\d+$/.test(cursorText)) return answer(400, { message: 'state is open or done, cursor (offset) a number' });
      const cursor = Number(cursorText);
      const matching = [...tasks.values()]
        .filter((task) => !behaviour.listFillersOnly || task.id <= (behaviour.fillers ?? 0))
        .filter((task) => behaviour.ignoreFilter || state === null || (task.state ?? 'open') === state);
      if (behaviour.byOffset && cursor >= matching.length && cursor > 0 && behaviour.pastEnd === 'crash') return answer(500, { message: 'index out of range' });
      if (behaviour.byOffset && cursor >= matching.length && behaviour.pastEnd === 'wraps') return answer(200, { items: matching.slice(0, pageSize).map(shown) });
      if (behaviour.byOffset) return answer(200, { items: matching.slice(cursor, cursor + pageSize).map(shown) });
      const items = matching.slice(cursor * pageSize, (cursor + 1) * pageSize).map(shown);
      const more = behaviour.nextForever || (cursor + 1) * pageSize < matching.length;
      const next = new URLSearchParams({ ...(state === null ? {} : { state }), cursor: String(behaviour.nextLoops ? cursor : cursor + 1) });
      return answer(200, { items, ...(more ? { next: `/tasks?${next.toString()}` } : {}) });
    }
    if (url.pathname === '/tasks' && request.method === 'POST') {
      if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return answer(415, { message: 'send application/json' });
      const body = request.json();
      if (body === undefined) return answer(400, { message: 'not JSON text in UTF-8' });
      const { title, state } = (body ?? {}) as Record<string, unknown>;
      if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof title !== 'string' || title === '' || (state !== 'open' && state !== 'done'))
        return answer(400, { message: 'a task is {title, state: open | done}' });
      const task: Task = { id: ++lastId, title, state };
      tasks.set(task.id, task);
      return answer(201, answered(task));
    }
    if (item && (request.method === 'GET' || request.method === 'DELETE')) {
      if (!/^[1-9]\d{0,9}$/.test(item[1] ?? '')) return answer(400, { message: 'taskId is a positive integer' });
      const task = tasks.get(Number(item[1]));
      if (!task) return answer(404, { message: 'no such task' });
      if (request.method === 'GET') return answer(200, answered(task));
      tasks.delete(task.id);
      return answer(204);
    }
    answer(404, { message: 'no such route' });
  });
  return { ...provider, listRequests: () => lists };
}

/** The same tasks, the list paged by `offset` instead of a cursor its next links carry. */
const OFFSET_SPEC = structuredClone(SPEC);
OFFSET_SPEC.paths['/tasks'].get.parameters[1] = { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } };

const specDir = mkdtempSync(join(tmpdir(), 'list-walks-'));
const specFile = (spec: unknown, name: string): string => {
  const file = join(specDir, name);
  writeFileSync(file, JSON.stringify(spec));
  return file;
};
const SPEC_FILE = specFile(SPEC, 'tasks.json');
const OFFSET_SPEC_FILE = specFile(OFFSET_SPEC, 'tasks-by-offset.json');

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function runAgainst(behaviour: Behaviour, seed = SEED): Promise<{ report: ContractReport; listRequests: number }> {
  const provider = await startProvider(behaviour);
  closers.push(provider.close);
  const report = await runContractSuite({ baseUrl: provider.url, spec: behaviour.byOffset ? OFFSET_SPEC_FILE : SPEC_FILE, seed, generated: { positive: 2, negative: 2 } });
  return { report, listRequests: provider.listRequests() };
}

const failed = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name);
const messages = (report: ContractReport, check: string, severity: 'failure' | 'warning'): string[] =>
  report.findings.filter((f) => f.check === check && f.severity === severity).map((f) => f.message);

describe('a list walked page by page', () => {
  it('passes a provider whose list ends: every page followed, the records past the first pages found', async () => {
    const { report } = await runAgainst({ fillers: 30, pageSize: 4 });
    expect(failed(report)).toEqual([]);
    expect(report.findings.filter((f) => /cut short/.test(f.message))).toEqual([]);
  });

  it('fails ensure_resource_availability when a list that ends lacks the records just created', async () => {
    const { report } = await runAgainst({ fillers: 30, pageSize: 4, listFillersOnly: true });
    expect(failed(report)).toEqual(['ensure_resource_availability']);
    expect(messages(report, 'ensure_resource_availability', 'failure').join('\n')).toMatch(/every page followed/);
  });

  it('says the walk was cut short after 20 pages when every page offers a next one, and ends', async () => {
    // 30 tasks before the run's own, one a page: the run's tasks are past the 20 pages the suite walks.
    const { report, listRequests } = await runAgainst({ fillers: 30, pageSize: 1, nextForever: true });
    expect(failed(report)).toEqual([]);
    const lacking = messages(report, 'ensure_resource_availability', 'warning');
    expect(lacking.length).toBeGreaterThan(0);
    for (const message of lacking) expect(message).toMatch(/in the 20 pages walked, but the walk was cut short after 20 pages \(the suite's bound\) with the list still offering more/);
    expect(messages(report, 'ensure_resource_availability', 'failure')).toEqual([]);
    expect(messages(report, 'use_after_free', 'warning').join('\n')).toMatch(/cut short after 20 pages/);
    expect(formatReport(report)).toMatch(/! ensure_resource_availability: .*cut short after 20 pages/);
    // Bounded: at most 20 pages for each list step the sequence sends.
    const listSteps = report.exchanges.filter((e) => e.case.sequence?.kind === 'list').length;
    expect(listSteps).toBeGreaterThan(0);
    expect(listRequests).toBeLessThanOrEqual(20 * listSteps + report.exchanges.filter((e) => e.case.operationId === 'listTasks' && !e.case.sequence).length);
  });
});

describe('a list paged by offset', () => {
  it('passes when the pages end, and says the walk was cut short after 20 full pages', async () => {
    const ends = await runAgainst({ fillers: 30, pageSize: 4, byOffset: true });
    expect(failed(ends.report)).toEqual([]);
    expect(ends.report.findings.filter((f) => /cut short/.test(f.message))).toEqual([]);
    // 100 tasks before the run's own, two a page: 20 pages hold 40 of them.
    const { report } = await runAgainst({ fillers: 100, pageSize: 2, byOffset: true });
    expect(failed(report)).toEqual([]);
    expect(messages(report, 'ensure_resource_availability', 'warning').join('\n')).toMatch(/in the 20 pages walked, but the walk was cut short after 20 pages/);
    expect(report.exchanges.filter((e) => e.case.sequence?.kind === 'list-page').length).toBeGreaterThanOrEqual(19);
  });
});

describe('pages that must advance and end (list_pages_advance)', () => {
  it('asks for a page past the last record, and passes a provider that answers it empty', async () => {
    const { report } = await runAgainst({ fillers: 5, pageSize: 4, byOffset: true });
    expect(failed(report)).toEqual([]);
    const pastEnd = report.exchanges.filter((e) => e.case.sequence?.kind === 'list-past-end');
    expect(pastEnd).toHaveLength(1);
    expect(pastEnd[0]?.outcome === 'response' && pastEnd[0].response.body).toBe('{"items":[]}');
    expect(report.checks.find((c) => c.name === 'list_pages_advance')?.judged).toBeGreaterThan(0);
  });

  it('fails not_a_server_error when the page past the end is a 500', async () => {
    const { report } = await runAgainst({ fillers: 5, pageSize: 4, byOffset: true, pastEnd: 'crash' });
    expect(failed(report)).toEqual(['not_a_server_error']);
  });

  it('fails list_pages_advance when the page past the end answers the first page again', async () => {
    const { report } = await runAgainst({ fillers: 5, pageSize: 4, byOffset: true, pastEnd: 'wraps' });
    expect(failed(report)).toEqual(['list_pages_advance']);
    expect(messages(report, 'list_pages_advance', 'failure').join('\n')).toMatch(/past every record the pages before held: answered \d+ record\(s\); a page past the end is empty/);
  });

  it('fails list_pages_advance when a next link names the page it is on, and stops following it', async () => {
    const { report, listRequests } = await runAgainst({ fillers: 6, pageSize: 4, nextLoops: true });
    expect(failed(report)).toContain('list_pages_advance');
    expect(messages(report, 'list_pages_advance', 'failure').join('\n')).toMatch(/leads to a page already walked/);
    const listSteps = report.exchanges.filter((e) => e.case.sequence?.kind === 'list').length;
    expect(listRequests).toBeLessThanOrEqual(2 * listSteps + report.exchanges.filter((e) => e.case.operationId === 'listTasks' && !e.case.sequence).length);
  });
});

describe('a filter on a property whose schema declares a default', () => {
  /** The filter steps the sequence sent, by the value asked for. */
  const filtersSent = (report: ContractReport): string[] => report.exchanges.flatMap((e) => (e.case.sequence?.filter?.values ?? []).map(String));

  it('passes a provider that leaves the default out: a record without the property has the default', async () => {
    const { report } = await runAgainst({ fillers: 6, omitDefault: true }, OPEN_SEED);
    expect(filtersSent(report)).toEqual(['open']);
    const filtered = report.exchanges.find((e) => e.case.sequence?.filter);
    // The answer holds records without `state` (the fillers, and the run's own open tasks).
    expect(filtered?.outcome === 'response' && /\{"id":\d+,"title":"[^"]*"\}/.test(filtered.response.body)).toBe(true);
    expect(failed(report)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'list_honours_parameters')?.judged).toBeGreaterThan(0);
  });

  it('fails list_honours_parameters when the list answers records whose value is another (done for state=open)', async () => {
    const { report } = await runAgainst({ fillers: 6, omitDefault: true, ignoreFilter: true }, OPEN_SEED);
    expect(filtersSent(report)).toEqual(['open']);
    expect(failed(report)).toEqual(['list_honours_parameters']);
    expect(messages(report, 'list_honours_parameters', 'failure').join('\n')).toMatch(/Listed \d+ record\(s\) whose state is not any of open with state=open \(one has state "done"\)/);
  });
});

describe('a created record answered without a property sent with its default', () => {
  const echoFailures = (report: ContractReport): string[] => messages(report, 'response_echoes_request', 'failure');

  it('passes a provider that leaves state out of its answers when it is the default, open', async () => {
    const { report } = await runAgainst({ fillers: 6, omitDefault: true, answersOmit: 'default' }, OPEN_SEED);
    // Creates sent state=open and were answered without it.
    const leftOut = report.exchanges.filter(
      (e) => e.case.operationId === 'createTask' && e.case.request.plant?.state === 'open' && e.outcome === 'response' && e.response.status === 201 && !/"state"/.test(e.response.body),
    );
    expect(leftOut.length).toBeGreaterThan(0);
    expect(echoFailures(report)).toEqual([]);
    expect(failed(report)).toEqual([]);
  });

  it('fails response_echoes_request when a value other than the default is left out (state done)', async () => {
    const { report } = await runAgainst({ fillers: 6, answersOmit: 'state' }, OPEN_SEED);
    expect(failed(report)).toContain('response_echoes_request');
    expect(echoFailures(report).join('\n')).toMatch(/The answer has no state, but the request sent state "done"\./);
    expect(echoFailures(report).join('\n')).not.toMatch(/sent state "open"/);
  });
});
