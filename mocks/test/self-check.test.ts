/**
 * `--self-check`: the mock's own answers judged by the one judge (openapi/judge/) where they are
 * made. A spec whose examples break it (a schema break, a writeOnly property answered) has those
 * answers go out as made, with the verdict in the plant-store-violations header, the journal and a
 * warn line; a correct answer carries none; without the flag nothing is judged; and the Plant
 * Store's own answers, accepted or refused, break nothing the spec declares.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JournalEntry, JournalPage } from '../admin/journal.js';
import type { Violation } from '../../openapi/judge/violation.js';
import { mockCommand, parseMockArgs } from '../config.js';
import { createLogger } from '../http/logger.js';
import type { MockServer } from '../server.js';
import { ACCOUNTS_SPEC } from './judged-accounts.js';
import { createPlant, freshId, send, sendGet, useMock, useMockForSpec } from './mock-under-test.js';

const lines: string[] = [];
const log = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});
const checking = useMockForSpec(ACCOUNTS_SPEC, { selfCheck: true, logger: createLogger('warn', log) });
const plain = useMockForSpec(ACCOUNTS_SPEC);
const plantStore = useMock({ selfCheck: true });

const violationsOf = (headers: Headers): Violation[] => JSON.parse(headers.get('plant-store-violations') ?? '[]') as Violation[];
const lastEntry = (mock: MockServer): JournalEntry => (mock.journal.entries() as JournalPage).entries[0] as JournalEntry;
const example = (mock: MockServer, name: string) => sendGet(mock, '/accounts/1', { headers: { prefer: `example=${name}` } });

describe('--self-check on answers that break the spec', () => {
  it('passes a correct answer without a verdict', async () => {
    const answer = await example(checking.current, 'good');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ id: 1, login: 'ann' });
    expect(Number(answer.headers.get('x-rate-limit'))).toBeGreaterThanOrEqual(1);
    expect(answer.headers.get('plant-store-violations')).toBeNull();
  });

  it('sends a schema break as made, with the verdict in the header, the journal and the log', async () => {
    const answer = await example(checking.current, 'broken');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ id: 'one', login: 'ann' });
    const message = 'The mock\'s 200 answer to getAccount (GET /accounts/{id}) is not a valid Account: id must be an integer, got the string "one".';
    expect(violationsOf(answer.headers)).toEqual([{ in: 'response', severity: 'error', code: 'UPSTREAM_INVALID_BODY', message }]);
    await expect
      .poll(() => lastEntry(checking.current)?.violations)
      .toEqual([{ in: 'response', severity: 'error', code: 'UPSTREAM_INVALID_BODY', message, problems: ['id must be an integer, got the string "one"'] }]);
    await expect
      .poll(() => lines.map((line) => JSON.parse(line) as { level: number; msg: string; violations?: string[] }))
      .toContainEqual(expect.objectContaining({ level: 40, msg: `self-check: ${message}`, violations: ['UPSTREAM_INVALID_BODY'] }));
  });

  it('flags a writeOnly property answered', async () => {
    const answer = await example(checking.current, 'leaky');
    expect(violationsOf(answer.headers).map((v) => `${v.severity} ${v.code}`)).toEqual(['error UPSTREAM_WRITE_ONLY']);
    expect(violationsOf(answer.headers)[0]?.message).toMatch(/^The mock's 200 answer to getAccount \(GET \/accounts\/\{id\}\) holds \/password, declared writeOnly/);
  });

  it('judges nothing without the flag', async () => {
    const answer = await example(plain.current, 'broken');
    expect(answer.json).toEqual({ id: 'one', login: 'ann' });
    expect(answer.headers.get('plant-store-violations')).toBeNull();
    expect(lastEntry(plain.current).violations).toBeUndefined();
  });
});

describe("--self-check on the Plant Store's own answers", () => {
  it('finds nothing that breaks the spec, accepted or refused (an undeclared 4xx is only a warning)', async () => {
    const answers = [
      await createPlant(plantStore.current, { id: freshId(), name: 'Monstera', tag: 'tropical' }),
      await createPlant(plantStore.current, { id: 'seven', name: 5 }),
      await createPlant(plantStore.current, '{"id":1,', { contentType: 'application/json' }),
      await createPlant(plantStore.current, 'name=Ficus', { contentType: 'text/plain' }),
      await createPlant(plantStore.current, { id: freshId(), name: 'Ficus' }, { noAuth: true }),
      await send(plantStore.current, '/plants', undefined, { method: 'DELETE', contentType: null }),
      await createPlant(plantStore.current, { id: freshId(), name: 'Ficus' }, { headers: { prefer: 'code=400' } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 400, 415, 401, 405, 400]);
    const errors = answers.flatMap((answer) => violationsOf(answer.headers).filter((v) => v.severity === 'error'));
    expect(errors).toEqual([]);
    // Statuses the Plant Store does not declare (401, 405, 415) are the spec's silence: warnings.
    expect(violationsOf(answers[4]?.headers as Headers).map((v) => `${v.severity} ${v.code}`)).toEqual(['warning UPSTREAM_UNDECLARED_STATUS']);
  });
});

describe('the flag', () => {
  it('is off by default, on with --self-check or MOCK_SELF_CHECK, and listed in --help', () => {
    expect(parseMockArgs([]).selfCheck).toBe(false);
    expect(parseMockArgs(['--self-check']).selfCheck).toBe(true);
    process.env.MOCK_SELF_CHECK = '1';
    try {
      expect(parseMockArgs([]).selfCheck).toBe(true);
    } finally {
      delete process.env.MOCK_SELF_CHECK;
    }
    expect(mockCommand().helpInformation()).toMatch(/--self-check\s+judge the mock's own answers against the spec/);
  });
});
