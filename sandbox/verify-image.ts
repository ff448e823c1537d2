#!/usr/bin/env node
/**
 * `npm run verify:image -- --image IMAGE [--port 8080] [--health-path P] [--env K=V]… [suite flags]`:
 * provider verification for CI. Starts the provider's image with testcontainers, waits until it
 * is ready, runs the contract suite against it and removes it. Flags it does not know go to the
 * contract suite unchanged (--token, --junit, --header …).
 *
 * Exit status: the suite's (0 every check passed, 1 a check failed, 2 it could not run); 2 also
 * when no container runtime is reachable or the container never became ready; 130 or 143 when
 * stopped by SIGINT or SIGTERM (the suite is stopped and the container removed first).
 */
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import { parsedOrExit, wholeNumber as whole } from '../package/command-line.js';
import type { StartedTestContainer } from 'testcontainers';

export const CONTRACT_CLI = fileURLToPath(new URL('../contract-tests/cli.js', import.meta.url));
/** What testcontainers says, within milliseconds, when there is no Docker (or Podman …) to talk to. */
export const NO_RUNTIME = 'Could not find a working container runtime strategy';
const LOG_LINES_KEPT = 40;

export interface VerifyImageOptions {
  image: string;
  /** The port the provider listens on inside the container. */
  port: number;
  /** An HTTP path that answers 2xx once the provider is ready; without it, wait for the port. */
  healthPath?: string;
  env: Record<string, string>;
  startupTimeoutMs: number;
  /** Passed to the contract suite after `--base-url`. */
  suiteArgs: string[];
}

/** A flag that cannot work: exit 2 with its message. */
export class VerifyImageUsageError extends Error {
  override name = 'VerifyImageUsageError';
}

function environment(value: string, previous: Record<string, string>): Record<string, string> {
  const equals = value.indexOf('=');
  if (equals < 1) throw new InvalidArgumentError(`expected NAME=value, got '${value}'.`);
  return { ...previous, [value.slice(0, equals)]: value.slice(equals + 1) };
}

export function verifyImageCommand(): Command {
  return new Command('verify-image')
    .description("Starts a provider's image with testcontainers, waits until it is ready, runs the Plant Store contract suite against it and removes it.")
    .requiredOption('--image <image>', 'the provider image to verify (pulled when not present locally)')
    .addOption(new Option('--port <port>', 'the port the provider listens on inside the container').default(8080).argParser(whole(1, 65535)))
    .option('--health-path <path>', 'HTTP path that answers 2xx once the provider is ready (default: wait until the port listens)')
    .addOption(new Option('--env <NAME=value>', 'environment variable for the container (repeatable)').argParser(environment).default({}, 'none'))
    .addOption(new Option('--startup-timeout <seconds>', 'how long the container may take to become ready').default(120).argParser(whole(1, 3600)))
    .allowUnknownOption()
    .allowExcessArguments()
    .addHelpText('after', '\nEvery other flag goes to the contract suite (npm run contract -- --help), e.g. --token T --junit report.xml.')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
}

/** Options from argv (without node and script). Throws CommanderError or VerifyImageUsageError. */
export function parseVerifyImageArgs(argv: readonly string[], command: Command = verifyImageCommand()): VerifyImageOptions {
  command.parse(argv as string[], { from: 'user' });
  const o = command.opts<{ image: string; port: number; healthPath?: string; env: Record<string, string>; startupTimeout: number }>();
  const suiteArgs = command.args;
  if (suiteArgs.some((arg) => arg === '--base-url' || arg.startsWith('--base-url='))) {
    throw new VerifyImageUsageError('--base-url is set to the started container; leave it out.');
  }
  if (o.healthPath !== undefined && !o.healthPath.startsWith('/')) {
    throw new VerifyImageUsageError(`--health-path must start with '/', got '${o.healthPath}'.`);
  }
  return { image: o.image, port: o.port, healthPath: o.healthPath, env: o.env, startupTimeoutMs: o.startupTimeout * 1000, suiteArgs };
}

