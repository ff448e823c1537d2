/**
 * A hostile provider that assigns the id `..` or `.` (issue 39, degraded item): substituted into a
 * path, URL normalisation removes the segment even percent-encoded, so a read, update or delete of
 * the record would go, credentials and all, to the API's base path or the collection. The suite
 * sends none of them and says which id and which operation; an id holding `/` is one encoded segment.
 * A real provider (node:http over loopback) records every request it receives.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { runContractSuite } from '../index.js';
import { dotSegmentOf, isDotSegment } from '../dot-segments.js';

const TOKEN = 'dot-token';

function notesSpec(): string {
  const note = { type: 'object', required: ['id', 'title'], properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' } } };
  const body = { required: true, content: { 'application/json': { schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } } } };
  const json = (description: string) => ({ description, content: { 'application/json': { schema: note } } });
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Notes', version: '1' },
    servers: [{ url: '/api' }],
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths: {
      '/notes': { post: { operationId: 'createNote', requestBody: body, responses: { '201': json('created'), '400': { description: 'bad' } } } },
      '/notes/{noteId}': {
        parameters: [{ name: 'noteId', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: 'getNote', responses: { '200': json('ok'), '404': { description: 'missing' } } },
        put: { operationId: 'replaceNote', requestBody: body, responses: { '200': json('ok'), '400': { description: 'bad' }, '404': { description: 'missing' } } },
        delete: { operationId: 'deleteNote', responses: { '204': { description: 'gone' }, '404': { description: 'missing' } } },
      },
    },
  });
}

/** Creates notes under /api, each given the id `assigned`; every request it received kept as `METHOD path`. */
async function hostileProvider(assigned: string): Promise<{ url: string; received: string[]; close: () => Promise<void> }> {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'POST' && path === '/api/notes') {
        let title = 'x';
        try {
          title = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title?: unknown }).title ?? 'x');
        } catch {
          res.writeHead(400).end();
          return;
        }
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: assigned, title }));
        return;
      }
      res.writeHead(404).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('an id the provider assigns that a path cannot carry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dot-ids-'));
  const spec = join(dir, 'notes.json');
  writeFileSync(spec, notesSpec());
  const closing: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closing) await close();
  });

  it.each(['..', '.'])('assigned %j: no request reaches the base path or the collection but the creates and lists; a finding names the id and the operation', async (assigned) => {
    const provider = await hostileProvider(assigned);
    closing.push(provider.close);
    const report = await runContractSuite({ baseUrl: provider.url, token: TOKEN, spec, seed: 7, generated: { positive: 3, negative: 3 } });
    // Every request the provider saw is a create or a request on a record's own path: none on the base path.
    const onBase = provider.received.filter((line) => !/^POST \/api\/notes$/.test(line) && !/^[A-Z]+ \/api\/notes\/[^/?]+/.test(line));
    expect(onBase).toEqual([]);
    expect(provider.received.filter((line) => /\/api\/notes\/(\.|%2e){1,2}(\?|$)/i.test(line))).toEqual([]);
    const finding = report.findings.find((f) => f.check === 'ensure_resource_availability' && f.message.includes(`id ${JSON.stringify(assigned)}`));
    expect(finding?.message).toMatch(/createNote assigned the id .* no path segment can carry/);
    const reasons = report.checks.flatMap((check) => check.skipped.map((s) => s.reason));
    expect(reasons.some((reason) => /^not sent: (getNote|replaceNote|deleteNote) \((GET|PUT|DELETE) \/notes\/\.{1,2}\)/.test(reason))).toBe(true);
  });

  it('takes a dot segment in every spelling WHATWG URL removes, and nothing else', () => {
    for (const segment of ['.', '..', '%2e', '%2E%2e', '.%2E', '%2e.']) {
      expect(dotSegmentOf(`/notes/${segment}`)).toBe(segment);
      const url = new URL(`http://h/api/notes/${segment}/x`);
      expect(url.pathname).not.toContain(segment);
    }
    for (const path of ['/notes/...', '/notes/a.b', '/notes/.x', '/notes/x?q=..', '/notes/%2F..']) expect(dotSegmentOf(path)).toBeUndefined();
    expect(isDotSegment('..')).toBe(true);
    // A `/` in an id is percent-encoded: one segment, never a traversal.
    expect(isDotSegment('../..')).toBe(false);
    expect(isDotSegment('a/..')).toBe(false);
  });
});
