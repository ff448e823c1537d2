/**
 * The corpus of real public APIs (fixtures/real-world, 23 documents as their owners publish them:
 * Swagger 2.0, OpenAPI 3.0 and 3.1, multi-file ones, a BOM, YAML 1.2): each loads with exactly
 * the operations index.json counts under `paths`, and the mock starts on it and answers. Issue 37
 * §5's first row; what the mock answers on each is the suite's corpus test.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../server.js';

interface CorpusEntry {
  name: string;
  file: string;
  operations: number;
}

const ROOT = fileURLToPath(new URL('../../fixtures/real-world/', import.meta.url));
const CORPUS = JSON.parse(readFileSync(`${ROOT}index.json`, 'utf8')) as CorpusEntry[];

describe.each(CORPUS.map((entry) => [entry.name, entry] as const))('the real-world document %s', (_name, entry) => {
  it(`loads with the ${entry.operations} operations its paths declare, and the mock serves it`, async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: `${ROOT}${entry.file}` });
    try {
      // The document as the mock read it from its file: read again here, it cost a tenth of the file's time.
      expect(mock.engine.contract.operations.size).toBe(entry.operations);
      const health = await fetch(`${mock.url}/__mock/health`);
      expect(health.status).toBe(200);
      // A path no API declares is the mock's 404, in a body: the router is built and answering.
      const unknown = await fetch(`${mock.url}/no-such-path-in-any-corpus-api-${entry.name}`);
      expect(unknown.status).toBe(404);
    } finally {
      await mock.close();
    }
  });
});