export type RuntimeProbe = { ok: true } | { ok: false; reason: string };

/** Whether testcontainers can reach a container runtime (fails within milliseconds when not). */
export async function probeContainerRuntime(): Promise<RuntimeProbe> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: (error as Error)?.message ?? String(error) };
  }
}

/** Verifies one image; resolves to the exit status. Progress and problems go to stderr. */
export async function verifyImage(options: VerifyImageOptions): Promise<number> {
  const say = (text: string): void => {
    process.stderr.write(`verify:image: ${text}\n`);
  };
  const probe = await probeContainerRuntime();
  if (!probe.ok) {
    say(`no container runtime is reachable (${probe.reason}). ` + 'Start Docker (or Podman, Colima …) or point DOCKER_HOST at one, then run this again.');
    return 2;
  }
  const { GenericContainer, Wait } = await import('testcontainers');
  const output: string[] = [];
  const wait = options.healthPath ? Wait.forHttp(options.healthPath, options.port).forStatusCodeMatching((status) => status >= 200 && status < 300) : Wait.forListeningPorts();
  let container: StartedTestContainer;
  say(`starting ${options.image} (port ${options.port}, ${options.healthPath ? `ready when ${options.healthPath} answers 2xx` : 'ready when the port listens'})`);
  try {
    container = await new GenericContainer(options.image)
      .withExposedPorts(options.port)
      .withEnvironment(options.env)
      .withWaitStrategy(wait)
      .withStartupTimeout(options.startupTimeoutMs)
      .withLogConsumer((stream) =>
        stream.on('data', (line: Buffer | string) => {
          output.push(String(line).trimEnd());
          if (output.length > LOG_LINES_KEPT) output.shift();
        }),
      )
      .start();
  } catch (error) {
    say(`${options.image} did not become ready: ${(error as Error)?.message ?? String(error)}`);
    if (output.length) say(`its last output:\n${output.join('\n')}`);
    return 2;
  }

  const stopContainer = async (): Promise<void> => {
    await container.stop().catch((error: unknown) => say(`could not remove the container: ${(error as Error)?.message}`));
  };
  const suite = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    say(`${signal}: stopping the contract suite and removing the container`);
    suite.abort();
    void stopContainer().finally(() => process.exit(128 + (signal === 'SIGINT' ? 2 : 15)));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const baseUrl = `http://${container.getHost()}:${container.getMappedPort(options.port)}`;
    say(`${options.image} is ready at ${baseUrl}; running the contract suite`);
    const status = await runSuite(baseUrl, options.suiteArgs, suite.signal);
    if (status !== 0 && output.length) say(`the container's last output:\n${output.join('\n')}`);
    return status;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopContainer();
  }
}

/**
 * Runs the contract CLI against `baseUrl`; resolves to its exit status (2 when it died of a signal
 * or was stopped through `signal`).
 */
export function runSuite(baseUrl: string, suiteArgs: readonly string[], signal?: AbortSignal): Promise<number> {
  const child = spawn(process.execPath, [CONTRACT_CLI, '--base-url', baseUrl, ...suiteArgs], { stdio: 'inherit', signal });
  return new Promise((resolve) => {
    child.on('error', () => resolve(2));
    child.on('exit', (code) => resolve(code ?? 2));
  });
}

async function main(): Promise<void> {
  let options: VerifyImageOptions;
  try {
    options = parsedOrExit(() => parseVerifyImageArgs(process.argv.slice(2)));
  } catch (error) {
    if (error instanceof VerifyImageUsageError) {
      process.stderr.write(`verify:image: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  // Exit explicitly: the container runtime client may hold sockets open.
  process.exit(await verifyImage(options));
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`verify:image: ${(error as Error)?.message ?? String(error)}\n`);
    process.exit(2);
  });
}
