/**
 * `npm start -- --proxy URL` as users run it (dist/start/cli.js, built by `npm test`): the flags,
 * their refusals, an https upstream trusted through NODE_EXTRA_CA_CERTS, and — for comparison —
 * Stoplight's `prism proxy` rounding the ids ours passes exactly.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SPEC_PATH } from '../../../openapi/plant-store.js';
import { MOCK_CLI, run, startMockProcess, startServer } from '../../test/processes.js';
import { createMockServer } from '../../server.js';
import { answerJson, closedPort, exchange, JSON_AUTH, startProvider } from './providers.js';

const runCli = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [MOCK_CLI, ...args], { env: { ...process.env, ...env } }, 30_000);

describe('npm start -- --proxy', () => {
  it('forwards to the upstream, logs proxy mode with the password masked, and reads its flags from the environment', async () => {
    const provider = await startProvider(answerJson(400, '{"error":400}'));
    const upstream = provider.url.replace('http://', 'http://ci:hunter2@');
    // MOCK_STATE_FILE cleared, as the image's default must be for proxy mode.
    const mock = await startMockProcess([], { MOCK_PROXY: upstream, MOCK_PROXY_STRICT: '1', MOCK_PROXY_TIMEOUT: '5000', MOCK_STATE_FILE: '' });
    const answer = await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: '{"id":9223372036854775807,"name":"x"}' });
    expect(answer.status).toBe(502); // strict, from MOCK_PROXY_STRICT
    expect(provider.received.at(-1)!.body.toString()).toBe('{"id":9223372036854775807,"name":"x"}');
    await expect.poll(() => mock.output()).toMatch(/"msg":"proxy mode: forwarding to http:\/\/ci:\*\*\*@127\.0\.0\.1:\d+ \(strict\); the store is not used"/);
    expect(mock.output()).not.toContain('hunter2');
  });

  it.each([
    [['--proxy', 'ftp://files.example/'], /--proxy: ftp:\/\/files\.example\/ has the scheme ftp/],
    [['--proxy', 'https://me:topsecret@staging.example/?x=1'], /--proxy: https:\/\/me:\*\*\*@staging\.example\/\?x=1 has a query/],
    [['--proxy', 'http://127.0.0.1:9', '--state-file', 'plants.state'], /--state-file does not apply/],
    [['--proxy', 'http://127.0.0.1:9', '--tokens', 'a'], /--tokens does not apply/],
    [['--proxy', 'http://127.0.0.1:9', '--seed', 'plants.json', '--stateless', 'all'], /--seed, --stateless do not apply/],
    [['--proxy', 'http://127.0.0.1:9', '--proxy-timeout', '0'], /--proxy-timeout/],
    [['--proxy-strict'], /--proxy-strict only applies with --proxy/],
    [['--proxy-connect-timeout', '100'], /--proxy-connect-timeout only applies with --proxy/],
  ])('exits 2 with a clear message for %j', async (args, pattern) => {
    const { code, output } = await runCli(['--port', '0', ...args]);
    expect(code).toBe(2);
    expect(output).toMatch(pattern);
    expect(output).not.toContain('topsecret');
  });
});

/** A self-signed certificate for 127.0.0.1, made with openssl; undefined when openssl is missing. */
function selfSignedCertificate(): { key: string; cert: string; certFile: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
  } catch {
    return undefined;
  }
  return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), certFile: join(dir, 'cert.pem') };
}

const certificate = selfSignedCertificate();

describe.skipIf(!certificate)(`an https upstream${certificate ? '' : ' (skipped: openssl not found to make a certificate)'}`, () => {
  const startTlsProvider = async (): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> => {
    let connections = 0;
    const server = createHttpsServer({ key: certificate!.key, cert: certificate!.cert }, (req, res) => {
      req.resume();
      req.on('end', () => answerJson(200, '{"name":"Secure","id":9007199254740993}')(req, res, Buffer.alloc(0)));
    });
    server.on('secureConnection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      connections: () => connections,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  };

  it('refuses an upstream whose certificate it cannot verify, as TLS failing (502)', async () => {
    const tls = await startTlsProvider();
    const mock = await createMockServer({ port: 0, logLevel: 'silent', proxy: { upstream: tls.url } });
    try {
      const answer = await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: '{"id":1,"name":"x"}' });
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.body.toString()).message).toMatch(/the TLS handshake failed \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)/);
    } finally {
      await mock.close();
      await tls.close();
    }
  });

  it('forwards over TLS to an upstream trusted through NODE_EXTRA_CA_CERTS, keeping the connection alive between requests', async () => {
    const tls = await startTlsProvider();
    try {
      const mock = await startMockProcess(['--proxy', tls.url], { NODE_EXTRA_CA_CERTS: certificate!.certFile });
      for (const id of [1, 2, 3]) {
        const answer = await exchange(`${mock.url}/plants`, { headers: JSON_AUTH, body: `{"id":${id},"name":"x"}` });
        expect(answer.status).toBe(200);
        expect(answer.body.toString()).toBe('{"name":"Secure","id":9007199254740993}');
        expect(answer.headers['plant-store-violations']).toBe('[]');
      }
      expect(tls.connections()).toBe(1);
    } finally {
      await tls.close();
    }
  });
});

const PRISM_CLI = fileURLToPath(new URL('../../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url));

describe.skipIf(!existsSync(PRISM_CLI))(`ids beyond 2^53 through a proxy, ours and Prism's${existsSync(PRISM_CLI) ? '' : ' (skipped: @stoplight/prism-cli is not installed: npm ci)'}`, () => {
  it('ours passes 9007199254740993 exactly both ways where `prism proxy` rounds it to 9007199254740992', async () => {
    const answered = '{"name":"Ficus","id":9007199254740993}';
    const provider = await startProvider(answerJson(200, answered));
    const sent = '{"id":9007199254740993,"name":"Ficus"}';

    const ours = await createMockServer({ port: 0, logLevel: 'silent', proxy: { upstream: provider.url } });
    try {
      const answer = await exchange(`${ours.url}/plants`, { headers: JSON_AUTH, body: sent });
      expect(provider.received.at(-1)!.body.toString()).toBe(sent);
      expect(answer.body.toString()).toBe(answered);
    } finally {
      await ours.close();
    }

    const port = await closedPort();
    // Prism forks a worker when NODE_ENV is production (its -m default), and that path crashes on Node's cluster import.
    const prism = await startServer(process.execPath, [PRISM_CLI, 'proxy', SPEC_PATH, provider.url, '--port', String(port), '--host', '127.0.0.1', '--multiprocess=false']);
    const answer = await exchange(`${prism.url}/plants`, { headers: JSON_AUTH, body: sent });
    expect(provider.received.at(-1)!.body.toString()).toBe('{"id":9007199254740992,"name":"Ficus"}');
    expect(answer.body.toString()).toBe('{"name":"Ficus","id":9007199254740992}');
  });
});
