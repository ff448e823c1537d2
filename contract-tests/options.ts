/** The suite's options, checked before anything is sent: a bad option is a usage error (exit 2). */
import { randomBytes, randomInt } from 'node:crypto';
import { FixtureError, loadFixtures, type FixtureCase } from '../fixtures/index.js';
import { CHECK_NAMES, type CheckName, type Exchange, type SkipRule } from './model.js';
import type { CompiledContract } from '../openapi/operations/model.js';
import { ContractUsageError } from './errors.js';
import { awaitedAnswers, notApplicable } from './applicability.js';
import { planSequences, type SequencePlan } from './sequences.js';
import { judgedReads, planMissingParents, type MissingParent } from './missing-parents.js';
import { listedFilters, type ListedFilters } from './listed-filters.js';
import { producedValues, type ProducedValue } from './dependencies.js';
import { dependencyGraph } from '../openapi/operations/dependencies.js';
import { SecretMask } from './secret-mask.js';
import { STRING_DOMAIN } from './generators/strings.js';
import { selectOperations, type OperationFilter } from './operations.js';
import { loadSuiteSpec, schemeTitle, SpecError, type SuiteContract, type SuiteSpec } from './spec-contract.js';

export interface ContractOptions {
  /** The provider's base URL; may carry a path prefix (`https://host/v1`) and a trailing slash. */
  baseUrl: string;
  /** A credential the provider accepts: a bearer token (oauth2 and OpenID Connect too) or an API key. */
  token?: string;
  /** `user:password` for operations secured by HTTP Basic. */
  basic?: string;
  /** Test only the operations matching one of these (operationId, `METHOD`, `/path`, or `METHOD /path`). */
  includeOperations?: readonly string[];
  /** Leave out the operations matching one of these. */
  excludeOperations?: readonly string[];
  /** A well-formed bearer token the provider rejects (default: a random one). */
  invalidToken?: string;
  /** Headers every request carries (an API gateway key, a tenant header …). */
  headers?: Readonly<Record<string, string>>;
  /** fast-check seed of the generated cases (default: random, always reported). */
  seed?: number;
  /** Longest wait for one complete answer, in ms (default 10 000). */
  timeoutMs?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /**
   * How many generated cases of each kind (default 25 each), and how many of the string domain's samples
   * each plain string property is walked with (`strings`, default all: fewer rotate across the properties),
   * and how many variants of each fixed family (auth, JSON syntax, media-type spellings, shapes) each
   * operation is sent, and of wrong JSON types each property and parameter (`variants`, default all:
   * fewer rotate across the operations; no credential at all always).
   */
  generated?: { positive?: number; negative?: number; strings?: number; variants?: number };
  /** The OpenAPI document to test against (default: the bundled spec); `PLANT_STORE_SPEC` in the CLI. */
  spec?: string;
  /**
   * OpenAPI Overlay 1.0 documents applied to the spec in order as it is read (`--overlay`), through
   * the same core the mock's `--overlay` goes through: the `x-mock-*` extensions they add (which
   * operation creates, reads, lists; the identity; the envelope) shape the suite's sequences as the
   * mock's collections. Ignored with `contract` (already compiled).
   */
  overlay?: string | readonly string[];
  /** The spec already compiled (tests pass one; `spec` is then ignored): every operation, or one. */
  contract?: SuiteContract | SuiteSpec;
  /** The bundled fixture cases (default: every file in fixtures/cases). */
  fixtures?: readonly FixtureCase[];
  /** Extra case files in the fixture format (directories or files), run with the same checks. */
  cases?: readonly string[];
  /** Run only these checks (the others are reported as not selected). */
  checks?: readonly string[];
  /** Do not run these checks (reported as excluded with --exclude-checks). */
  excludeChecks?: readonly string[];
  /** Checks (or cases of a check) not to judge, each with the reason the report shows. */
  skip?: readonly SkipRule[];
  /** `stateless`: leave out what a mock answering the spec's examples cannot pass (`PROFILES`), each with its reason. */
  profile?: ProfileName;
  /** After this many timeouts the suite stops sending, so a hanging provider cannot stall it (default 3). */
  maxTimeouts?: number;
  /** Called with each exchange as it completes. */
  onExchange?: (exchange: Exchange) => void;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_GENERATED = 25;
export const DEFAULT_MAX_TIMEOUTS = 3;
/** The most generated cases of each kind --generated takes. */
export const MAX_GENERATED = 1000;
/** The most --variant-samples takes; a count past a family's size sends that family's every variant to every operation. */
export const MAX_VARIANTS = 1000;

export { ContractUsageError };

export type ProfileName = 'stateless';

/**
 * What a stateless mock (Prism, `npm run mock:prism`) cannot pass, and why: it answers the spec's
 * examples, so it keeps no records and echoes nothing that was sent, and it checks that a
 * credential is there, not which one.
 */
export const PROFILES: Readonly<Record<ProfileName, readonly SkipRule[]>> = {
  stateless: [
    { check: 'response_echoes_request', reason: "profile stateless: a stateless mock answers the spec's example, not what was sent" },
    { check: 'ensure_resource_availability', reason: 'profile stateless: a stateless mock keeps no records, so a created one is not there to read or list' },
    { check: 'resource_consistency', reason: 'profile stateless: a stateless mock keeps no records, so a read does not show what was created or updated' },
    { check: 'list_honours_parameters', reason: "profile stateless: a stateless mock lists the spec's example, not records filtered and paged" },
    { check: 'use_after_free', reason: 'profile stateless: a stateless mock keeps no records, so a deleted one is still answered' },
    { check: 'missing_resource_not_found', reason: 'profile stateless: a stateless mock keeps no records, so any id is answered as found' },
    { check: 'list_pages_advance', reason: "profile stateless: a stateless mock lists the spec's example on every page" },
    {
      check: 'ignored_auth',
      cases: [
        'fixture:invalid-token',
        'generated:auth-token-other-case',
        'generated:auth-token-with-suffix',
        'generated:auth-token-prefix',
        'generated:auth-lower-case-scheme-invalid-token',
        'generated:auth-wrong-password',
        // A never-issued key sent beside the valid credential, for a requirement of two schemes (`wrong-<header>`).
        'generated:auth-wrong-*',
      ],
      reason: 'profile stateless: a stateless mock checks that a well-formed credential is there, not which one (it has no list of valid ones)',
    },
  ],
};

/**
 * Whether `rule` leaves out the case `caseId`. A rule's id that names no operation takes the case
 * of every operation (`generated:auth-token-prefix` takes `generated:getPet/auth-token-prefix`,
 * as ids name their operation when a run has several), and a trailing `*` takes every label it begins.
 */
export function ruleTakes(rule: SkipRule, caseId: string): boolean {
  if (!rule.cases) return false;
  const colon = caseId.indexOf(':');
  const slash = caseId.indexOf('/', colon + 1);
  const bare = colon !== -1 && slash !== -1 ? `${caseId.slice(0, colon + 1)}${caseId.slice(slash + 1)}` : caseId;
  return rule.cases.some((id) => (id.endsWith('*') ? caseId.startsWith(id.slice(0, -1)) || bare.startsWith(id.slice(0, -1)) : id === caseId || id === bare));
}

/** `rules` and the profile's, a check the rules already leave out whole (not applicable, excluded) keeping its own reason. */
function withProfile(rules: SkipRule[], profile: ProfileName | undefined): SkipRule[] {
  if (profile === undefined) return rules;
  const whole = new Set(rules.filter((rule) => rule.cases === undefined).map((rule) => rule.check));
  return [...rules, ...PROFILES[profile].filter((rule) => !whole.has(rule.check))];
}

export interface ResolvedOptions {
  baseUrl: string;
  /** The operations under test, in document order. */
  operations: readonly SuiteContract[];
  /** The first of them: where file cases without a method and path go. */
  contract: SuiteContract;
  /** Operations not tested, each with the reason (filtered out, or a scheme the suite cannot send). */
  leftOut: ReadonlyArray<{ operationId: string; method: string; path: string; reason: string }>;
  /** The spec's path, for messages. */
  source: string;
  /** The compiled contract, when the whole spec was given: the stateful sequences run on it. */
  compiled?: CompiledContract;
  basic: string;
  /** The cases of the files given with --cases. */
  extraCases: readonly FixtureCase[];
  /** The createPlant endpoint: base URL, its path prefix, then `path`. */
  endpoint(path: string): URL;
  token: string;
  invalidToken: string;
  headers: Record<string, string>;
  seed: number;
  timeoutMs: number;
  concurrency: number;
  generated: { positive: number; negative: number; strings?: number; variants?: number };
  skip: readonly SkipRule[];
  /** Per check, the answers that would give it something to judge (./applicability.ts): the report names them when none came. */
  awaited?: Partial<Record<CheckName, readonly string[]>>;
  maxTimeouts: number;
  /** The run's secrets, masked in everything the reports show. */
  secretMask: SecretMask;
}

const TOKEN_CHARS = /^[\x21-\x7e]+$/;
/** An API key in a header or the query: visible ASCII with inner spaces (a scheme prefix of its own, `Token abc`). */
const KEY_CHARS = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const RESERVED_HEADERS = new Set(['authorization', 'content-type', 'content-length', 'host', 'transfer-encoding', 'connection']);

/** The overlay files of `options`, one or several, in the order given. */
export function overlaysOf(options: Pick<ContractOptions, 'overlay'>): readonly string[] {
  return typeof options.overlay === 'string' ? [options.overlay] : (options.overlay ?? []);
}

export function resolveOptions(options: ContractOptions): ResolvedOptions {
  const base = parseBaseUrl(options.baseUrl);
  const token = options.token ?? '';
  let spec: SuiteSpec;
  try {
    const given = options.contract;
    // Overlays are applied as the spec is read, which runContractSuite and the command do (asynchronously) before this.
    if (given === undefined && overlaysOf(options).length) throw new ContractUsageError('An overlay is applied as the spec is read: pass it to runContractSuite, or --overlay to the command.');
    spec = given === undefined ? loadSuiteSpec(...(options.spec ? [options.spec] : [])) : 'operations' in given ? given : { source: given.source, operations: [given], untestable: [] };
  } catch (error) {
    if (error instanceof SpecError) throw new ContractUsageError(error.message);
    throw error;
  }
  const filter: OperationFilter = { include: options.includeOperations ?? [], exclude: options.excludeOperations ?? [] };
  const { operations, leftOut } = selectOperations(spec, filter);
  const contract = operations[0] as SuiteContract;
  const basic = options.basic ?? '';
  for (const operation of operations) {
    const { security } = operation;
    if (security.kind === 'none') continue;
    if (security.kind === 'basic') {
      if (!/^[^:\r\n]*:[^\r\n]*$/.test(basic)) throw new ContractUsageError(`${operation.operationId} is secured by HTTP Basic (${security.name}): pass --basic user:password.`);
      continue;
    }
    const what = security.kind === 'bearer' ? 'A bearer token' : 'An API key';
    const scheme = schemeTitle(security);
    if (typeof token !== 'string' || token === '') throw new ContractUsageError(`${what} is required for ${operation.operationId} (${scheme}): pass --token or set PLANT_STORE_TOKEN.`);
    // An API key in a header or the query is sent as given, a scheme prefix of its own included (`Authorization: Token abc`).
    const spaced = security.kind === 'api-key' && security.in !== 'cookie';
    if (!(spaced ? KEY_CHARS : TOKEN_CHARS).test(token)) {
      throw new ContractUsageError(
        spaced
          ? `The token is sent as-is as the API key of ${scheme} for ${operation.operationId}: it must be visible ASCII, spaces allowed only between other characters.`
          : security.kind === 'bearer'
            ? `The token is sent as \`Authorization: Bearer <token>\` for ${operation.operationId} (${scheme}): it must be visible ASCII without spaces (RFC 6750).`
            : `The token is sent as the cookie of ${scheme} for ${operation.operationId}: it must be visible ASCII without spaces.`,
      );
    }
  }
  const invalidToken = options.invalidToken ?? `contract-suite-invalid-${randomBytes(12).toString('hex')}`;
  if (!TOKEN_CHARS.test(invalidToken)) throw new ContractUsageError('The invalid token must be visible ASCII without spaces.');
  if (invalidToken === token) throw new ContractUsageError('The invalid token is the same as the token; name a token the provider rejects.');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) throw new ContractUsageError(`'${name}' is not a valid header name.`);
    if (RESERVED_HEADERS.has(lower)) throw new ContractUsageError(`The suite sets ${lower} itself (per case); it cannot be given with --header.`);
    for (const { security } of operations) {
      if (security.kind === 'api-key' && security.in === 'header' && lower === security.header) {
        throw new ContractUsageError(`${lower} carries the spec's API key (${security.name}); pass the key with --token, and the suite sends it there.`);
      }
    }
    if (/[\r\n\0]/.test(value)) throw new ContractUsageError(`The value of header ${name} holds a line break or NUL.`);
    headers[lower] = value;
  }
  for (const { security } of operations) {
    if (security.kind === 'none') continue;
    for (const key of security.alongside) {
      if (headers[key.header] === undefined) {
        throw new ContractUsageError(`The spec requires the API key ${key.name} (in ${key.header}) together with ${security.name}: pass it with --header '${key.header}: <key>'.`);
      }
    }
  }
  const extraCases = loadCaseFiles(options.cases ?? []);
  const plans = spec.compiled ? planSequences(spec.compiled, operations) : [];
  const missingParents = spec.compiled ? planMissingParents(spec.compiled, operations, judgedReads(plans)) : [];
  const actions = spec.compiled ? producedValues(dependencyGraph(spec.compiled), operations) : [];
  const lists = spec.compiled ? listedFilters(spec.compiled, operations) : [];
  return {
    baseUrl: base.href,
    operations,
    leftOut,
    source: spec.source,
    ...(spec.compiled ? { compiled: spec.compiled } : {}),
    basic,
    endpoint: (path) => new URL(base.pathname.replace(/\/+$/, '') + path, base),
    token,
    invalidToken,
    headers,
    seed: integer('seed', options.seed ?? randomInt(0, 2 ** 31), 0, 2 ** 31 - 1),
    timeoutMs: integer('timeout', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1, 600_000),
    concurrency: integer('concurrency', options.concurrency ?? DEFAULT_CONCURRENCY, 1, 64),
    generated: {
      positive: integer('generated positive count', options.generated?.positive ?? DEFAULT_GENERATED, 0, MAX_GENERATED),
      negative: integer('generated negative count', options.generated?.negative ?? DEFAULT_GENERATED, 0, MAX_GENERATED),
      ...(options.generated?.strings === undefined ? {} : { strings: integer('string samples', options.generated.strings, 0, STRING_DOMAIN.length) }),
      ...(options.generated?.variants === undefined ? {} : { variants: integer('variant samples', options.generated.variants, 0, MAX_VARIANTS) }),
    },
    skip: withProfile([...(options.skip ?? []), ...selectionRules(options, operations, plans, missingParents, actions, lists)], options.profile),
    awaited: Object.fromEntries(CHECK_NAMES.map((check) => [check, awaitedAnswers(check, operations, plans, actions, lists)])),
    contract,
    extraCases,
    secretMask: new SecretMask({ token, basic, headers, extraCases }),
    maxTimeouts: integer('maxTimeouts', options.maxTimeouts ?? DEFAULT_MAX_TIMEOUTS, 1, 1000),
  };
}

