/**
 * Issue 24 row 8: masking the journal costs what it keeps, not credentials × text. Requests carrying
 * 1 150 cookies and a 61 KB body quoting every one of them once took 5.1 s to list, and blocked
 * health as long. The real mock process, over real HTTP; the bound is a ratio to a control in the
 * same test (the same bodies, one cookie), never a time.
 */
import { describe, expect, it } from 'vitest';
import { startMockProcess, type Server } from './processes.js';

const COOKIES = 1150;
const REQUESTS = 40;

/** Distinct cookie values, 8 characters each: long enough to count as a request's own credential. */
const values = Array.from({ length: COOKIES }, (_, i) => `k${String(i).padStart(7, '0')}`);
const manyCookies = values.map((value, i) => `${i.toString(36)}=${value}`).join(';');
/** A body quoting every cookie value, about 61 KB. */
const body = JSON.stringify({ name: values.map((value) => `${value} ${'x'.repeat(43)}`).join(' ') });

async function send(mock: Server, cookie: string): Promise<void> {
  const answer = await fetch(`${mock.url}/plants`, { method: 'POST', headers: { authorization: 'Bearer test-token', 'content-type': 'application/json', cookie }, body });
  await answer.arrayBuffer();
}

/** Lists the entries after `after`, whole (every entry masked and written), and how long it took. */
async function timedListing(mock: Server, after: number): Promise<{ ms: number; text: string; last: number }> {
  const started = performance.now();
  const answer = await fetch(`${mock.url}/__mock/requests?whole=true&limit=${REQUESTS}&after=${after}`);
  const text = await answer.text();
  const ms = performance.now() - started;
  expect(answer.status).toBe(200);
  return { ms, text, last: (JSON.parse(text) as { last: number }).last };
}

describe('masking the journal (issue 24 row 8)', () => {
  it('lists entries quoting 1 150 cookies at the cost of entries quoting one', async () => {
    expect(body.length).toBeGreaterThan(60_000);
    const mock = await startMockProcess(['--log-level', 'silent', '--max-body', String(256 * 1024)]);
    // Warm-up: the first listing compiles the code paths both listings take.
    for (let i = 0; i < 4; i++) await send(mock, `${values[0] as string};${manyCookies}`.slice(0, 200));
    const warm = await timedListing(mock, 0);

    for (let i = 0; i < REQUESTS; i++) await send(mock, `a=${values[0] as string}`);
    const control = await timedListing(mock, warm.last);
    for (let i = 0; i < REQUESTS; i++) await send(mock, manyCookies);
    const attack = await timedListing(mock, control.last);

    // Every quoted cookie value masked, in both.
    expect(control.text).not.toContain(values[0]);
    for (const value of [values[1], values[500], values[COOKIES - 1]]) expect(attack.text).not.toContain(value);
    console.info(`masking: control listing ${control.ms.toFixed(0)} ms, 1 150 cookies ${attack.ms.toFixed(0)} ms (ratio ${(attack.ms / control.ms).toFixed(1)})`);
    // Linear: the same bytes kept, a few times the control at most (it was over 30 times).
    expect(attack.ms / control.ms).toBeLessThan(6);
  });
});
