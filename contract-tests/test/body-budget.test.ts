/**
 * Every exchange stays in memory until the report, so what one transport keeps of the answers'
 * bodies is bounded in all, not only per answer: against a provider answering more than a
 * megabyte to every request, answers past the budget keep only their first SPENT_BODY_LIMIT bytes,
 * marked cut, and the run still gets each answer's status whole.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT, SPENT_BODY_LIMIT, createTransport } from '../transport.js';

const ANSWER_BYTES = BODY_LIMIT + 1000;

describe('the bodies one transport keeps', () => {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(`"${'a'.repeat(ANSWER_BYTES - 2)}"`));
  });
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('are cut to SPENT_BODY_LIMIT each once the budget is spent', async () => {
    const transport = createTransport({ timeoutMs: 10_000, concurrency: 1, bodyBudget: 2.5 * BODY_LIMIT });
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/things`);
    const kept: Array<[number, number, boolean]> = [];
    try {
      for (let i = 0; i < 5; i++) {
        const outcome = await transport.send({ url, method: 'GET', headers: {}, body: undefined });
        if (outcome.outcome !== 'response') throw new Error(`no answer: ${outcome.outcome}`);
        kept.push([outcome.response.status, outcome.response.body.length, outcome.response.truncated === true]);
      }
    } finally {
      transport.close();
    }
    const whole: [number, number, boolean] = [200, BODY_LIMIT, true];
    const cut: [number, number, boolean] = [200, SPENT_BODY_LIMIT, true];
    expect(kept).toEqual([whole, whole, whole, cut, cut]);
  });
});
