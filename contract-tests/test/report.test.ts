/**
 * The human report's text: terminalSafe escapes exactly what a terminal would act on, and a
 * replay command stays exact for bodies that are not UTF-8 or hold control characters.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../model.js';
import { curlCommand } from '../report.js';
import { terminalSafe } from '../terminal-text.js';

const exchange = (body: string | Uint8Array): Exchange =>
  ({
    case: { id: 'x', operationId: 'createPlant', source: 'generated', description: 'x', expect: 'rejected-body', request: { method: 'POST', path: '/plants', headers: {}, body } },
    request: { method: 'POST', url: 'http://127.0.0.1:1/plants', headers: { host: '127.0.0.1:1', 'content-type': 'application/json', authorization: 'Bearer <token>' }, body },
    startedAt: new Date(0).toISOString(),
    elapsedMs: 0,
    outcome: 'not-sent',
    reason: 'x',
  }) as Exchange;

describe('terminalSafe', () => {
  it('escapes C0 (but tab), DEL, C1, bidi controls, line separators and lone surrogates; keeps every other character', () => {
    expect(terminalSafe('a\u001b[31mb\u0007\n\r\u007f\u0085\u009b\u202e\u2066\u200f\u2028\ud800')).toBe('a\\x1b[31mb\\x07\\x0a\\x0d\\x7f\\x85\\x9b\\u202e\\u2066\\u200f\\u2028\\ud800');
    const fine = 'tab\there é 植物 🌵 👩\u200d🌾 \u0301';
    expect(terminalSafe(fine)).toBe(fine);
  });
});

describe('curlCommand', () => {
  it('quotes plain text in single quotes and takes the token from the environment', () => {
    expect(curlCommand(exchange(`{"name":"O'Brien"}`))).toBe(
      `curl -i -X POST 'http://127.0.0.1:1/plants' -H 'content-type: application/json' -H 'authorization: Bearer '"\${PLANT_STORE_TOKEN}" --data-binary '{"name":"O'\\''Brien"}'`,
    );
  });

  it("writes bytes that are not UTF-8, and control characters, as bash $'…' escapes, exactly", () => {
    expect(curlCommand(exchange(Buffer.from([0x7b, 0xc3, 0x28, 0x27, 0x5c, 0x7d])))).toMatch(/--data-binary \$'\{\\xc3\(\\'\\\\\}'$/);
    expect(curlCommand(exchange('{"name":"a\u0001b\u001b"}'))).toMatch(/--data-binary \$'\{"name":"a\\x01b\\x1b"\}'$/);
  });
});
