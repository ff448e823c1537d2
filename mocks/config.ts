/**
 * The mock's command line: every flag has an environment equivalent (the flag wins).
 * `parseMockArgs` is pure apart from reading a seed file, so tests call it directly.
 */
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { commaList as list, port, userPath, wholeNumber as integer } from '../package/command-line.js';
import { parseExactJson } from '../openapi/schema/exact-json.js';
import { parseIdentityOverrides, type IdentityOverrides } from '../openapi/operations/collections.js';
import { hostnameOf, type AllowedHosts } from './http/allowed-hosts.js';
import { DEFAULT_HOST, DEFAULT_MAX_BODY, DEFAULT_MAX_CONNECTIONS, DEFAULT_PORT, type MockOptions } from './server.js';
import { DEFAULT_PROXY_CONNECT_TIMEOUT_MS, DEFAULT_PROXY_TIMEOUT_MS, parseUpstreamUrl } from './proxy/upstream-url.js';
import { DEFAULT_STORE_PREFIX, parseRedisUrl, parseStorePrefix } from './stores/redis-target.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** `--allowed-hosts`: `all`, or names each a valid host (a leading dot for a domain and its subdomains). */
function allowedHosts(value: string): AllowedHosts {
  if (value.trim().toLowerCase() === 'all') return 'all';
  const names = list(value);
  const bad = names.filter((name) => hostnameOf(name) === undefined || name.includes('/'));
  if (bad.length) throw new InvalidArgumentError(`not a host name: ${bad.join(', ')} (expected names such as mock.internal or .example.test, or all).`);
  return names;
}

/** `--mask-name`, repeatable: the names given so far and those of `value` (a comma-separated list from the variable). */
function maskNames(value: string, previous: string[] | undefined): string[] {
  const names = list(value);
  const bad = names.filter((name) => !/^[\x21-\x7e]{1,200}$/.test(name));
  if (bad.length || !names.length) throw new InvalidArgumentError('expected header or query parameter names (printable ASCII, no spaces).');
  return [...(previous ?? []), ...names];
}

export interface MockCommandLine extends MockOptions {
  /** Path of a JSON file holding an array of create bodies to start with. */
  seedFile?: string;
  /** Path of the durable state file (append-only log); in memory only when unset. */
  stateFile?: string;
  /** `--discard-unkept-records`: drop the state file's records the spec cannot serve instead of refusing to start. */
  discardUnkeptRecords?: boolean;
  /** `--store`: `memory`, or the `redis://`/`rediss://` URL of the Redis every replica shares. */
  storeUrl: string;
  /** Key prefix in Redis: sandboxes sharing one Redis keep apart by it. */
  storePrefix: string;
}

