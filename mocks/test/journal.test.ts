/**
 * The request journal over real HTTP: the whole exchange (headers and bodies, cut at a bound with
 * the cut marked), credentials masked everywhere, ids exact, bounded in entries and bytes, read
 * with a cursor and filters, and backed by any implementation of the RequestJournal interface.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXCHANGE_BOUNDS } from '../admin/exchange.js';
import { MemoryJournal, type JournalEntry, type JournalPage, type JournalSelection, type JournalQuery, type JournalRecord, type JournalStats, type RequestJournal } from '../admin/journal.js';
import { maskAuthorization, maskCookies, maskSecret } from '../http/credentials.js';
import { writeSpecVariant } from '../../openapi/test/variants.js';
import { createMockServer, type MockServer } from '../server.js';
import { createPlant, expectError, freshId, send, useMock } from './mock-under-test.js';
import { rawExchange, statusesOf } from './raw-http.js';

interface Listing extends JournalPage {
  journal: JournalStats;
}

async function listing(mock: MockServer, query = '', headers: Record<string, string> = {}): Promise<{ status: number; link: string | null; body: Listing }> {
  const response = await fetch(`${mock.url}/__mock/requests${query}`, { headers });
  return { status: response.status, link: response.headers.get('link'), body: (await response.json()) as Listing };
}

async function entry(mock: MockServer, seq: number, headers: Record<string, string> = {}): Promise<JournalEntry> {
  const response = await fetch(`${mock.url}/__mock/requests/${seq}`, { headers });
  expect(response.status).toBe(200);
  return (await response.json()) as JournalEntry;
}

/** The newest entry, whole. */
async function latest(mock: MockServer, headers: Record<string, string> = {}): Promise<JournalEntry> {
  const { body } = await listing(mock, '?limit=1', headers);
  return entry(mock, (body.entries[0] as JournalEntry).seq, headers);
}

const header = (lines: [string, string][], name: string): string | undefined => lines.find(([n]) => n.toLowerCase() === name)?.[1];

