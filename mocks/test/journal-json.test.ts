/**
 * A journal entry's JSON text is written straight from the captured exchange (`toJson`), with the
 * masked header lines of a connection and of the mock's answers made once and reused. It must say
 * exactly what JSON.stringify says of the record (`toRecord`): the same members, masked the same
 * way, whichever secrets a request carries and whatever lines came before it.
 */
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialPlaces, DEFAULT_EXCHANGE_BOUNDS, recordExchange, Repeats, type JournalPolicy, type WireExchange } from '../admin/exchange.js';
import { entryJson, isPendingRecord, IsoTimes, type JournalRecord, type PendingRecord } from '../admin/journal.js';
import type { SecurityScheme } from '../../openapi/operations/model.js';
import { reject } from '../errors.js';
import { rejected } from '../http/answer.js';

const SECRET = 'known-admin-secret';

function policyWith(repeats: Repeats, secrets: string[] = [SECRET]): JournalPolicy {
  const schemes = [{ kind: 'api-key', in: 'header', parameter: 'X-Api-Key' }] as SecurityScheme[];
  return { ...DEFAULT_EXCHANGE_BOUNDS, bodyBytes: 64, headerBytes: 160, credentials: credentialPlaces(schemes, secrets), repeats };
}

interface Sent {
  socket: Socket;
  /** Milliseconds after the first exchange. */
  millisecond: number;
  method: string;
  url: string;
  lines: [string, string][];
  body?: string;
  status: number;
  refused: boolean;
  answer: string;
  responseHeaders: Record<string, string | number>;
}

function exchangeOf(sent: Sent): WireExchange {
  const req = new IncomingMessage(sent.socket);
  req.method = sent.method;
  req.url = sent.url;
  req.rawHeaders = sent.lines.flat();
  for (const [name, value] of sent.lines) req.headers[name.toLowerCase()] = value;
  const requestBody = sent.body === undefined ? undefined : Buffer.from(sent.body);
  if (requestBody) req.headers['content-length'] = String(requestBody.length);
  const answer = sent.refused
    ? rejected(reject('INVALID_REQUEST_BODY', { schema: 'NewPlant', problems: [`name must be a string, got ${sent.answer}`], more: 0, fields: ['/name'] }))
    : { status: sent.status, body: sent.answer, operationId: 'createPlant', stateful: true, requestText: sent.body };
  return { req, path: sent.url.split('?')[0] as string, requestBody, answer, responseHeaders: sent.responseHeaders, time: 1_700_000_000_123 + sent.millisecond, durationMs: 1.25 };
}

/** What JSON.stringify writes of the record, as the journals wrote it before `toJson`. */
function stringified(record: JournalRecord, leading: Record<string, unknown>): unknown {
  const { time, ...rest } = record;
  return JSON.parse(JSON.stringify({ ...leading, at: new Date(time).toISOString(), ...rest }));
}

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(SECRET, 'Bearer tok-123456789', 'tok-123456789', 'sk_live_abcdefghij and more', 'a=1; session=cookie-value-1', 'says query-secret-1'),
);
const line = fc.tuple(fc.constantFrom('Authorization', 'Cookie', 'X-Api-Key', 'Content-Type', 'X-Trace', 'Proxy-Authorization', 'Accept'), text);
const sentArbitrary = fc.record({
  connection: fc.nat({ max: 2 }),
  // Often the millisecond of the exchange before: the journal then writes its time once.
  millisecond: fc.nat({ max: 2 }),
  method: fc.constantFrom('POST', 'GET'),
  url: fc.constantFrom('/plants', '/plants?access_token=query-secret-1', `/plants/${SECRET}`, '/plants?tag=a%20b'),
  // Often the lines of the request before on the connection: the journal then keeps them once.
  lines: fc.oneof(fc.constantFrom<[string, string][]>([], [['Accept', '*/*']]), fc.array(line, { maxLength: 8 })),
  body: fc.option(fc.oneof(text, fc.constant('{"id":9223372036854775807,"name":"Fern"}'), fc.string({ minLength: 60, maxLength: 90 })), { nil: undefined }),
  status: fc.constantFrom(200, 201),
  refused: fc.boolean(),
  answer: fc.oneof(text, fc.constant('{"name":"Fern"}')),
  responseHeaders: fc.constantFrom<Record<string, string | number>>(
    { 'access-control-allow-origin': '*', 'content-type': 'application/json', 'content-length': 15 },
    { 'access-control-allow-origin': '*', 'x-echo': SECRET },
    { 'x-long': 'v'.repeat(200) },
  ),
});

describe("a journal entry's JSON text", () => {
  it('says what JSON.stringify says of the record, through repeated lines, answers and secrets', () => {
    fc.assert(
      fc.property(fc.array(sentArbitrary, { minLength: 1, maxLength: 12 }), fc.boolean(), (sequence, knownSecret) => {
        const sockets = [new Socket(), new Socket(), new Socket()];
        const policy = policyWith(new Repeats(), knownSecret ? [SECRET] : []);
        const kept: PendingRecord[] = [];
        const journal = { record: (entry: JournalRecord | PendingRecord) => void (isPendingRecord(entry) && kept.push(entry)) };
        for (const sent of sequence) {
          recordExchange(journal as never, exchangeOf({ ...sent, socket: sockets[sent.connection] as Socket }), policy);
        }
        expect(kept).toHaveLength(sequence.length);
        const times = new IsoTimes();
        // Twice each: the second reads what the first made once.
        for (const [index, entry] of [...kept, ...kept].entries()) {
          const leading = { seq: index, replica: 'r"1' };
          const json = entryJson(entry, `"seq":${index},"replica":${JSON.stringify('r"1')}`, times);
          expect(JSON.parse(json)).toEqual(stringified(entry.toRecord(), leading));
          if (knownSecret) expect(json).not.toContain(SECRET);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('writes a record that was made at once (a proxied exchange) the same way', () => {
    const record: JournalRecord = {
      time: 0,
      method: 'POST',
      path: '/plants',
      status: 502,
      durationMs: 3,
      verdict: 'failed',
      request: { headers: [['host', 'x']] },
      response: { headers: [] },
      violations: [],
    };
    expect(JSON.parse(entryJson(record, '"seq":7', new IsoTimes()))).toEqual({ seq: 7, at: '1970-01-01T00:00:00.000Z', ...record, time: undefined });
  });
});
