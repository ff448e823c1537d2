/**
 * The stateless Prism mock over real HTTP: Prism's answers from the spec, and the edge around
 * it — exact int64 ids, a malformed body answered with the spec's Error instead of a crash.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENT_MS, run, startMockProcess, startServer } from '../../test/processes.js';
import { loadContract } from '../../../openapi/operations/compile.js';
import { startPrismMock, type PrismMock } from '../server.js';

let prism: PrismMock;
beforeAll(async () => {
  prism = await startPrismMock({ port: 0, maxBody: 4096 });
});
afterAll(() => prism?.close());

async function post(body: string | undefined, headers: Record<string, string> = {}) {
  const response = await fetch(`${prism.url}/plants`, {
    method: 'POST',
    headers: { authorization: 'Bearer any', 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : Buffer.from(body),
  });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), headers: response.headers, text };
}

describe('the Prism mock', () => {
  it("answers a valid NewPlant with the spec's example Plant", async () => {
    const { status, contentType, text } = await post('{"id":1,"name":"Ficus"}');
    expect(status).toBe(200);
    expect(contentType).toBe('application/json');
    expect(JSON.parse(text)).toEqual({ name: 'Monstera', tag: 'tropical' });
  });

  it.each(['9007199254740993', '9223372036854775807', '-9223372036854775808'])('accepts the int64 id %s (http-spec would cap ids at 2^53)', async (id) => {
    expect((await post(`{"id":${id},"name":"Ficus"}`)).status).toBe(200);
  });

  it.each(['9223372036854775808', '9223372036854776832', '-9223372036854775809', '1.5', '"7"'])('rejects the id %s with the 400 Error example', async (id) => {
    const { status, text, headers } = await post(`{"id":${id},"name":"Ficus"}`);
    expect(status).toBe(400);
    expect(JSON.parse(text)).toEqual({ error: 400, message: expect.any(String) });
    expect(headers.get('sl-violations')).toMatch(/id/);
  });

  it('answers malformed JSON with an Error and keeps serving', async () => {
    const { status, contentType, text } = await post('{"id":1,"name":');
    expect(status).toBe(400);
    expect(contentType).toBe('application/json');
    expect(JSON.parse(text)).toEqual({ error: 400, message: expect.stringMatching(/not valid JSON/) });
    expect((await post('{"id":2,"name":"Ficus"}')).status).toBe(200);
  });

  it('refuses a body naming a member twice with a 400 Error, as the stateful mock does (issue 24 row 10)', async () => {
    for (const body of ['{"id":1,"id":2,"name":"x"}', '{"id":1,"name":"x","tag":"a","tag":"b"}']) {
      const { status, contentType, text } = await post(body);
      expect(status, body).toBe(400);
      expect(contentType).toBe('application/json');
      expect(JSON.parse(text)).toEqual({ error: 400, message: expect.stringMatching(/names the member "(id|tag)" twice/) });
    }
    expect((await post('{"id":1,"name":"x","tag":"a"}')).status).toBe(200);
  });

  it('refuses a body over its limit with 413', async () => {
    const { status, text } = await post(JSON.stringify({ id: 3, name: 'x'.repeat(5000) }));
    expect(status).toBe(413);
    expect(JSON.parse(text).error).toBe(413);
  });

  it('requires a bearer token, as the spec says', async () => {
    const { status, headers } = await post('{"id":1,"name":"Ficus"}', { authorization: 'Basic eDp5' });
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('honours Prefer: code=400 as Prism does', async () => {
    const { status, text } = await post('{"id":1,"name":"Ficus"}', { prefer: 'code=400' });
    expect(status).toBe(400);
    expect(JSON.parse(text).error).toBe(400);
  });

  it('takes __code from the query when there is no Prefer, and answers a Prefer it cannot read with 422, as Prism does', async () => {
    const byQuery = await fetch(`${prism.url}/plants?__code=400`, { method: 'POST', headers: { authorization: 'Bearer any', 'content-type': 'application/json' }, body: '{"id":1,"name":"Ficus"}' });
    expect(byQuery.status).toBe(400);
    const unreadable = await post('{"id":1,"name":"Ficus"}', { prefer: 'code=4xx' });
    expect(unreadable.status).toBe(422);
    expect(unreadable.contentType).toBe('application/problem+json');
    expect(JSON.parse(unreadable.text).detail).toContain('code');
  });

  it('answers a CORS preflight', async () => {
    const response = await fetch(`${prism.url}/plants`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/authorization/);
  });
});

describe('OPTIONS', () => {
  // The stateful mock's answers (engine/handlers.ts), the Prism mock's the same.
  const cases: [string, string, Record<string, string>, number, string | null][] = [
    ['a path the spec declares', '/plants', {}, 204, 'POST, OPTIONS'],
    ['a CORS preflight at a path the spec declares', '/plants', { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' }, 204, 'POST, OPTIONS'],
    ['a path the spec does not declare', '/nowhere', {}, 404, null],
    ['a CORS preflight at a path the spec does not declare', '/nowhere', { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' }, 404, null],
  ];

  it.each(cases)('answers %s as the stateful mock does', async (_name, path, headers, status, allow) => {
    const bare = await startPrismMock({ port: 0 });
    const stateful = await startMockProcess();
    try {
      for (const url of [stateful.url, bare.url]) {
        const response = await fetch(`${url}${path}`, { method: 'OPTIONS', headers });
        expect(response.status, url).toBe(status);
        expect(response.headers.get('allow'), url).toBe(allow);
        if (status === 204) expect(response.headers.get('access-control-allow-methods'), url).toBe(allow);
      }
    } finally {
      await bare.close();
    }
  });
});

describe('int64 and float bounds the spec declares', () => {
  // counters-3.1: views is an int64 with `minimum: 0`, cap one with `maximum: 2^63 - 1`, weight a float with `exclusiveMinimum: 0`.
  const spec = fileURLToPath(new URL('./specs/counters-3.1.yaml', import.meta.url));
  const send = (url: string, body: string) => fetch(`${url}/counters`, { method: 'POST', headers: { authorization: 'Bearer any', 'content-type': 'application/json' }, body });

  it('judges an int64 with a declared bound on its digits, as the stateful mock does (QA item 7)', async () => {
    const bare = await startPrismMock({ port: 0, spec });
    const stateful = await startMockProcess(['--spec', spec]);
    try {
      const cases: [string, number][] = [
        ['"views":9007199254740993', 201],
        ['"views":9223372036854775807', 201],
        ['"views":9.223372036854775807e18', 201],
        ['"views":0,"cap":9223372036854775807', 201],
        ['"views":9223372036854775808', 400],
        ['"views":-1', 400],
        ['"views":0,"cap":9223372036854775808', 400],
        ['"views":0,"cap":-6', 400],
      ];
      for (const [members, status] of cases) {
        for (const url of [stateful.url, bare.url]) {
          const answer = await send(url, `{"name":"n",${members}}`);
          expect(answer.status >= 400 ? 400 : answer.status, `${url} ${members}`).toBe(status);
        }
      }
    } finally {
      await bare.close();
    }
  });

  it('passes the contract suite with --profile stateless (it failed positive_data_acceptance on every int64 past 2^53)', async () => {
    const prismCli = fileURLToPath(new URL('../../../dist/mocks/prism/cli.js', import.meta.url));
    const contractCli = fileURLToPath(new URL('../../../dist/contract-tests/cli.js', import.meta.url));
    const served = await startServer(process.execPath, [prismCli, '--spec', spec, '--port', '0', '--log-level', 'silent']);
    const result = await run(process.execPath, [contractCli, '--spec', spec, '--base-url', served.url, '--token', 't', '--profile', 'stateless', '--seed', '7'], {}, PATIENT_MS * 2);
    expect(result.output).not.toMatch(/\bFAIL/);
    expect(result.code, result.output).toBe(0);
  });

  it("makes up a float above an exclusive minimum (http-spec's float range once gave about -3.4e38)", async () => {
    const bare = await startPrismMock({ port: 0, spec });
    try {
      const answer = await send(bare.url, '{"name":"n","views":1}');
      expect(answer.status).toBe(201);
      expect(answer.headers.get('sl-violations') ?? '[]').toBe('[]');
      const made = (await answer.json()) as { weight?: number };
      expect(made.weight).toBeGreaterThan(0);
    } finally {
      await bare.close();
    }
  });
});

describe('answers made up from a schema', () => {
  // trees-3.0: a recursive Node answered from its schema, and Crates whose bounds are 3.0's boolean exclusive ones.
  const spec = fileURLToPath(new URL('./specs/trees-3.0.yaml', import.meta.url));
  const contract = loadContract(spec);
  const isNode = contract.componentValidator('Node');
  const isCrate = contract.componentValidator('Crate');

  it.each([false, true])("fit the spec's schemas, dynamic %s (QA item 17)", async (dynamic) => {
    const bare = await startPrismMock({ port: 0, contract, dynamic });
    try {
      // Dynamic answers are random: enough of them that a sampler breaking a bound half the time is caught.
      for (let round = 0; round < (dynamic ? 20 : 2); round++) {
        const tree = await fetch(`${bare.url}/trees`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"value":1}' });
        expect(tree.status).toBe(200);
        expect(tree.headers.get('sl-violations') ?? '[]').toBe('[]');
        const node: unknown = await tree.json();
        expect(isNode(node), JSON.stringify(node)).toBe(true);
        const crates = await fetch(`${bare.url}/crates`);
        expect(crates.status).toBe(200);
        expect(crates.headers.get('sl-violations') ?? '[]').toBe('[]');
        const list = (await crates.json()) as unknown[];
        for (const crate of list) expect(isCrate(crate), JSON.stringify(crate)).toBe(true);
      }
    } finally {
      await bare.close();
    }
  });
});

describe('an operation that declares no responses', () => {
  it('is answered 204 without a body, as the stateful mock answers it (issue 21)', async () => {
    // problem-details' GET /health declares none (Prism alone fails it with a 500).
    const spec = fileURLToPath(new URL('../../../fixtures/specs/problem-details/openapi.yaml', import.meta.url));
    const bare = await startPrismMock({ port: 0, spec });
    const stateful = await startMockProcess(['--spec', spec]);
    try {
      for (const url of [bare.url, stateful.url]) {
        const response = await fetch(`${url}/health`);
        expect(response.status, url).toBe(204);
        expect(await response.text(), url).toBe('');
        expect(response.headers.get('content-type'), url).toBeNull();
      }
    } finally {
      await bare.close();
    }
  });
});

describe('an answer generated from a schema with writeOnly properties', () => {
  it('leaves them out, as a response does, and the request still needs them', async () => {
    // bookings-3.1's Payment: card and cvc are writeOnly, with patterns; its 201 has no example.
    const spec = fileURLToPath(new URL('../../../fixtures/specs/bookings-3.1/openapi.yaml', import.meta.url));
    const bare = await startPrismMock({ port: 0, spec });
    try {
      const url = `${bare.url}/bookings/0b6c1a52-3f39-4f4e-9d0e-2f5a4c1b7e10/payments`;
      const headers = { authorization: 'Bearer any', 'content-type': 'application/json' };
      const paid = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ amount: 5, card: '4111111111111111', cvc: '123' }) });
      expect(paid.status).toBe(201);
      const body = (await paid.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['amount', 'id', 'last4']);
      expect(paid.headers.get('sl-violations') ?? '[]').toBe('[]');
      // The request's schema is not the answer's: a payment without its card is still refused.
      const cardless = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ amount: 5 }) });
      expect(cardless.status).toBeGreaterThanOrEqual(400);
      expect(cardless.status).toBeLessThan(500);
    } finally {
      await bare.close();
    }
  });
});

describe('a method the spec does not declare at a path', () => {
  it('is answered 405 with Allow naming the declared methods, TRACE included (RFC 9110 §15.5.6)', async () => {
    const operations = [...loadContract().operations.values()];
    const path = (operations[0] as { path: string }).path;
    const declared = operations.filter((operation) => operation.path === path).map((operation) => operation.method.toUpperCase());
    const others = ['TRACE', 'DELETE', 'GET', 'PUT', 'PATCH'].filter((method) => !declared.includes(method));
    expect(others.length).toBeGreaterThan(1);
    for (const method of others) {
      // node:http, since fetch refuses to send TRACE.
      const { status, allow } = await new Promise<{ status?: number; allow?: string }>((resolve, fail) => {
        const sent = request(`${prism.url}${path}`, { method, headers: { authorization: 'Bearer any' } }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode, allow: response.headers.allow }));
        });
        sent.on('error', fail);
        sent.end();
      });
      expect(status, method).toBe(405);
      expect(allow?.split(/,\s*/).sort(), method).toEqual(declared.sort());
    }
  });
});

