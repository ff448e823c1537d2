/**
 * docker-compose.yml and the Dockerfile checked against what the programs really accept, without
 * an engine: the mock's flags and environment names come from its commander definition, Prism's
 * and the contract suite's from their --help, and each health check is run against a live server.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { mockCommand, parseMockArgs, type MockCommandLine } from '../../mocks/config.js';
import { createMockServer } from '../../mocks/server.js';
import { readRuntimeImage, REPO_ROOT } from './dockerfile.js';
import { run, startServer } from '../../mocks/test/processes.js';
import { REDIS_SERVER_PATH, REDIS_SKIP_REASON, RedisServer } from '../../mocks/test/redis-server.js';
import { parseRedisUrl } from '../../mocks/stores/redis-target.js';
import { skipBecause } from './skip.js';

const packageJson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { files: string[] };

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  profiles?: string[];
  hostname?: string;
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
};
const image = readRuntimeImage();

/** The entrypoint's modes (`mock) exec node [flags] "$app/dist/…"`), each with the built file it runs (`npm test` builds them). */
const modes = new Map(
  [...readFileSync(join(REPO_ROOT, 'sandbox/entrypoint.sh'), 'utf8').matchAll(/^\s*(\w+)\) exec node (?:--[\w=-]+ )*"\$app\/dist\/([^"]+)\.js"/gm)].map(([, mode, file]) => [
    mode as string,
    `dist/${file}.js`,
  ]),
);

/** `${NAME:-default}` and `${NAME}` as compose substitutes them. */
function interpolate(value: string, env: Record<string, string> = {}): string {
  return value.replace(/\$\{(\w+)(?::-([^}]*))?\}/g, (_, name: string, fallback?: string) => env[name] || (fallback ?? ''));
}

function environmentOf(service: Service, env: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([name, value]) => [name, interpolate(String(value), env)]));
}

/** The mode a command runs (flags alone go to the mock) and its arguments. */
function modeOf(service: Service): { mode: string; args: string[] } {
  const command = (service.command ?? image.cmd).map((part) => interpolate(part));
  return command[0]?.startsWith('-') ? { mode: 'mock', args: command } : { mode: command[0] as string, args: command.slice(1) };
}

const envNames = (command: Command): string[] => command.options.flatMap((option) => (option.envVar ? [option.envVar] : []));

