/**
 * The inspector page served at /__mock/ and the API docs at /__mock/docs: plain HTML, CSS and JS
 * in mocks/admin/inspector/ (checked by tsc through tsconfig.inspector.json, served as written),
 * and Swagger UI's own files from the swagger-ui-dist package. Nothing is fetched from elsewhere,
 * so both work offline. The same files serve when the mock runs from source (tsx, vitest) and
 * from dist/ after tsc, which copies no assets.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { packageFile } from '../../package/root.js';
import type { Answer } from '../http/answer.js';

export const INSPECTOR_DIR = `${packageFile('mocks', 'admin', 'inspector')}/`;

/** swagger-ui-dist's documented way to find its files (getAbsoluteFSPath), without loading its bundle. */
function swaggerUiDir(): string {
  const absolutePath = createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js') as () => string;
  return `${absolutePath()}/`;
}

type Asset = { file: string; type: string; from: 'inspector' | 'swagger-ui'; page: 'inspector' | 'docs' };

const HTML = 'text/html; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';

/** Route path (under /__mock) → the asset it serves. */
export const INSPECTOR_ASSETS = {
  '/__mock': { file: 'index.html', type: HTML, from: 'inspector', page: 'inspector' },
  '/__mock/inspector.css': { file: 'inspector.css', type: CSS, from: 'inspector', page: 'inspector' },
  '/__mock/inspector.js': { file: 'inspector.js', type: JS, from: 'inspector', page: 'inspector' },
  '/__mock/curl.js': { file: 'curl.js', type: JS, from: 'inspector', page: 'inspector' },
  '/__mock/docs': { file: 'docs.html', type: HTML, from: 'inspector', page: 'docs' },
  '/__mock/docs/docs.js': { file: 'docs.js', type: JS, from: 'inspector', page: 'docs' },
  '/__mock/docs/docs.css': { file: 'docs.css', type: CSS, from: 'inspector', page: 'docs' },
  '/__mock/docs/swagger-ui.css': { file: 'swagger-ui.css', type: CSS, from: 'swagger-ui', page: 'docs' },
  '/__mock/docs/swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: JS, from: 'swagger-ui', page: 'docs' },
} as const satisfies Record<string, Asset>;

export type InspectorPath = keyof typeof INSPECTOR_ASSETS;

/**
 * The pages only ever talk to their own origin and render data as text; the policy makes that a
 * rule the browser enforces too, so a stored `<img onerror>` or a spec's `<script>` could not run
 * even through a bug. The docs page renders the spec's Markdown (Swagger UI sanitises it with
 * DOMPurify) and sets inline style properties from script, which CSP does not govern; images of
 * a description may only be data: URLs, so a hostile spec cannot make the page call out.
 */
const POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; " + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  'content-security-policy': POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // The files are small and change with the mock's version: always revalidate.
  'cache-control': 'no-cache',
};

const cache = new Map<string, string>();

/** The answer serving one asset (read from disk once). */
export function inspectorAsset(path: InspectorPath): Answer {
  const { file, type, from } = INSPECTOR_ASSETS[path] as Asset;
  const key = `${from}/${file}`;
  let body = cache.get(key);
  if (body === undefined) {
    body = readFileSync((from === 'inspector' ? INSPECTOR_DIR : swaggerUiDir()) + file, 'utf8');
    cache.set(key, body);
  }
  return { status: 200, body, headers: { 'content-type': type, ...SECURITY_HEADERS } };
}

/** The document path the docs page loads: the spec with the mock as its only server. */
export const DOCS_DOCUMENT_PATH = '/__mock/docs/openapi.json';

/** The header of that document naming the version its file declares (the docs page reads it). */
export const DECLARED_VERSION_HEADER = 'x-openapi-declared-version';

/**
 * The loaded document as the docs page shows it: every `servers` entry (the document's, each
 * path's and each operation's) replaced by the mock itself (`/`: the page's own origin), so
 * "Try it out" calls the mock and nothing else.
 */
export function docsDocument(document: Record<string, unknown>, declaredVersion: string): Answer {
  const copy = structuredClone(document);
  copy.servers = [{ url: '/', description: 'this mock' }];
  const paths = copy.paths;
  if (typeof paths === 'object' && paths !== null) {
    for (const item of Object.values(paths as Record<string, unknown>)) {
      if (typeof item !== 'object' || item === null) continue;
      const pathItem = item as Record<string, unknown>;
      delete pathItem.servers;
      for (const operation of Object.values(pathItem)) {
        if (typeof operation === 'object' && operation !== null && !Array.isArray(operation)) delete (operation as Record<string, unknown>).servers;
      }
    }
  }
  // The document is the upgraded 3.1 copy; the page's version badge shows what the file declares (3.0.3, 2.0).
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-cache', [DECLARED_VERSION_HEADER]: declaredVersion };
  return { status: 200, body: JSON.stringify(copy), headers };
}
