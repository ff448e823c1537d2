#!/usr/bin/env node
/** `npm run mock:prism`: the stateless Prism mock until SIGINT, SIGTERM or SIGHUP. */
import { Command, Option } from 'commander';
import { parsedOrExit, port, userPath } from '../../package/command-line.js';
import { readContract } from '../../openapi/operations/compile.js';
import { type CompiledContract } from '../../openapi/operations/model.js';
import { DEFAULT_HOST } from '../http/listen.js';
import { DEFAULT_PRISM_PORT, startPrismMock, type PrismMockOptions } from './server.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'success', 'info', 'debug', 'trace', 'silent'];

function prismCommand(): Command {
  return new Command('plant-store-prism')
    .description("Stateless Prism mock of the Plant Store API: validates requests, answers the spec's examples.")
    .addOption(new Option('--port <port>', 'port to listen on (0 picks a free one)').env('PRISM_PORT').default(DEFAULT_PRISM_PORT).argParser(port))
    .addOption(new Option('--host <host>', 'address to listen on').env('HOST').default(DEFAULT_HOST))
    .addOption(new Option('--spec <file>', 'OpenAPI document to serve (default: the bundled spec)').env('MOCK_SPEC'))
    .addOption(new Option('--dynamic', 'generate responses from the schemas instead of the examples').env('PRISM_DYNAMIC'))
    .addOption(new Option('--log-level <level>', 'Prism log level').env('LOG_LEVEL').default('info').choices(LOG_LEVELS))
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
}

function parsePrismArgs(argv: readonly string[], command: Command = prismCommand()): PrismMockOptions {
  command.parse(argv as string[], { from: 'user' });
  const o = command.opts<{ port: number; host: string; spec?: string; dynamic?: boolean; logLevel: string }>();
  return { port: o.port, host: o.host, spec: o.spec === undefined ? undefined : userPath(o.spec), dynamic: o.dynamic ?? false, logLevel: o.logLevel };
}

/** How many operations the listening line names; the rest are counted. */
const NAMED_OPERATIONS = 4;

/** `Articles 0.3.0: GET http://…/articles, POST http://…/articles and 3 more`: what this spec lets a client try first. */
function servedOperations(contract: CompiledContract, url: string): string {
  const operations = [...contract.operations.values()];
  const named = operations.slice(0, NAMED_OPERATIONS).map((operation) => `${operation.method.toUpperCase()} ${url}${operation.path}`);
  const more = operations.length > NAMED_OPERATIONS ? ` and ${operations.length - NAMED_OPERATIONS} more` : '';
  return `${contract.title} ${contract.version}: ${named.join(', ') || 'no operations'}${more}`;
}

async function main(): Promise<void> {
  const options = parsedOrExit(() => parsePrismArgs(process.argv.slice(2)));
  const contract = await readContract(options.spec);
  const mock = await startPrismMock({ ...options, contract });
  process.stdout.write(`plant-store-prism: listening on ${mock.url} (${servedOperations(contract, mock.url)})\n`);
  const stop = (): void => {
    mock.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.once('SIGHUP', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`plant-store-prism: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
