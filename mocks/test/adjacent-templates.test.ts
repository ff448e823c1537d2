/**
 * Adjacent templates in one segment cannot freeze a mock (issue 39, item 2): `/releases/{major}.{minor}.{patch}`
 * compiled to `([^/]+)\.([^/]+)\.([^/]+)`, and `GET /releases/` + 3,000 dots + `/x` cost 10–26
 * CPU-seconds (cubic: 15,000 dots, hours); Prism's router builds `(.*)\.(.*)-(.*)` per request and
 * backtracks the same way. Over real HTTP, on both mocks: each such path answered (404, or routed),
 * and health beside it. Awaited, never timed: the test's limit is a safety net.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract } from '../../openapi/operations/compile.js';
import { startPrismMock, type PrismMock } from '../prism/server.js';
import { useMockForSpec } from './mock-under-test.js';

const get = (id: string) => ({ operationId: id, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' }, example: { id } } } } } });
const spec = {
  openapi: '3.1.0',
  info: { title: 'Releases', version: '1' },
  paths: {
    '/releases/{major}.{minor}.{patch}': { get: get('getRelease') },
    '/tags/{name}.{kind}-{label}': { get: get('getTag') },
    '/releases': { get: get('listReleases') },
  },
};
// Node's default header limit is 16 KB: the longest request line a client can send.
const DOTS = '.'.repeat(15_000);
const HOSTILE = [`/releases/${DOTS}/x`, `/tags/a${DOTS}`, `/tags/a${DOTS}/x`, `/releases/1${DOTS.slice(1)}-`];

async function expectAnswered(base: string): Promise<void> {
  for (const path of HOSTILE) {
    const answered = fetch(`${base}${path}`);
    const health = await fetch(`${base}/releases`);
    expect(health.status).toBe(200);
    const response = await answered;
    await response.text();
    expect(response.status, path.slice(0, 20)).toBeLessThan(500);
  }
  const routed = await fetch(`${base}/releases/1.2.3`);
  expect(routed.status).toBe(200);
  expect(await routed.json()).toEqual({ id: 'getRelease' });
}

describe('adjacent templates', () => {
  const mock = useMockForSpec(spec);
  let prism: PrismMock;
  beforeAll(async () => {
    prism = await startPrismMock({ port: 0, contract: compileContract(structuredClone(spec), 'releases.json') });
  });
  afterAll(() => prism?.close());

  it('the stateful mock answers hostile paths in linear time', async () => {
    await expectAnswered(mock.current.url);
    expect((await fetch(`${mock.current.url}/releases/${DOTS}/x`)).status).toBe(404);
  }, 120_000);

  it('the Prism mock answers them too, and still routes', async () => {
    await expectAnswered(prism.url);
    const tag = await fetch(`${prism.url}/tags/a.b-c`);
    expect(tag.status).toBe(200);
    expect(await tag.json()).toEqual({ id: 'getTag' });
    expect((await fetch(`${prism.url}/nowhere`)).status).toBe(404);
    expect((await fetch(`${prism.url}/releases/1.2.3`, { method: 'DELETE' })).status).toBe(405);
  }, 120_000);
});