/** Parses mock flags with exactly `env` set for the mock's environment names (restored after). */
function parseWithEnv(args: string[], env: Record<string, string>): MockCommandLine {
  const names = [...new Set([...envNames(mockCommand()), ...Object.keys(env)])];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  try {
    for (const name of names) delete process.env[name];
    Object.assign(process.env, env);
    return parseMockArgs(args);
  } finally {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
}

/** The container side of `host:container` port mappings. */
const containerPorts = (service: Service): number[] => (service.ports ?? []).map((mapping) => Number(String(mapping).split(':').pop()));

/** Flags and environment names a CLI lists in its --help (built by `npm test` into dist/). */
async function helpOf(file: string): Promise<{ text: string; flags: Set<string>; env: Set<string> }> {
  const { code, output } = await run(process.execPath, [join(REPO_ROOT, file), '--help']);
  expect(code, output).toBe(0);
  return {
    text: output,
    flags: new Set([...output.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map(([flag]) => flag)),
    env: new Set([...output.matchAll(/env:\s+([A-Z_][A-Z0-9_]*)/g)].map(([, name]) => name as string)),
  };
}

const flagsIn = (args: string[]): string[] => args.filter((arg) => arg.startsWith('--')).map((arg) => arg.split('=')[0] as string);

/** Runs a compose/Docker health check command (exec form after CMD) with the port it probes swapped. */
function runHealthcheck(test: string[], from: number, to: number): Promise<{ code: number | null; output: string }> {
  expect(test[0]).toBe('CMD');
  const [command, ...args] = test.slice(1).map((part) => part.replaceAll(String(from), String(to)));
  return run(command as string, args);
}

/** The healthcheck command passes against a live mock on `port` and fails once that mock is gone. */
async function expectHealthcheckFollowsTheMock(test: string[], port: number): Promise<void> {
  const live = await createMockServer({ port: 0, logLevel: 'silent' });
  try {
    expect(await runHealthcheck(test, port, live.port)).toMatchObject({ code: 0 });
  } finally {
    await live.close();
  }
  expect((await runHealthcheck(test, port, live.port)).code).not.toBe(0);
}

describe('docker-compose.yml', () => {
  const { mock, prism, contract } = compose.services;

  it('runs only modes the entrypoint has, each a CLI of this repo', () => {
    expect([...modes.keys()].sort()).toEqual(['contract', 'mock', 'prism']);
    for (const [mode, source] of modes) expect(existsSync(join(REPO_ROOT, source)), `${mode} runs ${source}`).toBe(true);
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.build) expect(modes.has(modeOf(service).mode), name).toBe(true);
    }
    expect(modes.has(image.cmd[0] as string)).toBe(true);
  });

  it('starts the stateful mock on 4010 with real flags, listening beyond the container and keeping its state in a named volume', () => {
    expect(mock).toBeDefined();
    const { mode, args } = modeOf(mock as Service);
    expect(mode).toBe('mock');
    const env = environmentOf(mock as Service);
    expect(Object.keys(env).filter((name) => !envNames(mockCommand()).includes(name))).toEqual([]);
    const options = parseWithEnv(args, { ...image.env, ...env }); // throws on a flag the mock does not have
    expect(containerPorts(mock as Service)).toEqual([4010]);
    expect(options.port).toBe(4010);
    expect(options.host).toBe('0.0.0.0');
    const mounts = (mock?.volumes ?? []).map((volume) => volume.split(':'));
    const stateDir = dirname(options.stateFile ?? '');
    const mount = mounts.find(([, target]) => target === stateDir);
    expect(mount, `a volume mounted at ${stateDir}`).toBeDefined();
    expect(Object.keys(compose.volumes ?? {})).toContain(mount?.[0]);
  });

  it("probes the mock's real health route on its port (and the probe fails when nothing answers)", async () => {
    const { args } = modeOf(mock as Service);
    const port = parseWithEnv(args, { ...image.env, ...environmentOf(mock as Service) }).port as number;
    const test = mock?.healthcheck?.test ?? [];
    expect(test.join(' ')).toContain(`:${port}/__mock/health`);
    await expectHealthcheckFollowsTheMock(test, port);
  });

  it('starts the Prism mock on 4011 with real flags and environment names; its health check connects', async () => {
    expect(prism).toBeDefined();
    const { mode, args } = modeOf(prism as Service);
    expect(mode).toBe('prism');
    const help = await helpOf(modes.get('prism') as string);
    expect(flagsIn(args).filter((flag) => !help.flags.has(flag))).toEqual([]);
    const env = environmentOf(prism as Service);
    expect(Object.keys(env).filter((name) => !help.env.has(name))).toEqual([]);
    expect(env.HOST).toBe('0.0.0.0');
    expect(containerPorts(prism as Service)).toEqual([4011]);
    expect(args.join(' ')).toContain('--port 4011');

    // The same command on a free loopback port.
    const swapped = args.map((arg) => (arg === '4011' ? '0' : arg));
    const server = await startServer(process.execPath, [join(REPO_ROOT, 'dist/mocks/prism/cli.js'), ...swapped], {
      env: { ...process.env, ...env, HOST: '127.0.0.1' },
    });
    expect(await runHealthcheck(prism?.healthcheck?.test ?? [], 4011, Number(new URL(server.url).port))).toMatchObject({ code: 0 });
  });

  it("runs the contract suite behind the contract profile, against the URL in the suite's own base-URL variable", async (context) => {
    expect(contract?.profiles).toEqual(['contract']);
    const { mode, args } = modeOf(contract as Service);
    expect(mode).toBe('contract');
    // Listed without values: compose passes them through from the shell, and leaves them unset when unset there.
    const passed = contract?.environment as unknown as string[];
    expect(Array.isArray(passed)).toBe(true);

    const cli = modes.get('contract') as string;
    if (!existsSync(join(REPO_ROOT, cli))) {
      skipBecause(context, `the contract CLI (${cli}) is not built, so its flags cannot be read`);
    }
    const help = await helpOf(cli);
    expect(flagsIn(args).filter((flag) => !help.flags.has(flag))).toEqual([]);
    expect(passed.filter((name) => !help.env.has(name))).toEqual([]);
    const baseUrlVariable = /--base-url[^\n]*(?:\n\s+[^-\s][^\n]*)*?env:\s+([A-Z_][A-Z0-9_]*)/.exec(help.text)?.[1];
    expect(passed).toContain(baseUrlVariable);
  });
});

