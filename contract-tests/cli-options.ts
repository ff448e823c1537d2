/**
 * The command line provider teams run: flags, their environment equivalents (the flag wins),
 * parsed with commander. Pure, so tests call it directly; cli.ts runs it.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { userPath, wholeNumber } from '../package/command-line.js';
import { WAIT_BUDGET_MS } from './reachability.js';
import { DEFAULT_GENERATED, DEFAULT_TIMEOUT_MS, MAX_GENERATED, MAX_VARIANTS, PROFILES, type ContractOptions, type ProfileName } from './options.js';
import { STRING_DOMAIN } from './generators/strings.js';

export interface ContractCommandLine extends ContractOptions {
  /** Where to write the JUnit XML report, if anywhere. */
  junit?: string;
  /** Where to write the HAR file of every exchange, if anywhere. */
  har?: string;
  /** Print the operations' dependency graph and the sequences, send nothing. */
  dryRun?: boolean;
  /** How long to wait for the base URL to accept a connection before starting, in ms (0: one attempt). */
  waitMs: number;
}

/** `a,b` into a list of its comma-separated items, blanks dropped; repeated flags collect. */
function commaList(value: string, previous: string[] = []): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (!items.length) throw new InvalidArgumentError('expected one or more values, separated by commas.');
  return [...previous, ...items];
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `'Name: value'` into a header list; repeated flags collect. */
function header(value: string, previous: Array<[string, string]> = []): Array<[string, string]> {
  const colon = value.indexOf(':');
  const name = colon > 0 ? value.slice(0, colon).trim() : '';
  if (!name || /\s/.test(name)) throw new InvalidArgumentError(`expected 'Name: value', got '${value}'.`);
  return [...previous, [name, value.slice(colon + 1).trim()]];
}

export function contractCommand(): Command {
  return new Command('plant-store-contract')
    .description(
      'Runs the Plant Store contract suite against a provider: the cases of fixtures/cases and of --cases files, and cases generated from the spec, judged by checks named as in Schemathesis.\nExit status: 0 every check passed, 1 a check failed, 2 usage error or unreachable target.',
    )
    .addOption(new Option('--base-url <url>', "the provider's base URL; may carry a path prefix (https://host/v1)").env('PLANT_STORE_BASE_URL'))
    .addOption(new Option('--token <token>', "a credential the provider accepts, sent as the spec's security scheme says (bearer token or API key)").env('PLANT_STORE_TOKEN'))
    .addOption(new Option('--basic <user:password>', 'credentials for operations the spec secures with HTTP Basic').env('PLANT_STORE_BASIC'))
    .addOption(
      new Option('--include-operation <op>', "test only matching operations: an operationId, a method (GET), a path (/plants/{id}) or 'GET /plants/{id}' (repeatable, or comma-separated)").argParser(
        commaList,
      ),
    )
    .addOption(new Option('--exclude-operation <op>', 'leave matching operations out, matched as --include-operation (repeatable, or comma-separated)').argParser(commaList))
    .addOption(new Option('--spec <file>', 'the OpenAPI document to test against (default: the bundled spec)').env('PLANT_STORE_SPEC'))
    .addOption(
      new Option(
        '--overlay <file>',
        "OpenAPI Overlay 1.0 document applied to the spec before testing, e.g. to add x-mock-* extensions, as the mock's --overlay (repeatable, applied in order)",
      ).argParser(collect),
    )
    .addOption(new Option('--header <header>', "a header every request carries, 'Name: value' (repeatable)").argParser(header))
    .addOption(new Option('--dry-run', 'print which answers feed which requests (the dependency graph) and the stateful sequences, and send nothing; --base-url is not needed'))
    .addOption(new Option('--junit <file>', 'write a JUnit XML report to this file'))
    .addOption(new Option('--har <file>', 'write every exchange to this file as HAR 1.2 (tokens masked)'))
    .addOption(new Option('--cases <path>', 'extra case files in the fixture format: a directory of *.json or one file (repeatable)').argParser(collect))
    .addOption(new Option('--checks <names>', 'run only these checks, comma-separated').argParser(commaList))
    .addOption(new Option('--exclude-checks <names>', 'skip these checks, comma-separated (the report says they were excluded)').argParser(commaList))
    .addOption(
      new Option('--profile <name>', "leave out what a kind of provider cannot pass, each with its reason in the report: 'stateless' for a mock answering the spec's examples (npm run mock:prism)")
        .choices(Object.keys(PROFILES))
        .env('PLANT_STORE_PROFILE'),
    )
    .addOption(new Option('--seed <n>', 'seed of the generated cases (printed on every run)').argParser(wholeNumber(0, 2 ** 31 - 1)))
    .addOption(
      new Option('--wait <seconds>', 'how long to wait for the base URL to accept a connection before starting (0: try once)')
        .default(WAIT_BUDGET_MS / 1000)
        .argParser(wholeNumber(0, 600))
        .env('PLANT_STORE_WAIT'),
    )
    .addOption(new Option('--timeout <ms>', 'longest wait for one answer').default(DEFAULT_TIMEOUT_MS).argParser(wholeNumber(1, 600_000)))
    .addOption(new Option('--invalid-token <token>', 'a well-formed bearer token the provider rejects (default: a random one)'))
    .addOption(new Option('--generated <n>', 'generated cases of each kind, valid and invalid').default(DEFAULT_GENERATED).argParser(wholeNumber(0, MAX_GENERATED)))
    .addOption(
      new Option(
        '--string-samples <n>',
        `samples of the string domain each plain string property is sent (default: all ${STRING_DOMAIN.length}); fewer rotate across the properties, so each operation still sends every sample`,
      ).argParser(wholeNumber(0, STRING_DOMAIN.length)),
    )
    .addOption(
      new Option(
        '--variant-samples <n>',
        'variants of each fixed family (credentials, JSON syntax, media-type spellings, body shapes) each operation is sent, and of wrong JSON types each property and parameter (default: all); fewer rotate across the operations, so the run still sends every variant, and no credential at all still goes to every operation',
      ).argParser(wholeNumber(0, MAX_VARIANTS)),
    )
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
}