export function mockCommand(): Command {
  return new Command('plant-store-mock')
    .description('Stateful mock of the API an OpenAPI spec describes (the Plant Store by default), strict about its security and request schemas.')
    .addOption(new Option('--port <port>', 'port to listen on (0 picks a free one)').env('PORT').default(DEFAULT_PORT).argParser(port))
    .addOption(new Option('--host <host>', 'address to listen on').env('HOST').default(DEFAULT_HOST))
    .addOption(new Option('--spec <file>', 'OpenAPI document to serve (default: the bundled spec)').env('MOCK_SPEC'))
    .addOption(
      new Option('--overlay <file>', 'OpenAPI Overlay 1.0 document applied to the spec before serving it, e.g. to add x-mock-* extensions (repeatable, applied in order)').argParser(
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      ),
    )
    .addOption(new Option('--tokens <list>', "comma-separated credentials to accept for the spec's security scheme (default: any well-formed one)").env('MOCK_TOKENS').argParser(list))
    .addOption(
      new Option(
        '--identity <rules>',
        "the property that identifies a collection's records, where the item path's parameter does not: comma-separated /path=property (one collection) or property (every collection declaring it)",
      )
        .env('MOCK_IDENTITY')
        .argParser(identityRules),
    )
    .addOption(
      new Option('--stateless <operationIds>', "comma-separated operationIds to answer from the spec's examples instead of the store ('all' for every one)").env('MOCK_STATELESS').argParser(list),
    )
    .addOption(new Option('--watch', 'reload the spec when its file changes, keeping the store').env('MOCK_WATCH'))
    .addOption(new Option('--admin-token <token>', 'bearer token the /__mock admin routes require').env('MOCK_ADMIN_TOKEN'))
    .addOption(
      new Option('--max-body <bytes>', 'largest request body accepted')
        .env('MOCK_MAX_BODY')
        .default(DEFAULT_MAX_BODY)
        .argParser(integer(1, 2 ** 31)),
    )
    .addOption(
      new Option('--max-connections <n>', 'open connections at most; beyond it a new one closes the oldest idle one (set it below the open-file limit, ulimit -n)')
        .env('MOCK_MAX_CONNECTIONS')
        .default(DEFAULT_MAX_CONNECTIONS)
        .argParser(integer(1, 1_000_000)),
    )
    .addOption(new Option('--seed <file>', 'JSON file with an array of create bodies (as POST to the collection takes) to start with').env('MOCK_SEED'))
    .addOption(new Option('--state-file <file>', 'keep the records in this file across restarts (a create is on disk before its answer)').env('MOCK_STATE_FILE'))
    .addOption(
      new Option('--discard-unkept-records', 'with --state-file: drop the records the spec cannot serve (written under another spec) instead of refusing to start').env('MOCK_DISCARD_UNKEPT_RECORDS'),
    )
    .addOption(
      new Option('--store <store>', 'where the records are kept: memory, or redis://[:password@]host:port/db (rediss:// for TLS), shared by every replica').env('MOCK_STORE').default('memory'),
    )
    .addOption(new Option('--store-prefix <prefix>', 'key prefix in Redis; sandboxes sharing one Redis keep apart by it').env('MOCK_STORE_PREFIX').default(DEFAULT_STORE_PREFIX))
    .addOption(new Option('--replica-name <name>', 'the name this process goes by in health and the shared request journal (default: hostname:pid)').env('MOCK_REPLICA_NAME'))
    .addOption(
      new Option('--cors-origin <origins>', 'comma-separated origins allowed by CORS (default: any; the admin routes answer only these and their own)').env('MOCK_CORS_ORIGIN').argParser(list),
    )
    .addOption(
      new Option(
        '--allowed-hosts <hosts>',
        'host names answered besides the listening address and loopback names (.example.test: a domain and its subdomains; all: any Host, no DNS-rebinding protection)',
      )
        .env('MOCK_ALLOWED_HOSTS')
        .argParser(allowedHosts),
    )
    .addOption(
      new Option('--proxy <url>', 'forward every request outside /__mock to this base URL (the real service), checking both directions against the spec; the store is not used').env('MOCK_PROXY'),
    )
    .addOption(new Option('--proxy-strict', 'with --proxy: replace an upstream answer that breaks the spec with a 502 Error naming the violation').env('MOCK_PROXY_STRICT'))
    .addOption(
      new Option('--proxy-timeout <ms>', "with --proxy: longest wait for the upstream's whole answer (then 504)")
        .env('MOCK_PROXY_TIMEOUT')
        .default(DEFAULT_PROXY_TIMEOUT_MS)
        .argParser(integer(1, 600_000)),
    )
    .addOption(
      new Option('--proxy-connect-timeout <ms>', 'with --proxy: longest wait for a new connection to the upstream, TLS included (then 504)')
        .env('MOCK_PROXY_CONNECT_TIMEOUT')
        .default(DEFAULT_PROXY_CONNECT_TIMEOUT_MS)
        .argParser(integer(1, 600_000)),
    )
    .addOption(
      new Option(
        '--record <dir>',
        "write every distinct exchange as a contract case (fixture format) to a file of this run in DIR; with --proxy, the real service's answers decide which credentials are valid",
      ).env('MOCK_RECORD'),
    )
    .addOption(
      new Option(
        '--mask-name <name>',
        "a header or query parameter name whose value the journal masks, besides the common ones and the spec's API keys (repeatable; the variable takes a comma-separated list)",
      )
        .env('MOCK_MASK_NAMES')
        .argParser(maskNames),
    )
    .addOption(
      new Option(
        '--self-check',
        "judge the mock's own answers against the spec (status, media type, headers, body, writeOnly properties): one that breaks it goes out with a plant-store-violations header, in the journal and as a warn line",
      ).env('MOCK_SELF_CHECK'),
    )
    .addOption(new Option('--log-level <level>', 'pino log level').env('LOG_LEVEL').default('info').choices(LOG_LEVELS))
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
}