describe('Dockerfile', () => {
  it('sets only environment names the CLIs read, runs as a non-root user on a slim supported Node LTS (24/26), state inside its volume', async () => {
    const prismHelp = await helpOf(modes.get('prism') as string);
    const known = new Set([...envNames(mockCommand()), ...prismHelp.env, 'NODE_ENV', 'NODE_COMPILE_CACHE']);
    expect(Object.keys(image.env).filter((name) => !known.has(name))).toEqual([]);
    expect(image.user).not.toMatch(/^(root|0)(:|$)/);
    for (const base of image.bases) expect(base).toMatch(/^node:(24|26)(\.\d+)*-slim$/);
    const options = parseWithEnv([], image.env);
    expect(options.host).toBe('0.0.0.0');
    expect(image.exposed).toContain(options.port);
    expect(image.volumes).toContain(dirname(options.stateFile ?? ''));
    // The HEALTHCHECK runs a script the package ships (run against live servers in package.test.ts).
    const [node, script = ''] = image.healthcheck.command;
    expect(node).toBe('node');
    expect(script.startsWith('/app/')).toBe(true);
    expect(packageJson.files).toContain(script.slice('/app/'.length));
    expect(readFileSync(join(REPO_ROOT, script.slice('/app/'.length)), 'utf8')).toContain('/__mock/health');
  });
});