/** Options from argv (without node and script) and the environment. Throws CommanderError on bad flags. */
export function parseContractArgs(argv: readonly string[], command: Command = contractCommand()): ContractCommandLine {
  command.parse(argv as string[], { from: 'user' });
  const o = command.opts<{
    baseUrl?: string;
    token?: string;
    basic?: string;
    includeOperation?: string[];
    excludeOperation?: string[];
    header?: Array<[string, string]>;
    junit?: string;
    har?: string;
    spec?: string;
    overlay?: string[];
    cases?: string[];
    checks?: string[];
    excludeChecks?: string[];
    profile?: ProfileName;
    seed?: number;
    timeout: number;
    wait: number;
    invalidToken?: string;
    generated: number;
    stringSamples?: number;
    variantSamples?: number;
    dryRun?: boolean;
  }>();
  const headers: Record<string, string> = {};
  for (const [name, value] of o.header ?? []) headers[name] = value;
  return {
    baseUrl: o.baseUrl ?? '',
    token: o.token ?? '',
    ...(o.basic === undefined ? {} : { basic: o.basic }),
    ...(o.includeOperation === undefined ? {} : { includeOperations: o.includeOperation }),
    ...(o.excludeOperation === undefined ? {} : { excludeOperations: o.excludeOperation }),
    headers,
    ...(o.junit === undefined ? {} : { junit: o.junit }),
    ...(o.har === undefined ? {} : { har: o.har }),
    ...(o.dryRun ? { dryRun: true } : {}),
    ...(o.spec === undefined ? {} : { spec: userPath(o.spec) }),
    ...(o.overlay === undefined ? {} : { overlay: o.overlay.map((file) => userPath(file)) }),
    ...(o.cases === undefined ? {} : { cases: o.cases }),
    ...(o.checks === undefined ? {} : { checks: o.checks }),
    ...(o.excludeChecks === undefined ? {} : { excludeChecks: o.excludeChecks }),
    ...(o.profile === undefined ? {} : { profile: o.profile }),
    ...(o.seed === undefined ? {} : { seed: o.seed }),
    timeoutMs: o.timeout,
    waitMs: o.wait * 1000,
    ...(o.invalidToken === undefined ? {} : { invalidToken: o.invalidToken }),
    generated: {
      positive: o.generated,
      negative: o.generated,
      ...(o.stringSamples === undefined ? {} : { strings: o.stringSamples }),
      ...(o.variantSamples === undefined ? {} : { variants: o.variantSamples }),
    },
  };
}
