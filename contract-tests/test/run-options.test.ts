/**
 * What provider teams expect of a contract tool, through the command line they run (in this process): --checks and
 * --exclude-checks (an exclusion is shown with its reason), --har (HAR 1.2 by its schema, tokens
 * and --header values masked, replayed by Chromium), --cases (extra files in the fixture format,
 * run with the same checks), and a hostile provider's control bytes never reaching the terminal.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Har } from 'har-format';
import { describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../../mocks/test/chromium.js';
import { runContract } from './contract-command.js';
import { FLAWS } from './providers/flaws.js';
import { REFERENCE, startProvider, type Behaviour } from './providers/provider.js';

const TOKEN = 'options-token-31337';
const require = createRequire(import.meta.url);

const runCli = runContract;

async function withProvider<T>(behaviour: Partial<Behaviour> | undefined, use: (url: string) => Promise<T>): Promise<T> {
  const provider = await startProvider({ token: TOKEN, ...(behaviour ? { behaviour } : {}) });
  try {
    return await use(provider.url);
  } finally {
    await provider.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'contract-options-'));

describe('--checks and --exclude-checks', () => {
  const staging = FLAWS['bearer-token-not-checked']?.behaviour; // an auth stub that takes any bearer token

  it('let a staging environment whose auth stub takes any token exclude ignored_auth knowingly, and say so', async () => {
    const { code, output } = await withProvider(staging, (url) => runCli(['--base-url', url, '--token', TOKEN, '--generated', '3', '--exclude-checks', 'ignored_auth']));
    expect(output).toMatch(/^- ignored_auth .* all$/m);
    expect(output).toContain('ignored_auth, every case: excluded with --exclude-checks');
    expect(output).toMatch(/^PASSED: all 7 checks run passed; .*1 check\(s\) skipped/m);
    expect(code).toBe(0);
    // Without the exclusion the same provider fails.
    const strict = await withProvider(staging, (url) => runCli(['--base-url', url, '--token', TOKEN, '--generated', '3']));
    expect(strict.code).toBe(1);
  });

  it('run only the checks named with --checks, the others reported as not selected', async () => {
    const { code, output } = await withProvider(undefined, (url) => runCli(['--base-url', url, '--token', TOKEN, '--generated', '3', '--checks', 'not_a_server_error,status_code_conformance']));
    expect(output).toMatch(/^✓ not_a_server_error\s+\d+/m);
    expect(output).toMatch(/^- response_echoes_request .* all$/m);
    expect(output).toMatch(/content_type_conformance, .*ignored_auth, every case: not selected with --checks/);
    expect(code).toBe(0);
  });

  it.each([
    [['--checks', 'not_a_server_eror'], /--checks: no check named not_a_server_eror; the checks are not_a_server_error, /],
    [
      [
        '--exclude-checks',
        'not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,positive_data_acceptance,response_echoes_request,negative_data_rejection,ignored_auth',
      ],
      /Every check is excluded/,
    ],
  ])('refuse %j with exit 2', async (args, message) => {
    const { code, output } = await runCli(['--base-url', 'http://127.0.0.1:9', '--token', TOKEN, ...args]);
    expect(output).toMatch(message);
    expect(code).toBe(2);
  });
});

describe('--har', () => {
  const harPath = join(dir, 'reports', 'contract.har');
  let har: Har;
  let providerUrl: string;

  it('writes every exchange as HAR 1.2, valid by the HAR schema, with the token and --header values masked', async () => {
    const secret = 'gateway-secret-value';
    const { code, output } = await withProvider(undefined, async (url) => {
      providerUrl = url;
      return runCli(['--base-url', url, '--token', TOKEN, '--header', `X-Gateway-Key: ${secret}`, '--generated', '3', '--har', harPath]);
    });
    expect(code).toBe(0);
    expect(output).toContain(`HAR file: ${harPath}`);
    const text = readFileSync(harPath, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(secret);
    har = JSON.parse(text) as Har;
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
    const schemas = require('har-schema') as Record<string, object>;
    for (const schema of Object.values(schemas)) ajv.addSchema(schema);
    const validate = ajv.getSchema('har.json#');
    expect(validate?.(har), JSON.stringify(validate?.errors?.slice(0, 5))).toBe(true);
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.length).toBeGreaterThan(300);
    const first = har.log.entries[0];
    expect(first?.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer <token>' });
    expect(first?.request.headers).toContainEqual({ name: 'x-gateway-key', value: '<value given with --header>' });
    expect(first?.request.postData?.mimeType).toBe('application/json');
    expect(first?.comment).toMatch(/^generated:probe-first: /);
  });

  it.skipIf(chromiumMissing)(`opens in Chromium: Playwright's HAR replay answers the page's request from it${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
    const entry = har.log.entries.find((e) => e.comment?.startsWith('fixture:tagged-plant:'));
    expect(entry?.response.status).toBe(200);
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      await context.routeFromHAR(harPath, { notFound: 'abort' });
      const page = await context.newPage();
      // The page lives at the provider's origin (served from the HAR's 404s is not needed: a data page navigated to the origin).
      await page.route(`${providerUrl}/`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>har</title>' }));
      await page.goto(`${providerUrl}/`);
      // The provider is gone: only the HAR can answer.
      const answer = await page.evaluate(
        async ({ url, body, headers }) => {
          const response = await fetch(url, { method: 'POST', body, headers });
          return { status: response.status, text: await response.text() };
        },
        { url: entry?.request.url as string, body: entry?.request.postData?.text as string, headers: { 'content-type': 'application/json' } },
      );
      expect(answer).toEqual({ status: 200, text: entry?.response.content.text });
    } finally {
      await browser.close();
    }
  });
});

describe('secrets', () => {
  it('are masked in what the provider echoes, after the checks have judged the real answer (a one-letter token garbles nothing)', async () => {
    const harPath = join(dir, 'short-token.har');
    const echoing: Partial<Behaviour> = {
      plant: (value) => ({ ...REFERENCE.plant(value), seen: 'Bearer T' }),
    };
    const provider = await startProvider({ token: 'T', behaviour: echoing });
    try {
      const { code, output } = await runCli(['--base-url', provider.url, '--token', 'T', '--generated', '3', '--har', harPath]);
      expect(output).toMatch(/^PASSED/m);
      expect(code).toBe(0);
      const har = readFileSync(harPath, 'utf8');
      expect(har).not.toMatch(/Bearer T\b/);
      expect(har).toContain('"seen\\":\\"Bearer <token>\\"');
      // Names with capital Ts (an SQL sample says DROP TABLE) come through whole.
      expect(har).toContain('DROP TABLE plants');
    } finally {
      await provider.close();
    }
  });
});

describe('a short token', () => {
  it("has its derived forms masked where credentials go, not in the provider's words (`an` of `any` is an article in a body)", async () => {
    const harPath = join(dir, 'short-derived.har');
    const echoing: Partial<Behaviour> = { plant: (value) => ({ ...REFERENCE.plant(value), note: 'an answer' }) };
    const provider = await startProvider({ token: 'any', behaviour: echoing });
    try {
      const { code, output } = await runCli(['--base-url', provider.url, '--token', 'any', '--generated', '3', '--har', harPath]);
      expect(output).toMatch(/^PASSED/m);
      expect(code).toBe(0);
      const har = readFileSync(harPath, 'utf8');
      expect(har).toContain('"note\\":\\"an answer\\"');
      expect(har).not.toContain('${PLANT_STORE_TOKEN%?} answer');
      // The near miss the suite sent (the token less a character) is still masked in its header.
      expect(har).not.toMatch(/"Bearer an"/);
      expect(har).toContain('Bearer ${PLANT_STORE_TOKEN%?}');
    } finally {
      await provider.close();
    }
  });
});

describe('derived forms of the token', () => {
  it('never reach the console, the HAR or the JUnit report: the token in other case, less a character, as Basic credentials', async () => {
    const token = 'Secret-Token-4711';
    const forms = [token, 'sECRET-tOKEN-4711', 'Secret-Token-471', Buffer.from(`${token}:`).toString('base64')];
    const harPath = join(dir, 'derived.har');
    const junitPath = join(dir, 'derived.xml');
    // Accepts any credential (so every auth case fails and is shown in full) and echoes what it was sent.
    const echoing: Partial<Behaviour> = {
      authorize: () => true,
      send: (res, status, text, headers) => REFERENCE.send(res, status, text, { ...headers, 'x-seen-authorization': String(res.req.headers.authorization ?? '') }),
    };
    const provider = await startProvider({ token, behaviour: echoing });
    try {
      const { code, output } = await runCli(['--base-url', provider.url, '--token', token, '--generated', '3', '--har', harPath, '--junit', junitPath]);
      expect(code).toBe(1);
      const har = readFileSync(harPath, 'utf8');
      const junit = readFileSync(junitPath, 'utf8');
      for (const [name, text] of [
        ['console', output],
        ['HAR', har],
        ['JUnit', junit],
      ] as const) {
        for (const form of forms) expect(text.includes(form), `${name} shows ${form}`).toBe(false);
      }
      // The cases were sent and shown, masked.
      // Shown as the shell expressions that compute them from $PLANT_STORE_TOKEN, so a replay runs as printed.
      for (const standIn of ['${PLANT_STORE_TOKEN~~}', '${PLANT_STORE_TOKEN%?}', `Basic $(printf '%s:' "$PLANT_STORE_TOKEN" | base64 -w0)`])
        expect(har).toContain(JSON.stringify(standIn).slice(1, -1));
      expect(junit).toContain('${PLANT_STORE_TOKEN~~}');
    } finally {
      await provider.close();
    }
  });
});

describe('--cases', () => {
  const casesDir = join(dir, 'frontend-cases');
  const file = (cases: unknown[]) => JSON.stringify({ description: 'requests a frontend sent', cases }, null, 2);

  it('runs extra case files with the same checks, names a failing case and where it came from, and skips what does not fit', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(casesDir, { recursive: true });
    writeFileSync(
      join(casesDir, 'frontend.json'),
      file([
        {
          name: 'blank-name',
          description: 'the form submitted with the name left blank',
          expect: 'accepted',
          origin: 'the mock journal, request 7',
          request: { method: 'POST', path: '/plants', contentType: 'application/json;charset=UTF-8', id: 'safe-positive', body: { text: '{"name":"","id":{{id}}}' } },
        },
        { name: 'tag-as-list', description: 'tags sent as a list', expect: 'rejected-body', request: { id: 'safe-positive', body: { json: { name: 'Ficus', tag: ['a'] } } } },
        { name: 'read-back', description: 'the list view', expect: 'accepted', request: { method: 'GET', path: '/plants/1', id: 'safe-positive', body: { json: { name: 'x' } } } },
      ]),
    );
    const correct = await withProvider(undefined, (url) => runCli(['--base-url', url, '--token', TOKEN, '--generated', '3', '--cases', casesDir]));
    expect(correct.output).toContain('cases:read-back: the case no longer fits the spec: it is GET /plants/1; the suite tests createPlant (POST /plants)');
    expect(correct.output).toMatch(/^PASSED/m);
    expect(correct.code).toBe(0);

    const broken = await withProvider(FLAWS['empty-name-refused']?.behaviour, (url) => runCli(['--base-url', url, '--token', TOKEN, '--generated', '3', '--cases', join(casesDir, 'frontend.json')]));
    expect(broken.output).toMatch(
      /\d+\) positive_data_acceptance: cases:blank-name\n {3}Case: {5}the form submitted with the name left blank\n {3}From: {5}frontend\.json, the mock journal, request 7/,
    );
    expect(broken.code).toBe(1);
  });

  it('refuses a file that is not in the fixture format with exit 2, naming it', async () => {
    writeFileSync(join(dir, 'bad.json'), file([{ name: 'x', description: 'x', expect: 'acepted', request: { body: { json: {} } } }]));
    const { code, output } = await runCli(['--base-url', 'http://127.0.0.1:9', '--token', TOKEN, '--cases', join(dir, 'bad.json')]);
    expect(output).toMatch(/--cases .*bad\.json: bad\.json does not match fixture-file\.schema\.json/);
    expect(code).toBe(2);
  });
});

describe('a hostile provider', () => {
  const ESC = '\u001b';
  // Colours, a window-title change, a cursor move, C1 controls, DEL and a bidi override.
  const hostile = `${ESC}]0;pwned${ESC}\\${ESC}[31mred${ESC}[0m${ESC}[2J\u009b31m\u0085\u007f\u202eevil\u2066`;
  const behaviour: Partial<Behaviour> = {
    serialize: () => `{"name":${hostile.length},"note":"${hostile}"}`,
    error: (status) => ({ body: `{"error":${status},"message":7,"x":"${hostile}"}`, contentType: `application/json` }),
    send: (res, status, text, headers) => {
      res.statusMessage = 'OK \u0085 evil';
      REFERENCE.send(res, status, text, { ...headers, 'x-hostile': 'a\u0085\u00ff' });
    },
  };

  it('never gets a control byte to the terminal: every report line is escaped', async () => {
    const { code, output, raw } = await withProvider(behaviour, (url) => runCli(['--base-url', url, '--token', TOKEN, '--generated', '3']));
    expect(code).toBe(1);
    expect(raw.includes(0x1b)).toBe(false);
    expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(output).toContain('\\x1b]0;pwned');
    expect(output).toContain('\\x9b31m');
    expect(output).toContain('\\u202eevil');
  });

  it('writes every attribute and property of the JUnit file through the escaper: a spec path holding bytes XML cannot carry (issue 24)', async () => {
    // A file name may hold any byte but `/` and NUL; the builder silently dropped \u0001 and \u001b, naming another file.
    const specPath = join(dir, `spec-\u0001\u001b]]>]]>"<&'.yaml`);
    copyFileSync(fileURLToPath(new URL('../../spec/plant-store.openapi.yaml', import.meta.url)), specPath);
    const junitPath = join(dir, 'hostile-spec.xml');
    const { code, output } = await withProvider(undefined, (url) => runCli(['--base-url', url, '--token', TOKEN, '--generated', '3', '--spec', specPath, '--junit', junitPath]));
    expect(output).toMatch(/^PASSED/m);
    expect(code).toBe(0);
    const xml = readFileSync(junitPath, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testsuite' || name === 'property' }).parse(xml) as {
      testsuites: { testsuite: { properties: { property: { '@_name': string; '@_value': string }[] } }[] };
    };
    const specs = parsed.testsuites.testsuite.map((suite) => suite.properties.property.find((p) => p['@_name'] === 'spec')?.['@_value']);
    expect(specs.length).toBeGreaterThan(0);
    // The path as given: the characters XML cannot carry (and `]]>`) as escapes, the rest as they are.
    for (const spec of specs) expect(spec).toBe(specPath.replace('\u0001\u001b]]>]]>', '\\u0001\\u001b]]\\u003e]]\\u003e'));
  });

  it('cannot close a CDATA section of the JUnit file, nor break the HAR or the terminal, whatever its body holds (issue 24 #3)', async () => {
    // Two `]]>`: the XML library splits only the first, and what follows the second became XML (346 forged passing cases).
    const forge = ']]></system-out></testcase><testcase classname="forged" name="forged-a"/><testcase classname="forged" name="forged-b"><system-out><![CDATA[';
    const cdata: Partial<Behaviour> = {
      serialize: () => `{"name":1,"note":"${forge}${forge}${ESC}[2J\u202e"}`,
      error: (status) => ({ body: `{"error":${status},"x":"${forge}${forge}${forge}"}`, contentType: 'application/json' }),
    };
    const junitPath = join(dir, 'cdata.xml');
    const harPath = join(dir, 'cdata.har');
    const { code, output, raw } = await withProvider(cdata, (url) => runCli(['--base-url', url, '--token', TOKEN, '--generated', '3', '--junit', junitPath, '--har', harPath]));
    expect(code).toBe(1);
    const xml = readFileSync(junitPath, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testcase' || name === 'testsuite' }).parse(xml) as {
      testsuites: { testsuite: { testcase?: { '@_classname': string; '@_name': string }[] }[] };
    };
    const cases = parsed.testsuites.testsuite.flatMap((suite) => suite.testcase ?? []);
    expect(cases.length).toBeGreaterThan(0);
    expect(cases.filter((c) => c['@_classname'] === 'forged' || c['@_name'].startsWith('forged'))).toEqual([]);
    // The provider's text is still there to read, its `]]>` written as an escape.
    expect(xml).toContain('forged-a');
    expect(xml).toContain(']]\\u003e</system-out>');
    const har = JSON.parse(readFileSync(harPath, 'utf8')) as Har;
    expect(har.log.entries.some((entry) => entry.response.content.text?.includes(forge))).toBe(true);
    expect(raw.includes(0x1b)).toBe(false);
    expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });
});