describe('docker-compose.yml, replicas profile (Redis, three mock replicas, nginx on 4010)', () => {
  const services = compose.services;
  const replicaNames = Object.keys(services).filter((name) => /^replica-\d+$/.test(name));
  const replicas = replicaNames.map((name) => services[name] as Service);
  const redis = services.redis as Service;
  const lb = services.lb as Service;
  const nginxConf = (): string => {
    const mount = (lb?.volumes ?? []).map((volume) => volume.split(':')).find(([, target]) => target === '/etc/nginx/conf.d/default.conf');
    expect(mount, 'the nginx config mounted as the default server').toBeDefined();
    return readFileSync(join(REPO_ROOT, mount?.[0] as string), 'utf8');
  };
  const replicaOptions = (service: Service): MockCommandLine => parseWithEnv(modeOf(service).args, { ...image.env, ...environmentOf(service) });

  it('adds Redis, three replicas and a balancer under the replicas profile only; a plain `up` is unchanged', () => {
    expect(replicaNames).toEqual(['replica-1', 'replica-2', 'replica-3']);
    for (const name of ['redis', ...replicaNames, 'lb']) expect(services[name]?.profiles, name).toEqual(['replicas']);
    for (const name of ['mock', 'prism']) expect(services[name]?.profiles, name).toBeUndefined();
    expect(redis.image).toMatch(/^redis:\d+(\.\d+)*-alpine$/);
    expect(lb.image).toMatch(/^nginx:(stable|\d+(\.\d+)*)-alpine$/);
  });

  it("runs each replica as the mock with real flags, all on the redis service's URL and one prefix, no state file, listening beyond the container", () => {
    const parsed = replicas.map(replicaOptions); // throws on a flag or variable the mock does not have
    for (const service of replicas) {
      expect(modeOf(service).mode).toBe('mock');
      expect(Object.keys(environmentOf(service)).filter((name) => !envNames(mockCommand()).includes(name))).toEqual([]);
      expect(service.depends_on?.redis).toEqual({ condition: 'service_healthy' });
    }
    const redisPort = Number(/--port\s+(\d+)/.exec((redis.command ?? []).join(' '))?.[1] ?? 6379);
    for (const options of parsed) {
      expect(options.host).toBe('0.0.0.0');
      expect(options.stateFile || undefined).toBeUndefined(); // the image's MOCK_STATE_FILE cleared
      const target = parseRedisUrl(options.storeUrl);
      expect(target.host).toBe('redis');
      expect(target.port).toBe(redisPort);
      expect(options.storeUrl).toBe(parsed[0]?.storeUrl);
      expect(options.storePrefix).toBe(parsed[0]?.storePrefix);
      expect(options.port).toBe(parsed[0]?.port);
    }
    // Distinct host names, so each replica can tell which one answered.
    expect(new Set(replicas.map((service) => service.hostname)).size).toBe(3);
    expect(replicas.every((service) => (service.ports ?? []).length === 0)).toBe(true);
  });

  it("probes each replica's health route on its port, as the single mock's probe does (and it fails when nothing answers)", async () => {
    const port = replicaOptions(replicas[0] as Service).port as number;
    const test = replicas[0]?.healthcheck?.test ?? [];
    expect(test.join(' ')).toContain(`:${port}/__mock/health`);
    for (const service of replicas) expect(service.healthcheck?.test).toEqual(test);
    await expectHealthcheckFollowsTheMock(test, port);
  });

  it('balances exactly the three replicas on their port from 4010, waiting for them to be healthy, never limiting bodies below the mock', () => {
    const conf = nginxConf();
    const port = replicaOptions(replicas[0] as Service).port;
    const upstream = /upstream\s+(\w+)\s*\{([^}]*)\}/.exec(conf);
    expect(upstream).not.toBeNull();
    const servers = [...(upstream?.[2] ?? '').matchAll(/^\s*server\s+(\S+)/gm)].map(([, address]) => address);
    expect(servers).toEqual(replicaNames.map((name) => `${name}:${port}`));
    expect(conf).toMatch(new RegExp(`proxy_pass\\s+http://${upstream?.[1]};`));
    const listen = Number(/^\s*listen\s+(\d+);/m.exec(conf)?.[1]);
    expect(lb.ports).toEqual([`4010:${listen}`]);
    expect(conf).toMatch(/client_max_body_size\s+0;/); // the mock answers 413 itself, in the spec's Error shape
    expect(conf).not.toMatch(/non_idempotent/); // a POST already sent is never replayed on another replica
    for (const name of replicaNames) expect(lb.depends_on?.[name]).toEqual({ condition: 'service_healthy' });
    expect((lb.healthcheck?.test ?? []).join(' ')).toContain(`http://127.0.0.1:${listen}/__mock/health`);
  });

  it.skipIf(!REDIS_SERVER_PATH)(
    `runs Redis with flags the real redis-server accepts, persistence on, and a health check that answers${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`,
    async () => {
      const [program, ...args] = redis.command ?? [];
      expect(program).toBe('redis-server');
      expect(redis.volumes?.some((volume) => volume.endsWith(':/data'))).toBe(true);
      const server = await RedisServer.start({ args }); // exits before ready on a flag it does not know
      try {
        const cli = (...command: string[]) => run('redis-cli', ['-p', String(server.port), ...command]);
        expect((await cli('CONFIG', 'GET', 'appendonly')).output).toMatch(/appendonly\s+yes/);
        expect((await cli('CONFIG', 'GET', 'appendfsync')).output).toMatch(/appendfsync\s+everysec/);
        const [, probe, ...probeArgs] = redis.healthcheck?.test ?? [];
        expect(await run(probe as string, ['-p', String(server.port), ...probeArgs])).toMatchObject({ code: 0, output: expect.stringContaining('PONG') });
      } finally {
        await server.stop();
      }
    },
  );
});
