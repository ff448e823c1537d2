/**
 * Debian's Chromium driven by playwright-core, for the browser tests. Browser downloads do not
 * work on our machines, so the tests use the system binary (.ci/run installs it with apt-get)
 * and skip, saying why, only where it is missing.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll } from 'vitest';
import { PATIENT_MS } from './processes.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where screenshots go: kept out of git (.gitignore has /artifacts/). */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../artifacts/browser/', import.meta.url));

/** Why the browser tests cannot run here, or undefined when they can (printed once per file). */
export const chromiumMissing: string | undefined = (() => {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return undefined;
  } catch {
    const reason = `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
    console.warn(reason);
    return reason;
  }
})();

/** `extraArgs`: more Chromium switches, e.g. `--host-resolver-rules` to point a name at loopback. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...extraArgs],
    timeout: PATIENT_MS,
  });
}

/**
 * One Chromium for a whole test file, launched when a describe first asks for it and closed after
 * the file's last test: a launch is the dearest step of a browser test, and the describes of a file
 * run one after another, each in its own contexts (`close` what it opened with `closeContexts`).
 * Call it at the file's top level, where its `afterAll` belongs to the file.
 */
export function chromiumOfFile(): () => Promise<Browser> {
  let launched: Promise<Browser> | undefined;
  afterAll(async () => {
    const browser = await launched?.catch(() => undefined);
    await browser?.close();
  });
  return () => (launched ??= launchChromium());
}

/** Closes every context (page) open in `browser`: a describe's, when the file's browser outlives it. */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
}

/**
 * A new page whose waits (locators, navigation) give up after PATIENT_MS, not Playwright's 30 s:
 * each waits for an event in the page, and its limit is a safety net for a busy machine.
 */
export async function patientPage(browser: Browser, options?: BrowserContextOptions): Promise<Page> {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(PATIENT_MS);
  page.setDefaultNavigationTimeout(PATIENT_MS);
  return page;
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return ARTIFACTS_DIR + name;
}

/**
 * A frontend's own origin: a loopback server on another port serving one empty page, so every
 * fetch the page makes to the mock is cross-origin, exactly as from a dev server.
 */
export async function startFrontendOrigin(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>frontend</title></head><body>frontend origin</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
