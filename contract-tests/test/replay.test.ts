/**
 * Every replay line runs as printed: the curl command a failure shows, run by bash with only
 * PLANT_STORE_TOKEN set, sends the provider the very credential the suite sent — the token with a
 * character added (`${PLANT_STORE_TOKEN}x`, never the unset `$PLANT_STORE_TOKENx`), in other
 * letter case, less its last character, as Basic credentials — while the report shows none of them.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlCommand, runContractSuite, type ContractReport, type Exchange } from '../index.js';
import { REFERENCE, startProvider, type Provider } from './providers/provider.js';

const run = promisify(execFile);
const TOKEN = 'Replay-Token-4711';

describe('replay lines', () => {
  let provider: Provider;
  let report: ContractReport;
  const seen: string[] = [];
  beforeAll(async () => {
    // Accepts any credential, so every auth case fails and is shown with its replay line; records the Authorization it got.
    provider = await startProvider({
      token: TOKEN,
      behaviour: {
        authorize: () => true,
        send: (res, status, text, headers) => {
          seen.push([res.req.headers.authorization ?? ''].flat().join(' + '));
          REFERENCE.send(res, status, text, headers);
        },
      },
    });
    report = await runContractSuite({ baseUrl: provider.url, token: TOKEN, seed: 7, generated: { positive: 0, negative: 0 } });
  });
  afterAll(() => provider?.close());

  const failing = (label: string): Exchange => {
    const finding = report.findings.find((f) => f.check === 'ignored_auth' && f.severity === 'failure' && f.exchange.case.id === `generated:auth-${label}`);
    expect(finding, label).toBeDefined();
    return (finding as { exchange: Exchange }).exchange;
  };

  it.each(['token-with-suffix', 'token-other-case', 'token-prefix', 'basic-with-token', 'lower-case-scheme-invalid-token'])('%s: runs as printed and sends what the suite sent', async (label) => {
    const exchange = failing(label);
    const line = curlCommand(exchange);
    expect(line).not.toContain(TOKEN);
    expect(line).not.toMatch(/\$PLANT_STORE_TOKEN[A-Za-z0-9_]/);
    expect(line).not.toContain('<token');
    const before = seen.length;
    const { stdout } = await run('bash', ['-c', line], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PLANT_STORE_TOKEN: TOKEN } });
    // The body repeats an id the provider now has: any answer will do, what counts is the credential it got.
    expect(stdout).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(seen.slice(before)).toEqual([[exchange.case.request.headers.authorization ?? ''].flat().join(' + ')]);
  });
});