/** Options from argv (without node and script) and the environment. Throws CommanderError on bad input. */
export function parseMockArgs(argv: readonly string[], command: Command = mockCommand()): MockCommandLine {
  command.parse(argv as string[], { from: 'user' });
  const o = command.opts<{
    port: number;
    host: string;
    spec?: string;
    overlay?: string[];
    tokens?: string[];
    identity?: IdentityOverrides;
    stateless?: string[];
    watch?: boolean;
    adminToken?: string;
    maxBody: number;
    maxConnections: number;
    seed?: string;
    stateFile?: string;
    discardUnkeptRecords?: boolean;
    corsOrigin?: string[];
    allowedHosts?: AllowedHosts;
    logLevel: string;
    store: string;
    storePrefix: string;
    replicaName?: string;
    proxy?: string;
    proxyStrict?: boolean;
    proxyTimeout: number;
    proxyConnectTimeout: number;
    record?: string;
    maskName?: string[];
    selfCheck?: boolean;
  }>();
  // Checked here rather than in an argParser: commander's message would repeat the value, password included.
  const fail = (message: string): never => command.error(`error: ${message}`, { exitCode: 2, code: 'plant-store-mock.invalidOption' });
  if (o.store !== 'memory') {
    try {
      parseRedisUrl(o.store);
    } catch (error) {
      fail(`--store: ${(error as Error).message} (or memory)`);
    }
    if (o.stateFile) fail('--state-file keeps the records in a file and --store in Redis: choose one (MOCK_STATE_FILE= clears the variable)');
  }
  try {
    parseStorePrefix(o.storePrefix);
  } catch (error) {
    fail(`--store-prefix: ${(error as Error).message}`);
  }
  if (o.discardUnkeptRecords && !o.stateFile) fail('--discard-unkept-records applies to the records of a --state-file');
  const replica = o.replicaName || undefined; // an empty MOCK_REPLICA_NAME means the default
  if (replica !== undefined && !/^[\x21-\x7e]{1,100}$/.test(replica)) fail('--replica-name: 1 to 100 printable ASCII characters without spaces');
  if (o.proxy !== undefined) {
    try {
      parseUpstreamUrl(o.proxy);
    } catch (error) {
      fail(`--proxy: ${(error as Error).message}`);
    }
    // Proxy mode keeps no records and lets the upstream decide which credentials are valid.
    const storeFlags = [o.seed && '--seed', o.stateFile && '--state-file', o.store !== 'memory' && '--store', o.tokens?.length && '--tokens', o.stateless?.length && '--stateless'];
    const conflicting = storeFlags.filter(Boolean);
    if (conflicting.length) {
      fail(`--proxy forwards to the real service and keeps no records: ${conflicting.join(', ')} ${conflicting.length === 1 ? 'does' : 'do'} not apply (clear MOCK_* variables that set them)`);
    }
  } else {
    const proxyFlags = [
      o.proxyStrict && '--proxy-strict',
      ...(['proxyTimeout', 'proxyConnectTimeout'] as const).filter((key) => command.getOptionValueSource(key) !== 'default').map((key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`),
    ];
    const without = proxyFlags.filter(Boolean);
    if (without.length) fail(`${without.join(', ')} only ${without.length === 1 ? 'applies' : 'apply'} with --proxy`);
  }
  return {
    port: o.port,
    host: o.host,
    spec: o.spec === undefined ? undefined : userPath(o.spec),
    overlays: o.overlay?.map((file) => userPath(file)),
    tokens: o.tokens,
    identity: o.identity,
    stateless: o.stateless?.includes('all') ? 'all' : o.stateless,
    watch: o.watch ?? false,
    adminToken: o.adminToken,
    maxBody: o.maxBody,
    maxConnections: o.maxConnections,
    seedFile: o.seed === undefined ? undefined : userPath(o.seed),
    stateFile: o.stateFile === undefined ? undefined : userPath(o.stateFile),
    discardUnkeptRecords: o.discardUnkeptRecords ?? false,
    corsOrigins: o.corsOrigin,
    allowedHosts: o.allowedHosts,
    logLevel: o.logLevel,
    storeUrl: o.store,
    storePrefix: o.storePrefix,
    replica,
    record: o.record ? { dir: userPath(o.record) } : undefined,
    maskNames: o.maskName,
    selfCheck: o.selfCheck ?? false,
    proxy: o.proxy === undefined ? undefined : { upstream: o.proxy, strict: o.proxyStrict ?? false, timeoutMs: o.proxyTimeout, connectTimeoutMs: o.proxyConnectTimeout },
  };
}

/** A seed file's JSON, ids exact (the mock validates it against the spec); throws an Error that names the file. */
export function readSeedFile(path: string): unknown {
  try {
    return parseExactJson(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the seed file ${path}: ${(error as Error).message}`);
  }
}

function identityRules(value: string): IdentityOverrides {
  try {
    return parseIdentityOverrides(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}