describe('the whole exchange in the journal', () => {
  const mock = useMock();

  it('keeps request and answer headers and bodies, ids exact, and the verdict', async () => {
    const body = '{"id":9223372036854775807,"name":"Monstera","tag":"tropical"}';
    await send(mock.current, '/plants', body, { headers: { 'x-trace': 'abc' } });
    const kept = await latest(mock.current);
    expect(kept).toMatchObject({ method: 'POST', path: '/plants', status: 200, verdict: 'accepted', operationId: 'createPlant', stateful: true });
    expect(kept.request.body).toEqual({ bytes: Buffer.byteLength(body), text: body, encoding: 'utf8' });
    expect(header(kept.request.headers, 'content-type')).toBe('application/json');
    expect(header(kept.request.headers, 'x-trace')).toBe('abc');
    expect(kept.response.body?.text).toBe('{"name":"Monstera","tag":"tropical"}');
    expect(header(kept.response.headers, 'content-type')).toBe('application/json');
    expect(header(kept.response.headers, 'content-length')).toBe('36');
    expect(header(kept.response.headers, 'access-control-allow-origin')).toBe('*');
    await send(mock.current, '/plants', body);
    expect(await latest(mock.current)).toMatchObject({ status: 409, verdict: 'rejected', code: 'DUPLICATE_ID' });
  });

  it('names the operation and keeps the body of a request whose Prefer header is refused', async () => {
    const body = `{"id":${freshId()},"name":"Fern"}`;
    expect((await send(mock.current, '/plants', body, { headers: { prefer: 'code=299' } })).status).toBe(400);
    const kept = await latest(mock.current);
    expect(kept).toMatchObject({ status: 400, code: 'INVALID_PREFER', operationId: 'createPlant', stateful: true });
    expect(kept.request.body?.text).toBe(body);
  });

  it('keeps the reasons of a rejection with the field each concerns', async () => {
    await createPlant(mock.current, '{"id":"seven","tag":5}');
    const rejected = await latest(mock.current);
    expect(rejected.verdict).toBe('rejected-body');
    expect(rejected.code).toBe('INVALID_REQUEST_BODY');
    const byField = Object.fromEntries((rejected.problems ?? []).map((problem, i) => [rejected.fields?.[i], problem]));
    expect(byField).toEqual({
      '/id': 'id must be an integer, got the string "seven"',
      '/name': 'name is required',
      '/tag': 'tag must be a string, got the number 5',
    });
  });

  it('cuts a large body at the bound, says so, and keeps nothing of the rest', async () => {
    const name = 'x'.repeat(200_000);
    await createPlant(mock.current, { id: freshId(), name });
    const kept = await latest(mock.current);
    const body = kept.request.body;
    expect(body?.cut).toBe(true);
    expect(body?.bytes).toBeGreaterThan(200_000);
    expect(Buffer.byteLength(body?.text ?? '')).toBeLessThanOrEqual(DEFAULT_EXCHANGE_BOUNDS.bodyBytes);
    expect(kept.response.body?.cut).toBe(true); // the Plant echoes the name
  });

  it('never cuts inside a character', async () => {
    const name = '🌵'.repeat(40_000); // 4 bytes each: the bound falls inside one unless the cut steps back
    await createPlant(mock.current, { id: freshId(), name });
    const text = (await latest(mock.current)).request.body?.text ?? '';
    expect(text).not.toContain('\uFFFD');
    expect(text.endsWith('🌵')).toBe(true);
  });

  it('keeps a body that is not UTF-8 as base64', async () => {
    await fetch(`${mock.current.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
    });
    const kept = await latest(mock.current);
    expect(kept.code).toBe('INVALID_ENCODING');
    expect(kept.request.body).toEqual({ bytes: 4, text: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64'), encoding: 'base64' });
  });

  it('keeps the body of a request answered before it was read (a 401), when it had arrived whole', async () => {
    await createPlant(mock.current, '{"id":1,"name":"no token"}', { noAuth: true });
    const kept = await latest(mock.current);
    expect(kept.verdict).toBe('unauthenticated');
    expect(kept.request.body?.text).toBe('{"id":1,"name":"no token"}');
  });

  it('says how large an unread body was said to be when a 401 came before it arrived', async () => {
    const head = `POST /plants HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"id":2,`;
    const { statuses } = await rawExchange(mock.current.url, [head], { until: (text) => statusesOf(text).length > 0 });
    expect(statuses).toEqual([401]);
    const kept = await latest(mock.current);
    expect(kept).toMatchObject({ status: 401, verdict: 'unauthenticated', code: 'MISSING_CREDENTIALS' });
    expect(kept.request.body).toEqual({ bytes: 5000, unread: true });
  });

  it("does not journal the inspector's own reads, and journals what changes the store", async () => {
    const before = (await listing(mock.current)).body.last;
    await fetch(`${mock.current.url}/__mock/plants`);
    await fetch(`${mock.current.url}/__mock/requests`);
    expect((await listing(mock.current)).body.last).toBe(before);
    await send(mock.current, '/__mock/plants', '[]');
    expect((await listing(mock.current)).body.last).toBe(before + 1);
  });
});

describe('a streamed answer in the journal (a listing)', () => {
  const mock = useMock({ spec: writeSpecVariant('item-operations') });

  it('keeps the whole body of a short listing and the start of a long one, with its size and the cut', async () => {
    const short = '[{"id":1,"name":"one"},{"id":2,"name":"two 🌿"}]';
    expect((await send(mock.current, '/__mock/plants', short)).status).toBe(200);
    const listed = await send(mock.current, '/plants', undefined, { method: 'GET', contentType: null });
    expect(listed.text).toBe(short);
    const kept = await latest(mock.current);
    expect(kept).toMatchObject({ method: 'GET', path: '/plants', status: 200, operationId: 'listPlants' });
    expect(kept.response.body).toEqual({ bytes: Buffer.byteLength(short), text: short, encoding: 'utf8' });

    // Names of multi-byte characters, so the bound falls inside one: the start is cut before it.
    const seed = Array.from({ length: 3000 }, (_, i) => `{"id":${1000 + i},"name":"🌿 plant ${i}"}`);
    expect((await send(mock.current, '/__mock/plants', `[${seed.join(',')}]`)).status).toBe(200);
    const long = await send(mock.current, '/plants', undefined, { method: 'GET', contentType: null });
    const bound = DEFAULT_EXCHANGE_BOUNDS.bodyBytes;
    expect(Buffer.byteLength(long.text)).toBeGreaterThan(bound);
    const cut = (await latest(mock.current)).response.body;
    expect(cut).toMatchObject({ bytes: Buffer.byteLength(long.text), encoding: 'utf8', cut: true });
    expect(Buffer.byteLength(cut?.text ?? '')).toBeLessThanOrEqual(bound);
    expect(Buffer.byteLength(cut?.text ?? '')).toBeGreaterThan(bound - 4);
    expect(long.text.startsWith(cut?.text ?? 'x')).toBe(true);
  });
});

describe('credentials are never kept or echoed', () => {
  const ADMIN = 'admin-secret-0123456789';
  const TOKEN = 'allowed-token-abcdefghij';
  const mock = useMock({ adminToken: ADMIN, tokens: [TOKEN] });
  const admin = { authorization: `Bearer ${ADMIN}` };

  /** Every byte the journal would give any reader: listings (whole) and each entry. */
  async function everything(): Promise<string> {
    const whole = await fetch(`${mock.current.url}/__mock/requests?whole=true&limit=1000`, { headers: admin });
    return whole.text();
  }

  it('masks a credential sent without a scheme, and does not repeat it in the 401', async () => {
    const response = await createPlant(mock.current, { id: 1, name: 'x' }, { headers: { authorization: 'sk_live_SECRET123' } });
    const message = expectError(response, 401);
    expect(message).not.toContain('SECRET123');
    expect(message).not.toContain('sk_live');
    expect(message).toContain('does not start with an authentication scheme');
    const kept = await latest(mock.current, admin);
    expect(header(kept.request.headers, 'authorization')).toBe('sk…23');
    expect(kept.message).toBe(message);
    expect(await everything()).not.toContain('SECRET123');
  });

  it.each([
    ['Bearer abcdefghijklmnopqrstuvwxyz', 'Bearer ab…yz'],
    ['bearer   abcdefghijklmnopqrstuvwxyz', 'bearer   ab…yz'],
    ['Bearer short', 'Bearer …'],
    [`Basic ${Buffer.from('alice:correct horse battery').toString('base64')}`, 'Basic YW…J5'],
    ['Token abcdefghijklmnopqrstuvwxyz', 'Token ab…yz'],
    ['sk_live_SECRET123 and more', 'sk…re'],
  ])('keeps Authorization: %s as %s', async (sent, shown) => {
    await createPlant(mock.current, { id: 1, name: 'x' }, { headers: { authorization: sent } });
    const kept = await latest(mock.current, admin);
    expect(header(kept.request.headers, 'authorization')).toBe(shown);
    expect(kept.message ?? '').not.toContain(sent.split(/\s+/).at(-1));
  });

  it('masks cookies, API-key headers, access_token, the admin token and --tokens wherever they appear', async () => {
    await send(
      mock.current,
      '/plants?access_token=query-secret-123456&keep=1',
      { id: freshId(), name: `named ${TOKEN}`, tag: ADMIN },
      {
        headers: {
          authorization: `Bearer ${TOKEN}`,
          cookie: 'session=cookie-secret-123456; theme=dark',
          'x-api-key': 'header-secret-123456',
          'x-note': `admin is ${ADMIN}`,
        },
      },
    );
    const kept = await latest(mock.current, admin);
    expect(kept.status).toBe(200);
    expect(kept.query).toBe(`access_token=${encodeURIComponent('qu…56')}&keep=1`);
    expect(header(kept.request.headers, 'cookie')).toBe('session=co…56; theme=…');
    expect(header(kept.request.headers, 'x-api-key')).toBe('he…56');
    expect(header(kept.request.headers, 'x-note')).toBe(`admin is ${maskSecret(ADMIN)}`);
    expect(kept.request.body?.text).toContain(maskSecret(TOKEN));
    expect(kept.response.body?.text).toContain(maskSecret(TOKEN)); // the Plant echoes the name
    const all = await everything();
    for (const secret of [TOKEN, ADMIN, 'query-secret-123456', 'cookie-secret-123456', 'header-secret-123456']) expect(all).not.toContain(secret);
  });

  it('masks the common credential names a spec need not declare: api_key and sig queries, CSRF, forwarded Authorization, AWS session token (issue 24)', async () => {
    const values = ['apikey-secret-123456', 'sig-secret-123456', 'csrf-secret-123456', 'fwd-secret-123456', 'amz-secret-123456'];
    await send(
      mock.current,
      `/plants?api_key=${values[0]}&sig=${values[1]}&keep=1`,
      { id: freshId(), name: 'x' },
      {
        headers: { 'x-csrf-token': values[2] as string, 'x-forwarded-authorization': `Bearer ${values[3]}`, 'x-amz-security-token': values[4] as string },
      },
    );
    const kept = await latest(mock.current, admin);
    expect(kept.query).toBe(`api_key=${encodeURIComponent('ap…56')}&sig=${encodeURIComponent('si…56')}&keep=1`);
    expect(header(kept.request.headers, 'x-csrf-token')).toBe('cs…56');
    expect(header(kept.request.headers, 'x-amz-security-token')).toBe('am…56');
    const all = await everything();
    for (const secret of values) expect(all).not.toContain(secret);
  });

  it("masks a known secret a rejection's reasons quote", async () => {
    const response = await createPlant(mock.current, `{"id":"${TOKEN}","name":"x"}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expectError(response, 400);
    const kept = await latest(mock.current, admin);
    expect(kept.problems).toEqual([`id must be an integer, got the string "${maskSecret(TOKEN)}"`]);
    expect(await everything()).not.toContain(TOKEN);
  });

  it('masks the admin token of a refused admin request too', async () => {
    await fetch(`${mock.current.url}/__mock/plants`, { headers: { authorization: `Bearer ${ADMIN}x` } });
    expect(await everything()).not.toContain(`${ADMIN}x`);
  });

  it('masks by rule, unit by unit', () => {
    expect(maskSecret('abcdefghijkl')).toBe('ab…kl');
    expect(maskSecret('abcdefghijk')).toBe('…');
    expect(maskAuthorization('Digest username="a", response="0123456789abcdef"')).toBe('Digest us…f"');
    expect(maskAuthorization('')).toBe('');
    expect(maskCookies('a=1;b=twelve-chars')).toBe('a=…;b=tw…rs');
    expect(maskCookies('bare-token-value; a=1; ')).toBe('ba…ue; a=…; ');
  });
});

describe('the journal is bounded in entries and in bytes', () => {
  it('keeps the newest entries that fit both bounds', () => {
    const journal = new MemoryJournal({ maxEntries: 50, maxBytes: 64 * 1024 });
    const record = (text: string): JournalRecord => ({
      time: 0,
      method: 'POST',
      path: '/plants',
      status: 400,
      durationMs: 1,
      verdict: 'rejected-body',
      request: { headers: [], body: { bytes: text.length, text, encoding: 'utf8' } },
      response: { headers: [] },
    });
    for (let i = 0; i < 200; i++) journal.record(record('y'.repeat(10_000)));
    const stats = journal.stats();
    expect(stats.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(stats.entries).toBe(6);
    expect(journal.entries().entries.map((e) => e.seq)).toEqual([200, 199, 198, 197, 196, 195]);
    for (let i = 0; i < 200; i++) journal.record(record('z'));
    expect(journal.stats().entries).toBe(50);
    // An entry larger than the whole bound is kept without its bodies' text.
    journal.record(record('w'.repeat(100_000)));
    expect(journal.stats().bytes).toBeLessThanOrEqual(64 * 1024);
    expect(journal.entry(401)?.request.body).toEqual({ bytes: 100_000, encoding: 'utf8' });
  });

  it('counts what it keeps of a large answer: its start, not the whole body', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent' });
    try {
      // The answer echoes the plant: a name of 600 000 characters makes an answer of as many bytes.
      const name = 'n'.repeat(600_000);
      expect((await createPlant(mock, { id: freshId(), name })).status).toBe(200);
      const { body } = await listing(mock);
      const bound = DEFAULT_EXCHANGE_BOUNDS.bodyBytes;
      // Both bodies cut at the bound, plus headers and structure.
      expect(body.journal.bytes).toBeLessThan(2 * bound + 8 * 1024);
      const kept = await entry(mock, body.entries[0]?.seq as number);
      expect(kept.response.body).toMatchObject({ bytes: Buffer.byteLength(`{"name":"${name}"}`), cut: true });
      expect(Buffer.byteLength(kept.response.body?.text ?? '')).toBeLessThanOrEqual(bound);
    } finally {
      await mock.close();
    }
  });

  it('numbers on after a clear, so a poller never misses what follows', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent' });
    try {
      await createPlant(mock, '{}');
      await createPlant(mock, '{}');
      const last = (await listing(mock)).body.last;
      expect((await fetch(`${mock.url}/__mock/requests`, { method: 'DELETE' })).status).toBe(204);
      await createPlant(mock, '{}');
      const { body } = await listing(mock, `?after=${last}`);
      // The DELETE itself is journaled, then the create.
      expect(body.entries.map((e) => e.seq)).toEqual([last + 2, last + 1]);
    } finally {
      await mock.close();
    }
  });
});