describe('npm run mock:prism', () => {
  const CLI = fileURLToPath(new URL('../../../dist/mocks/prism/cli.js', import.meta.url));

  it('defaults to port 4011', async () => {
    const child = spawn(process.execPath, [CLI, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(output).toMatch(/--port <port>.*\(default: 4011/s);
    expect(code).toBe(0);
  });

  it("names the served spec's own operations where it says it listens, not the Plant Store's (QA P3 wording)", async () => {
    const spec = fileURLToPath(new URL('./specs/counters-3.1.yaml', import.meta.url));
    const served = await startServer(process.execPath, [CLI, '--spec', spec, '--port', '0', '--log-level', 'silent']);
    const line = served.output().split('\n')[0];
    expect(line).toBe(`plant-store-prism: listening on ${served.url} (Counters 1.0.0: POST ${served.url}/counters)`);
  });

  it('prints where it listens, serves, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, '--port', '0', '--log-level', 'silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, fail) => {
        let output = '';
        const timer = setTimeout(() => fail(new Error(`no listening line within ${PATIENT_MS} ms: ${output}`)), PATIENT_MS);
        child.stdout.on('data', (chunk) => {
          output += chunk;
          const match = /listening on (http:\/\/\S+?) /.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(match[1] as string);
          }
        });
      });
      const response = await fetch(`${url}/plants`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"id":1,"name":"Ficus"}' });
      expect(response.status).toBe(200);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
