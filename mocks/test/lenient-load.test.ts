/**
 * A document with a flaw that leaves the API servable is served, with one warning naming the
 * pointer at start and at GET /__mock/spec (issue 37 §3): a security scheme components lacks,
 * a 3.1 document of webhooks only.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createMockServer } from '../server.js';
import { useMockForSpec } from './mock-under-test.js';

const realWorld = (file: string): string => fileURLToPath(new URL(`../../fixtures/real-world/${file}`, import.meta.url));

describe('a security requirement naming a scheme components does not declare', () => {
  const mock = useMockForSpec({
    openapi: '3.0.3',
    info: { title: 'sessions', version: '1' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      '/settings': {
        get: {
          operationId: 'getSettings',
          security: [{ sessionToken: [] }],
          responses: { '200': { description: 'the settings', content: { 'application/json': { schema: { type: 'object', properties: { theme: { type: 'string' } } }, example: { theme: 'dark' } } } } },
        },
      },
      '/me': { get: { operationId: 'getMe', responses: { '200': { description: 'me', content: { 'application/json': { schema: { type: 'object' }, example: {} } } } } } },
    },
  });

  it('loads, serves the operation without refusing for the unknown scheme, and keeps checking the declared one', async () => {
    const settings = await fetch(`${mock.current.url}/settings`);
    expect(settings.status).toBe(200);
    expect(await settings.json()).toEqual({ theme: 'dark' });
    expect((await fetch(`${mock.current.url}/me`)).status).toBe(401);
  });

  it('says so once, naming the pointer, at GET /__mock/spec', async () => {
    const view = (await (await fetch(`${mock.current.url}/__mock/spec`)).json()) as { warnings: string[] };
    expect(view.warnings).toEqual([expect.stringMatching(/openapi\.json#\/paths\/~1settings\/get\/security\/0: security names sessionToken, which components\.securitySchemes does not declare/)]);
  });
});

describe('real documents with such flaws start', () => {
  it("ory-kratos (its settings operations name sessionToken, which it never declares) starts, and the log's warnings name each pointer", async () => {
    const lines: { level: number; msg: string }[] = [];
    // A synchronous destination: every line is there when createMockServer resolves.
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) });
    const mock = await createMockServer({ spec: realWorld('ory-kratos/api.json'), port: 0, logger });
    try {
      expect(mock.engine.contract.operations.size).toBe(60);
      const warnings = lines.filter((line) => line.level === 40 && /does not declare/.test(line.msg));
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings[0]?.msg).toMatch(/api\.json#\/paths\/.+\/security\/\d+: security names sessionToken/);
    } finally {
      await mock.close();
    }
  });

  it('a 3.1 document of webhooks only loads with no operation, and the mock starts on it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'webhooks-')), 'hooks.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.1.0',
        'info: {title: hooks, version: "1"}',
        'webhooks:',
        '  newPet:',
        '    post:',
        '      requestBody: {content: {application/json: {schema: {type: object}}}}',
        "      responses: {'200': {description: ok}}",
      ].join('\n'),
    );
    const mock = await createMockServer({ spec: file, port: 0, logLevel: 'silent' });
    try {
      expect(mock.engine.contract.operations.size).toBe(0);
      expect(mock.engine.contract.notes.join(' ')).toMatch(/declares no paths/);
      expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