export function parseBaseUrl(text: string | undefined): URL {
  if (!text) throw new ContractUsageError('A base URL is required: pass --base-url or set PLANT_STORE_BASE_URL.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ContractUsageError(`'${text}' is not a URL; expected something like https://plants.example.com/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ContractUsageError(`The base URL must be http or https, not ${url.protocol.replace(':', '')}: ${text}`);
  if (url.search || url.hash) throw new ContractUsageError(`The base URL cannot carry a query or a fragment: ${text}`);
  if (url.username || url.password) throw new ContractUsageError('The base URL cannot carry credentials; pass them with --token or --header.');
  return url;
}

function integer(what: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new ContractUsageError(`The ${what} must be a whole number from ${min} to ${max}, not ${value}.`);
  return value;
}

/** The skip rules that --checks and --exclude-checks make, and the one a spec without security makes. */
function selectionRules(
  options: ContractOptions,
  operations: readonly SuiteContract[],
  plans: readonly SequencePlan[],
  missingParents: readonly MissingParent[],
  actions: readonly ProducedValue[],
  lists: readonly ListedFilters[],
): SkipRule[] {
  const names = (list: readonly string[] | undefined, flag: string): Set<CheckName> | undefined => {
    if (list === undefined) return undefined;
    const unknown = list.filter((name) => !(CHECK_NAMES as readonly string[]).includes(name));
    if (unknown.length) throw new ContractUsageError(`${flag}: no check named ${unknown.join(', ')}; the checks are ${CHECK_NAMES.join(', ')}.`);
    return new Set(list as CheckName[]);
  };
  const only = names(options.checks, '--checks');
  const excluded = names(options.excludeChecks, '--exclude-checks');
  if (only && only.size === 0) throw new ContractUsageError('--checks names no check; leave it out to run them all.');
  const rules: SkipRule[] = [];
  for (const check of CHECK_NAMES) {
    const reason = notApplicable(check, operations, plans, missingParents, actions, lists);
    // A check the spec gives nothing to judge says so, whatever --checks selects: not applicable, never "not judged".
    if (reason) rules.push({ check, reason, notApplicable: true });
    else if (excluded?.has(check)) rules.push({ check, reason: 'excluded with --exclude-checks' });
    else if (only && !only.has(check)) rules.push({ check, reason: 'not selected with --checks' });
  }
  if (rules.filter((rule) => rule.notApplicable || rule.reason.startsWith('excluded') || rule.reason.startsWith('not selected')).length === CHECK_NAMES.length) {
    throw new ContractUsageError('Every check is excluded; nothing would be judged.');
  }
  return rules;
}

/** Every case of the files given with --cases; a file that is not in the format is a usage error naming it. */
function loadCaseFiles(paths: readonly string[]): FixtureCase[] {
  const cases: FixtureCase[] = [];
  const seen = new Map<string, string>();
  for (const path of paths) {
    let loaded: FixtureCase[];
    try {
      loaded = loadFixtures(path);
    } catch (error) {
      if (error instanceof FixtureError) throw new ContractUsageError(`--cases ${path}: ${error.message}`);
      throw error;
    }
    for (const fixture of loaded) {
      const earlier = seen.get(fixture.name);
      if (earlier) throw new ContractUsageError(`--cases: case name '${fixture.name}' is in both ${earlier} and ${fixture.file}; names must be unique.`);
      seen.set(fixture.name, fixture.file);
      cases.push(fixture);
    }
  }
  return cases;
}
