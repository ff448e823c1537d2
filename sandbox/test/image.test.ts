/**
 * This repo's image under testcontainers: built from the Dockerfile, healthy by its own
 * HEALTHCHECK, verified through `verify:image` with the contract suite, its state kept across a
 * restart, stopped by SIGTERM with status 0; two of its containers sharing a Redis container. Needs a container runtime: without one that test is
 * skipped with the reason shown, and verify:image's answer to the missing runtime is checked.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GenericContainer, getContainerRuntimeClient, Network, Wait, type StartedTestContainer } from 'testcontainers';
import { describe, expect, it } from 'vitest';
import { NO_RUNTIME, probeContainerRuntime } from '../verify-image.js';
import { REPO_ROOT } from './dockerfile.js';
import { run } from '../../mocks/test/processes.js';
import { skipBecause } from './skip.js';
import { DEFAULT_TIMEOUT_MS } from '../../contract-tests/options.js';

const VERIFY_IMAGE = join(REPO_ROOT, 'dist/sandbox/verify-image.js');
const IMAGE = 'plant-store-mock:testcontainers';
const runtime = await probeContainerRuntime();

describe("this repo's image under testcontainers", () => {
  it(
    'builds, becomes healthy, passes the contract suite through verify:image, keeps its state across a restart and stops gracefully',
    async (context) => {
      if (!runtime.ok) skipBecause(context, `no container runtime is reachable (${runtime.reason})`);

      await GenericContainer.fromDockerfile(REPO_ROOT).build(IMAGE);
      const junit = join(mkdtempSync(join(tmpdir(), 'verify-image-')), 'junit.xml');
      const verified = await run(
        process.execPath,
        // Restricted to one token, so the suite's invalid token is refused as a real service would.
        [VERIFY_IMAGE, '--image', IMAGE, '--port', '4010', '--health-path', '/__mock/health', '--env', 'MOCK_TOKENS=ci-token', '--token', 'ci-token', '--junit', junit],
        {},
        10 * 60_000,
      );
      expect(verified.code, verified.output).toBe(0);
      expect(readFileSync(junit, 'utf8')).toContain('<testsuite');

      const container = await new GenericContainer(IMAGE).withExposedPorts(4010).withWaitStrategy(Wait.forHealthCheck()).start();
      const url = (): string => `http://${container.getHost()}:${container.getMappedPort(4010)}`;
      const created = await fetch(`${url()}/plants`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: '{"id":9223372036854775807,"name":"Contained"}',
      });
      expect(created.status).toBe(200);
      await container.restart(); // docker restart -t 0: the mock is killed, not stopped
      expect(await (await fetch(`${url()}/__mock/plants`)).text()).toBe('[{"id":9223372036854775807,"name":"Contained"}]');

      await container.stop({ remove: false, timeout: 20_000 });
      const client = await getContainerRuntimeClient();
      const stopped = client.container.getById(container.getId());
      try {
        expect((await client.container.inspect(stopped)).State.ExitCode).toBe(0); // SIGTERM handled, not killed
      } finally {
        await client.container.remove(stopped, { removeVolumes: true });
      }
    },
    20 * 60_000,
  );

  it(
    'two mock containers on one Redis container share every plant; Redis stopped → 503, started again → serving, no restart of the mocks',
    async (context) => {
      if (!runtime.ok) skipBecause(context, `no container runtime is reachable (${runtime.reason})`);

      await GenericContainer.fromDockerfile(REPO_ROOT).build(IMAGE);
      const network = await new Network().start();
      const started: StartedTestContainer[] = [];
      try {
        const redis = await new GenericContainer('redis:7-alpine')
          .withNetwork(network)
          .withNetworkAliases('redis')
          .withCommand(['redis-server', '--appendonly', 'yes', '--appendfsync', 'always'])
          .withWaitStrategy(Wait.forLogMessage('Ready to accept connections'))
          .start();
        started.push(redis);
        const replica = (name: string) =>
          new GenericContainer(IMAGE)
            .withNetwork(network)
            .withCommand(['mock', '--store', 'redis://redis:6379/0', '--store-prefix', 'testcontainers'])
            .withEnvironment({ MOCK_STATE_FILE: '' })
            .withHostname(name)
            .withExposedPorts(4010)
            .withWaitStrategy(Wait.forHealthCheck())
            .start();
        const [a, b] = await Promise.all([replica('replica-a'), replica('replica-b')]);
        started.push(a as StartedTestContainer, b as StartedTestContainer);
        const url = (container: StartedTestContainer): string => `http://${container.getHost()}:${container.getMappedPort(4010)}`;
        const create = (container: StartedTestContainer, body: string) =>
          fetch(`${url(container)}/plants`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body });

        expect((await create(a as StartedTestContainer, '{"id":9223372036854775807,"name":"Shared"}')).status).toBe(200);
        expect((await create(b as StartedTestContainer, '{"id":9223372036854775807,"name":"Again"}')).status).toBe(409);
        expect(await (await fetch(`${url(b as StartedTestContainer)}/__mock/plants`)).text()).toBe('[{"id":9223372036854775807,"name":"Shared"}]');

        await redis.stop({ remove: false });
        const lost = await create(a as StartedTestContainer, '{"id":1,"name":"While lost"}');
        expect(lost.status).toBe(503);
        expect(await lost.json()).toMatchObject({ error: 503, message: expect.any(String) });
        await redis.restart();
        await expect.poll(async () => (await create(b as StartedTestContainer, '{"id":2,"name":"Back"}')).status, { timeout: 30_000, interval: 500 }).toBe(200);
        expect(await (await fetch(`${url(a as StartedTestContainer)}/__mock/plants`)).text()).toBe('[{"id":9223372036854775807,"name":"Shared"},{"id":2,"name":"Back"}]');
      } finally {
        await Promise.allSettled(started.map((container) => container.stop()));
        await network.stop();
      }
    },
    20 * 60_000,
  );

  it('verify:image exits 2 naming the missing container runtime', async (context) => {
    if (runtime.ok) skipBecause(context, 'a container runtime is reachable here, so its absence cannot be shown');
    const { code, output } = await run(process.execPath, [VERIFY_IMAGE, '--image', IMAGE, '--token', 't']);
    expect(code, output).toBe(2);
    expect(output).toContain(`no container runtime is reachable (${NO_RUNTIME}`);
  });

  it('stops the contract suite it started when told to (what its SIGINT/SIGTERM handler does)', async () => {
    // A provider that accepts connections and never answers: the suite would wait on its timeouts.
    // It stops the suite once the suite's first request has arrived (and is left unanswered).
    const stop = new AbortController();
    let aborted = Infinity;
    const silent = createServer(() => {
      aborted = Math.min(aborted, performance.now());
      stop.abort();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { runSuite } = (await import(VERIFY_IMAGE)) as typeof import('../verify-image.js');
    try {
      const status = runSuite(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, ['--token', 't'], stop.signal);
      expect(await status).toBe(2);
      // The control: without the stop it would wait out at least one request timeout.
      expect(performance.now() - aborted).toBeLessThan(DEFAULT_TIMEOUT_MS);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
