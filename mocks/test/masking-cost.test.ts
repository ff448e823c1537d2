/**
 * Issue 24 row 8: masking the journal costs what it keeps, not credentials × text. Requests carrying
 * 1 150 cookies and a 61 KB body quoting every one of them once took 5.1 s to list, and blocked
 * health as long. Here, what does not depend on the machine's speed: every quoted value is masked in
 * a whole listing of such entries, beside entries quoting one cookie. The cost itself, as a ratio to
 * that control, is a goal of `npm run bench` (bench/costs.ts: ≤ 6, it was over 30).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';

const COOKIES = 1150;
const REQUESTS = 3;

/** Distinct cookie values, 8 characters each: long enough to count as a request's own credential. */
const values = Array.from({ length: COOKIES }, (_, i) => `k${String(i).padStart(7, '0')}`);
const manyCookies = values.map((value, i) => `${i.toString(36)}=${value}`).join(';');
/** A body quoting every cookie value, about 61 KB. */
const body = JSON.stringify({ name: values.map((value) => `${value} ${'x'.repeat(43)}`).join(' ') });

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ port: 0, logLevel: 'silent', maxBody: 256 * 1024 });
});
afterAll(() => mock?.close());

async function send(cookie: string): Promise<void> {
  const answer = await fetch(`${mock.url}/plants`, { method: 'POST', headers: { authorization: 'Bearer test-token', 'content-type': 'application/json', cookie }, body });
  await answer.arrayBuffer();
}

/** Lists the entries after `after`, whole (every entry masked and written). */
async function listing(after: number): Promise<{ text: string; last: number }> {
  const answer = await fetch(`${mock.url}/__mock/requests?whole=true&limit=${REQUESTS}&after=${after}`);
  const text = await answer.text();
  expect(answer.status).toBe(200);
  return { text, last: (JSON.parse(text) as { last: number }).last };
}

describe('masking the journal (issue 24 row 8)', () => {
  it('masks every one of 1 150 quoted cookies in a whole listing, as it masks one', async () => {
    expect(body.length).toBeGreaterThan(60_000);
    const start = await listing(0);
    for (let i = 0; i < REQUESTS; i++) await send(`a=${values[0] as string}`);
    const control = await listing(start.last);
    for (let i = 0; i < REQUESTS; i++) await send(manyCookies);
    const attack = await listing(control.last);
    expect(attack.last - control.last).toBe(REQUESTS);
    // Every quoted cookie value masked, in both.
    expect(control.text).not.toContain(values[0]);
    for (const value of values) expect(attack.text).not.toContain(value);
    // The entries are there, their bodies kept (masked), not dropped.
    expect(attack.text.length).toBeGreaterThan(REQUESTS * 50_000);
  });
});