describe('reading the journal: cursor, filters, pages', () => {
  const mock = useMock();

  it('answers only what is newer than the cursor, filtered by status class, path and text', async () => {
    const start = (await listing(mock.current)).body.last;
    await createPlant(mock.current, { id: freshId(), name: 'needle-one' });
    await createPlant(mock.current, { id: 'x', name: 'needle-two' });
    await fetch(`${mock.current.url}/nowhere`);
    await createPlant(mock.current, { id: freshId(), name: 'hay' }, { noAuth: true });
    const all = (await listing(mock.current, `?after=${start}`)).body;
    expect(all.entries.map((e) => e.status)).toEqual([401, 404, 400, 200]);
    expect(all.last).toBe(start + 4);
    expect(all.entries[0]?.request.body).toEqual({ bytes: expect.any(Number), encoding: 'utf8' }); // summaries: no text
    expect((await listing(mock.current, `?after=${start}&status=4xx`)).body.entries.map((e) => e.status)).toEqual([401, 404, 400]);
    expect((await listing(mock.current, `?after=${start}&status=2xx,5xx`)).body.entries.map((e) => e.status)).toEqual([200]);
    expect((await listing(mock.current, `?after=${start}&path=nowhere`)).body.entries.map((e) => e.status)).toEqual([404]);
    expect((await listing(mock.current, `?after=${start}&q=NEEDLE`)).body.entries.map((e) => e.status)).toEqual([400, 200]);
    expect((await listing(mock.current, `?after=${start + 4}`)).body.entries).toEqual([]);
  });

  it('pages back with before and a Link to the next page', async () => {
    for (let i = 0; i < 5; i++) await createPlant(mock.current, `{"page":${i}}`);
    const first = await listing(mock.current, '?limit=2&q=page');
    expect(first.body.entries).toHaveLength(2);
    expect(first.body.more).toBe(true);
    const next = first.link?.match(/^<([^>]+)>; rel="next"$/)?.[1];
    expect(next).toBe(`/__mock/requests?limit=2&q=page&before=${first.body.entries[1]?.seq}`);
    const second = await listing(mock.current, (next as string).slice('/__mock/requests'.length));
    expect(second.body.entries.map((e) => e.seq)).toEqual([(first.body.entries[1]?.seq ?? 0) - 1, (first.body.entries[1]?.seq ?? 0) - 2]);
  });

  it.each([
    ['?limit=0', 'limit must be a whole number from 1 to 1000'],
    ['?limit=abc', 'limit must be a whole number'],
    ['?after=-1', 'after must be the seq of a journal entry'],
    ['?status=6xx', 'status must list status classes'],
    ['?whole=yes', 'whole must be true or false'],
    ['?format=har', 'format must be one of journal, cases'],
    ['?limit=1&limit=2', 'limit is given more than once'],
    ['?cursor=1', '"cursor" is not a parameter of this route'],
  ])('answers %s with a 400 in the Error shape', async (query, expected) => {
    const response = await send(mock.current, `/__mock/requests${query}`, undefined, { method: 'GET', contentType: null, noAuth: true });
    expect(expectError(response, 400)).toContain(expected);
  });

  it('names at most ten problems of a query and counts the rest', async () => {
    const query = ['limit=0', ...Array.from({ length: 500 }, (_, i) => `x${i}=1&x${i}=2`)].join('&');
    const response = await send(mock.current, `/__mock/requests?${query}`, undefined, { method: 'GET', contentType: null, noAuth: true });
    const message = expectError(response, 400);
    expect(message.match(/is not a parameter of this route/g)).toHaveLength(10);
    expect(message).toContain('(and 491 more)');
    expect(message.length).toBeLessThan(3000);
  });

  it('answers 404 for an entry that is not (or no longer) in the journal', async () => {
    const response = await send(mock.current, '/__mock/requests/999999999', undefined, { method: 'GET', contentType: null, noAuth: true });
    expect(expectError(response, 404)).toContain('Request #999999999 is not in the journal');
  });
});

