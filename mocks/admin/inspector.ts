/**
 * The inspector page served at /__mock/: plain HTML, CSS and JS in mocks/admin/inspector/, no build
 * step and nothing fetched from elsewhere, so it works offline. The same files serve when the
 * mock runs from source (tsx, vitest) and from dist/ after tsc, which copies no assets.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Answer } from '../http/answer.js';

export const INSPECTOR_DIR = fileURLToPath(
  new URL(import.meta.url.includes('/dist/mocks/') ? '../../../mocks/admin/inspector/' : './inspector/', import.meta.url),
);

/** Route path (under /__mock) → the asset it serves. */
export const INSPECTOR_ASSETS = {
  '/__mock': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/__mock/inspector.css': { file: 'inspector.css', type: 'text/css; charset=utf-8' },
  '/__mock/inspector.js': { file: 'inspector.js', type: 'text/javascript; charset=utf-8' },
} as const;

export type InspectorPath = keyof typeof INSPECTOR_ASSETS;

/**
 * The page only ever talks to its own origin and renders data as text; the policy makes that a
 * rule the browser enforces too, so a stored `<img onerror>` could not run even through a bug.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // The files are small and change with the mock's version: always revalidate.
  'cache-control': 'no-cache',
};

const cache = new Map<string, string>();

/** The answer serving one inspector asset (read from disk once). */
export function inspectorAsset(path: InspectorPath): Answer {
  const { file, type } = INSPECTOR_ASSETS[path];
  let body = cache.get(file);
  if (body === undefined) {
    body = readFileSync(INSPECTOR_DIR + file, 'utf8');
    cache.set(file, body);
  }
  return { status: 200, body, headers: { 'content-type': type, ...SECURITY_HEADERS } };
}