/** A journal whose every read is asynchronous, as one over Redis would be: the routes must not care. */
class AsyncJournal implements RequestJournal {
  readonly inner = new MemoryJournal();
  record(entry: JournalRecord): void {
    setImmediate(() => this.inner.record(entry));
  }
  async entries(query?: JournalQuery): Promise<JournalPage> {
    await new Promise((resolve) => setImmediate(resolve));
    const page = this.inner.entries(query);
    return { ...page, entries: page.entries.map((e) => ({ ...e, replica: 'replica-a' })) };
  }
  async select(query?: JournalQuery): Promise<JournalSelection> {
    await new Promise((resolve) => setImmediate(resolve));
    return this.inner.select(query);
  }
  async texts(seqs: readonly number[], whole: boolean): Promise<string[]> {
    return this.inner.texts(seqs, whole).map((text) => JSON.stringify({ ...JSON.parse(text), replica: 'replica-a' }));
  }
  async entry(seq: number): Promise<JournalEntry | undefined> {
    const found = this.inner.entry(seq);
    return found && { ...found, replica: 'replica-a' };
  }
  async stats(): Promise<JournalStats> {
    return this.inner.stats();
  }
  async clear(): Promise<void> {
    this.inner.clear();
  }
}

describe('another implementation of RequestJournal', () => {
  it('serves the journal routes from an asynchronous journal', async () => {
    const journal = new AsyncJournal();
    const mock = await createMockServer({ port: 0, logLevel: 'silent', journal });
    try {
      await createPlant(mock, { id: freshId(), name: 'async' });
      await new Promise((resolve) => setImmediate(resolve));
      const { body } = await listing(mock);
      expect(body.entries).toHaveLength(1);
      expect(body.entries[0]).toMatchObject({ replica: 'replica-a', status: 200, path: '/plants' });
      expect((await entry(mock, body.entries[0]?.seq as number)).request.body?.text).toContain('async');
      expect(mock.journal).toBe(journal);
    } finally {
      await mock.close();
    }
  });
});
