/**
 * The generated cases of one run, all made from the spec's request body and security scheme:
 * the string domain walked for every string property, both sides of every declared constraint,
 * the identity's range ends written several ways, the syntax of JSON, credentials in every
 * form, body shapes, and fast-check's random valid bodies and random single mutations.
 *
 * Correct by construction: every case says what the spec should make of its body, and the
 * spec's own validator is asked before the case is kept; a case it contradicts is moved to
 * `excluded` with the reason (the run reports it as not sent; the tests hold that list empty for
 * the bundled spec), so a provider is never failed for what the spec leaves unsaid, and a schema
 * combining constraints the generators do not model never stops a run. Where the RFCs leave a choice the case is provider-choice.
 * The seed reproduces every case; ids are drawn fresh on every run.
 */
import fc from 'fast-check';
import { isXmlMediaType, mediaEssence } from '../openapi/media-types.js';
import { parseExactJson } from '../openapi/schema/exact-json.js';
import { isObject } from '../openapi/schema/resolve.js';
import type { IdSource, SchemePlace } from '../fixtures/index.js';
import { authCases, type AuthCase, type CredentialParts } from './generators/auth.js';
import { takesLiteral, validParameterValues, verdict, write, type ParameterValues } from './generators/parameters.js';
import { freshIdentity, freshKeyMaker, identityValues } from './generators/identity.js';
import { abbreviate, literal, objectText, withMember, withMemberInside, type Member } from './generators/json-text.js';
import { asForm, formUrlencoded, MULTIPART_BOUNDARY, multipartFormData, notUtf8, xmlDocument } from './generators/encodings.js';
import { syntaxCases } from './generators/json-syntax.js';
import { plainRawBody, rawBodies } from './generators/raw-bodies.js';
import { boundaryValues, validLiterals, wrongTypes, type BoundaryValue } from './generators/schema-values.js';
import { STRING_DOMAIN, type StringSample } from './generators/strings.js';
import type { CaseExpectation, CheckName } from './model.js';
import { isValidRequestBody, keySchemaOf, typesOf, type JsonSchema, type RequestBody, type RequestProperty, type SuiteContract } from './spec-contract.js';

/** Random bodies sent to an operation whose body has no schema, beside the plain one (at most; --generated N if fewer). */
const RAW_BODIES = 5;

export type Family = 'media-type' | 'string' | 'value' | 'required' | 'identity' | 'syntax' | 'auth' | 'shape' | 'random-valid' | 'random-invalid' | 'probe' | 'parameter' | 'request' | 'raw-body';

export interface GeneratedCase {
  family: Family;
  /** Unique within the run with its family: the case id is `generated:<family>-<label>`. */
  label: string;
  description: string;
  expect: CaseExpectation;
  body: string | Uint8Array | undefined;
  /** The credential replacing the valid one (auth cases). */
  credentials?: CredentialParts;
  /** The Content-Type sent (default: the spec's JSON media type as written). */
  contentType?: string;
  /** The parameters the case sends (default: the run's valid values of the required ones). */
  parameters?: ParameterValues;
  /** Headers the case leaves out (auth cases: a key sent alongside the main credential). */
  omit?: string[];
  /** The parsed body of an accepted case: what the created resource must echo. */
  plant?: Record<string, unknown>;
  choice?: { check: CheckName; rule: string; warnIfAccepted?: boolean };
  fixedId?: boolean;
  phase?: 'probe';
  /** An auth case sent with a body the spec rejects, for want of a valid one (see ContractCase). */
  bodyNotValid?: boolean;
  /** The case acts on the record the run created for it (see ContractCase). */
  onRecord?: boolean;
}

export interface GenerationOptions {
  contract: SuiteContract;
  seed: number;
  /** Random valid bodies. */
  positive: number;
  /** Random single mutations of valid bodies. */
  negative: number;
  /**
   * Samples of the string domain each plain string property is walked with (default: all of them).
   * Fewer rotate through the domain from one property to the next, so an operation with enough string
   * properties still sends every sample, each to fewer of them.
   */
  strings?: number;
  /** With --variant-samples: the run's turns through the fixed families' variants (auth, JSON syntax, media-type spellings, shapes, wrong JSON types). */
  variants?: VariantTurns;
  ids: IdSource;
  token: string;
  invalidToken: string;
  /** The --basic `user:password`, for operations secured by HTTP Basic. */
  basic?: string;
  /** A record created for this operation to act on: its cases name it, and their bodies carry its identity. */
  record?: PinnedRecord;
  /** Query parameters naming other resources, with a value from an earlier answer (JSON text by name). */
  known?: ReadonlyMap<string, string>;
  /** Request body properties naming other resources (`station_id`), with a value from an earlier answer (JSON text by property). */
  knownBody?: ReadonlyMap<string, string>;
}

/**
 * Under --variant-samples N, which variants of a fixed family each operation is sent. These families
 * (credentials written every way, JSON syntax, spellings of the media type, body shapes) prove the
 * provider's auth and body parsing, which APIs share across operations, not the operation's schema:
 * each operation is sent the N of its variants sent least so far in the run (the first in its list
 * on a tie), so they go round from one operation to the next and a run with enough operations sends
 * every variant somewhere, also where operations are offered different lists (another scheme, a body
 * without an identity). A variant `always` keeps goes to every operation (no credential at all: one
 * route left unsecured is a finding of its own). The wrong JSON types of each property and parameter
 * go round the same way (wrongTypesInTurn). One per run: it counts what was sent.
 */
export class VariantTurns {
  /** Per family, how many operations each variant (by label) was sent to. */
  readonly #sent = new Map<Family, Map<string, number>>();
  constructor(readonly count: number) {}

  take<T extends { label: string }>(family: Family, variants: readonly T[], always: (variant: T) => boolean = () => false): T[] {
    const rotated = variants.filter((v) => !always(v));
    let sent = this.#sent.get(family);
    if (sent === undefined) this.#sent.set(family, (sent = new Map()));
    const times = sent;
    const chosen = new Set(
      rotated
        .map((variant, at) => ({ variant, at, times: times.get(variant.label) ?? 0 }))
        .sort((a, b) => a.times - b.times || a.at - b.at)
        .slice(0, this.count)
        .map(({ variant }) => variant),
    );
    for (const variant of rotated) times.set(variant.label, (times.get(variant.label) ?? 0) + (chosen.has(variant) ? 1 : 0));
    return variants.filter((v) => always(v) || chosen.has(v));
  }

  /** Of the distinct variants offered in turn (per family, by label), how many went to some operation. */
  coverage(): { sent: number; of: number } {
    let sent = 0;
    let of = 0;
    for (const times of this.#sent.values()) {
      for (const count of times.values()) if (count > 0) sent++;
      of += times.size;
    }
    return { sent, of };
  }
}

/** A generated case left out of the run, and why (reports show the reason). */
export interface ExcludedCase {
  case: GeneratedCase;
  reason: string;
}

export interface Generation {
  cases: GeneratedCase[];
  /**
   * Cases the spec's validator contradicted (a schema combining constraints the generators do
   * not model, or a generator bug), and domain samples the spec's constraints exclude (the
   * constraint cases cover those).
   */
  excluded: ExcludedCase[];
}

/** How the reason of a case left out for want of a valid body begins: a check that judged nothing for it is not judged. */
export const EXCLUDED_VALID = 'excluded: meant as a valid';

/** A member name the body does not declare, for syntax placed where no schema check reaches. */
const EXTRA_MEMBER = 'contractSuiteExtra';
/** Plant-ish words for the base body's strings: distinct per property, so that a swap shows. */
const WORDS = ['Monstera', 'tropical', 'Ficus', 'indoor', 'Pilea', 'hardy'];

/**
 * Where the operation's other security alternatives take their credential, each alone (an
 * alternative of one scheme, other than the one the suite sends): authCases judges a credential
 * sent under such a scheme only as the provider's choice.
 */
function alternativePlaces(contract: SuiteContract): SchemePlace[] {
  const { security } = contract;
  if (security.kind === 'none') return [];
  const sent = new Set([security.name, ...security.alongside.map((key) => key.name)]);
  return contract.requirements.flatMap((names) => (names.length === 1 && !sent.has(names[0] as string) ? (contract.schemes.get(names[0] as string) ?? []) : []));
}

export function generateCases(given: GenerationOptions): Generation {
  const { contract } = given;
  const options = given.known ? { ...given, known: fitting(contract, given.known) } : given;
  let draws = 0;
  // One reproducible stream per draw: the n-th draw of a run with seed s is always the same.
  const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: (options.seed + 7919 * ++draws) | 0, numRuns: 1 })[0] as T;
  const required = pinned(validParameterValues(contract, sample, false), contract, options.record, options.known);
  const generation: Generation = contract.requestBody ? bodyCases(options, contract.requestBody, required) : { cases: [], excluded: [] };
  // A body the spec gives only a media type for (an upload): bytes of that type, every one to be accepted.
  if (contract.rawBody) {
    for (const raw of rawBodies(contract.rawBody.kind, Math.min(options.positive, RAW_BODIES), sample)) {
      generation.cases.push({ family: 'raw-body', label: raw.label, description: `${raw.description} as ${contract.rawBody.mediaType}`, expect: 'accepted', body: raw.body });
    }
  }
  for (const kase of generation.cases) kase.parameters ??= required;
  for (const { case: kase } of generation.excluded) kase.parameters ??= required;
  parameterCases(options, required, sample, generation);
  if (!contract.requestBody) {
    for (const auth of rotatedAuth(options)) {
      generation.cases.push({
        family: 'auth',
        label: auth.label,
        description: auth.about,
        expect: auth.expect,
        body: contract.rawBody ? plainRawBody(contract.rawBody.kind) : undefined,
        parameters: required,
        credentials: auth.credentials,
        ...(auth.omit ? { omit: auth.omit } : {}),
        ...(auth.rule ? { choice: { check: 'ignored_auth' as const, rule: auth.rule } } : {}),
      });
    }
  }
  if (contract.atTarget !== undefined) namedAtTarget(contract, generation, required, options.ids);
  if (contract.requestBody?.form) writeAsForm(generation, contract.requestBody);
  const { record } = options;
  if (record) {
    const parameter = contract.parameters.find((p) => p.in === 'path' && p.name === record.parameter);
    const owners = (record.parents ?? []).map((parent) => ({ id: parent.id, parameter: contract.parameters.find((p) => p.in === 'path' && p.name === parent.parameter) }));
    const scoped = [...(record.scope ?? [])].map(([name, value]) => [contract.parameters.find((p) => p.in === 'path' && p.name === name), value] as const);
    // On the record only where the path names it, and its parents too for a nested one, in the scope it was made in (another scope holds no such record).
    const named = (values: ParameterValues): boolean =>
      parameter !== undefined &&
      values.get(parameter) === record.id &&
      owners.every((owner) => owner.parameter !== undefined && values.get(owner.parameter) === owner.id) &&
      scoped.every(([scope, value]) => scope === undefined || values.get(scope) === value);
    for (const kase of generation.cases) if (named(kase.parameters ?? required) && bodyAgrees(kase.body, record)) kase.onRecord = true;
  }
  return generation;
}

/**
 * A create at the target URI (SuiteContract.atTarget) names the record it makes in its path: each
 * case names one of its own there (one path for every case would meet the record the first made, a
 * 409 where the spec declares one), the key its body carries where it carries the identity (a
 * provider may refuse a body naming another record than its path). A case varying the path
 * parameter itself keeps its value; a body key no path segment can hold leaves acceptance to the provider.
 */
function namedAtTarget(contract: SuiteContract, generation: Generation, required: ParameterValues, ids: IdSource): void {
  const parameter = contract.parameters.find((p) => p.in === 'path' && p.name === contract.atTarget);
  if (!parameter?.schema) return;
  const integer = typesOf(parameter.schema).includes('integer');
  const maker = integer ? undefined : freshKeyMaker(parameter.schema, ids);
  const fresh = (): string | undefined => (integer ? freshIdentity({ name: parameter.name, required: true, schema: parameter.schema as JsonSchema }, ids).toString() : maker?.());
  const identity = (contract.requestBody?.identity ?? contract.requestBody?.key)?.name;
  for (const kase of [...generation.cases, ...generation.excluded.map((excluded) => excluded.case)]) {
    const values = kase.parameters ?? required;
    const own = values.get(parameter);
    if (own !== required.get(parameter)) {
      // The case walks the path parameter: a body carrying the identity names the same record.
      if (identity !== undefined && own !== undefined && typeof kase.body === 'string') kase.body = withMemberInside(kase.body, identity, own, 'replace');
      continue;
    }
    const read = identity === undefined ? undefined : readJsonBody(kase.body);
    const member = read && isObject(read.value) ? read.value[identity as string] : undefined;
    const carried = typeof member === 'string' ? JSON.stringify(member) : typeof member === 'number' && Number.isSafeInteger(member) ? String(member) : undefined;
    const usable = carried !== undefined && takesLiteral(parameter, carried) && !['""', '"."', '".."'].includes(carried);
    if (carried !== undefined && !usable && kase.expect === 'accepted') {
      kase.expect = 'provider-choice';
      kase.choice = { check: 'positive_data_acceptance', rule: `the body names the record ${abbreviate(carried)}, which no path segment of ${parameter.name} can name` };
    } else if (usable && kase.expect === 'accepted' && segmentLength(carried) + contract.path.length > REQUEST_LINE_OCTETS) {
      // The string domain's longest values (65,536 characters) in the path: a server may refuse a target that long (414, 431).
      kase.expect = 'provider-choice';
      kase.choice = {
        check: 'positive_data_acceptance',
        rule: `the body names the record ${abbreviate(carried)}, whose path passes the ${REQUEST_LINE_OCTETS} octets of a request line every server is asked to take (RFC 9112 §3)`,
      };
    }
    const value = usable ? carried : fresh();
    if (value !== undefined) kase.parameters = new Map(values).set(parameter, value);
  }
}

/** The request-line length RFC 9112 §3 recommends every recipient support: a longer one may be refused. */
const REQUEST_LINE_OCTETS = 8000;

/** The octets a path segment takes for a value given as JSON text (a string percent-encoded, a number as its digits). */
function segmentLength(literal: string): number {
  const value: unknown = JSON.parse(literal);
  return typeof value === 'string' ? encodeURIComponent(value).length : literal.length;
}

/** A record the run created for an operation on records (a PUT, a PATCH) to act on: its path parameter, identity property and value (JSON text). */
export interface PinnedRecord {
  parameter: string;
  identity: string;
  id: string;
  /** A nested record's parents, outermost first (a grandparent, then the parent): the path parameter naming each and its identity (JSON text). */
  parents?: ReadonlyArray<{ parameter: string; id: string }>;
  /** The record is the operation's parent (`{bookingId}` of a payment): the body names a record of its own, never this one. */
  owner?: true;
  /** The scope values (JSON text by path parameter) the record was created under (collections.ts): the operation's path names the same. */
  scope?: ReadonlyMap<string, string>;
}

/**
 * The held values (JSON text by parameter name) that the operation's parameter of that name takes:
 * one its schema refuses (a record's code held for a `format: uuid` parameter) names nothing this
 * parameter can carry, so the parameter keeps a valid value of its own.
 */
function fitting(contract: SuiteContract, known: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const takes = (name: string, value: string): boolean =>
    contract.parameters.every((p) => {
      if (p.name !== name || (p.in !== 'query' && p.in !== 'path')) return true;
      return takesLiteral(p, value);
    });
  return new Map([...known].filter(([name, value]) => takes(name, value)));
}

/** The parameter values with the record's path parameter naming it (and its parents' naming the parents). */
function pinned(values: ParameterValues, contract: SuiteContract, record: PinnedRecord | undefined, known: ReadonlyMap<string, string> = new Map()): ParameterValues {
  const withKnown = new Map(values);
  for (const [parameter, value] of values)
    if ((parameter.in === 'query' || parameter.in === 'path') && value !== undefined && known.has(parameter.name)) withKnown.set(parameter, known.get(parameter.name));
  const parameter = record && contract.parameters.find((p) => p.in === 'path' && p.name === record.parameter);
  if (!record || !parameter) return withKnown;
  const out = withKnown;
  for (const [name, value] of record.scope ?? []) {
    const scoped = contract.parameters.find((p) => p.in === 'path' && p.name === name);
    if (scoped) out.set(scoped, value);
  }
  out.set(parameter, record.id);
  for (const parent of record.parents ?? []) {
    const owner = contract.parameters.find((p) => p.in === 'path' && p.name === parent.parameter);
    if (owner) out.set(owner, parent.id);
  }
  return out;
}

/** Whether a body names the pinned record, or no record at all (a change without the identity). */
function bodyAgrees(body: string | Uint8Array | undefined, record: PinnedRecord): boolean {
  if (body === undefined || record.owner) return true;
  if (typeof body !== 'string') return false;
  let value: unknown;
  try {
    value = parseExactJson(body);
  } catch {
    return false;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const named = (value as Record<string, unknown>)[record.identity];
  return named === undefined || literal(named) === record.id;
}

/** Families about JSON itself (its syntax, a body's JSON shape): no form carries them. */
const JSON_ONLY: ReadonlySet<Family> = new Set(['syntax', 'shape']);

/**
 * An operation that takes only a form (URL-encoded or multipart): every case's JSON object
 * written as that form, and judged again as the server reads it back (a field is text, coerced
 * to its property's type: "7" and 7 become one value), a case whose verdict changes excluded with
 * the reason. Cases already written in another media type (the encodings' own, an undeclared
 * one) stay as they are; JSON spellings of the media type and JSON syntax cases are left out.
 */
function writeAsForm(generation: Generation, body: RequestBody): void {
  const form = body.form as NonNullable<RequestBody['form']>;
  const kept: GeneratedCase[] = [];
  for (const kase of generation.cases) {
    // Written in a media type of its own: kept, unless it is JSON under another spelling of the type.
    if (kase.contentType !== undefined) {
      if (!(typeof kase.body === 'string' && kase.body.trimStart().startsWith('{'))) kept.push(kase);
      continue;
    }
    if (typeof kase.body !== 'string') {
      kept.push(kase);
      continue;
    }
    if (JSON_ONLY.has(kase.family)) continue;
    const written = asForm(kase.body, form.kind, body.mediaType, form.files);
    if (!written) {
      generation.excluded.push({ case: kase, reason: `excluded: its body holds a value no ${body.mediaType} field carries (an object inside an object)` });
      continue;
    }
    const read = form.read(written.fields);
    const valid = body.validate(read) === true;
    const intended = kase.expect === 'accepted' || kase.expect === 'duplicate' || kase.expect === 'unauthenticated' ? true : kase.expect === 'rejected-body' ? false : undefined;
    kase.body = written.body;
    kase.contentType = written.contentType;
    delete kase.plant;
    if (intended !== undefined && intended !== valid) {
      if (kase.family === 'auth' && kase.expect === 'unauthenticated') kase.bodyNotValid = true;
      else {
        generation.excluded.push({
          case: kase,
          reason: `excluded: written as ${body.mediaType}, the server reads it as ${valid ? 'a valid' : 'an invalid'} ${body.schemaName} (a form field is text, read as its property's type)`,
        });
        continue;
      }
    }
    if (valid && kase.expect === 'accepted' && read !== null && typeof read === 'object') kase.plant = read as Record<string, unknown>;
    kept.push(kase);
  }
  generation.cases = kept;
}

/**
 * The parameter walk: a valid request with only the required parameters and one with every
 * parameter; for each parameter both sides of its constraints written by its style, and each
 * required one left out. A value whose verdict the suite cannot tell (an object in a query) is
 * never sent as invalid.
 */
function parameterCases(options: GenerationOptions, required: ParameterValues, sample: <T>(arbitrary: fc.Arbitrary<T>) => T, generation: Generation): void {
  const { contract } = options;
  const made = contract.requestBody ? bodyText(contract.requestBody) : contract.rawBody ? plainRawBody(contract.rawBody.kind) : undefined;
  const body = contract.requestBody && typeof made === 'string' && options.knownBody?.size ? withKnownMembers(made, options.knownBody, contract.requestBody) : made;
  // A required body the suite could not make: its parameter cases are left out (a request without it is invalid whatever its parameters).
  const missingBody = contract.requestBody?.required === true && body === undefined;
  const cases = generation.cases;
  const push = (kase: GeneratedCase): void => {
    if (missingBody)
      generation.excluded.push({ case: kase, reason: `${EXCLUDED_VALID} request, but no valid ${contract.requestBody?.schemaName} could be made for it, and the spec requires the body` });
    else cases.push(kase);
  };
  const all = pinned(validParameterValues(contract, sample, true), contract, options.record, options.known);
  // The valid request, for an operation without a body (a body operation's walk has many).
  if (!contract.requestBody) {
    push({
      family: 'request',
      label: 'required-parameters',
      description: contract.parameters.some((p) => p.required) ? 'a valid request with only the required parameters' : 'a valid request',
      expect: 'accepted',
      body,
      parameters: required,
    });
  }
  if (contract.parameters.some((p) => !p.required)) {
    push({ family: 'request', label: 'every-parameter', description: 'a valid request with every parameter the spec declares', expect: 'accepted', body, parameters: all });
  }
  for (const parameter of contract.parameters) {
    const label = `${parameter.in}-${parameter.name}`;
    if (parameter.required && parameter.in !== 'path') {
      push({
        family: 'parameter',
        label: `${label}-absent`,
        description: `the ${parameter.in} parameter ${parameter.name} is missing, and the spec requires it`,
        expect: 'rejected-body',
        body,
        parameters: new Map([...required].filter(([p]) => p !== parameter)),
      });
    }
    let values;
    try {
      values = boundaryValues(parameter.schema, sample);
    } catch {
      continue;
    }
    const sendable = values.filter((value) => {
      let written: string;
      try {
        written = write(parameter, value.literal);
      } catch {
        return false;
      }
      // A number in another spelling (1.0, 1e3) is a JSON body's concern: on the wire a parameter is text, and servers read plain digits.
      if (value.valid && /^-?\d/.test(value.literal) && String(Number(value.literal)) !== value.literal && !/^-?\d+$/.test(value.literal)) return false;
      const judged = verdict(parameter, written);
      // On the wire a query's "7" and 7 are the same text: only what the server reads back counts.
      if (judged === undefined || judged !== value.valid) return false;
      // A path segment that is empty or holds a slash names another route.
      return !(parameter.in === 'path' && (written === '' || written.includes('/') || written === '.' || written === '..'));
    });
    for (const value of wrongTypesInTurn(options, 'parameter', sendable)) {
      const parameters = new Map(all);
      parameters.set(parameter, value.literal);
      // A valid value of a parameter naming another resource (`origin`, a station's id) other than one the run holds names one the provider may not have.
      const madeUp = value.valid && parameter.in === 'query' && options.known?.has(parameter.name) === true && options.known.get(parameter.name) !== value.literal;
      push({
        family: 'parameter',
        label: `${label}-${value.label}`,
        description: `the ${parameter.in} parameter ${parameter.name} is ${value.about}: ${value.valid ? 'valid, must be accepted' : 'invalid, must be refused'}`,
        expect: madeUp ? 'provider-choice' : value.valid ? 'accepted' : 'rejected-body',
        ...(madeUp
          ? {
              choice: {
                check: 'positive_data_acceptance' as const,
                rule: `${parameter.name} names another resource's record, and this value was made up, not taken from an answer: the provider may not have it`,
              },
            }
          : {}),
        body,
        parameters,
      });
    }
  }
}

/**
 * The boundary values of one parameter or property that are sent. Under --variant-samples the wrong
 * JSON types among them (a string where a number is due, null, an array, an object) are a fixed
 * family too: refusing a type the spec does not declare is the service's validation layer's work,
 * the same for every property, and they were nearly half of a real API's requests. Each parameter or
 * property is sent N of them, those sent least so far in the run; the other values all.
 */
function wrongTypesInTurn(options: GenerationOptions, family: 'parameter' | 'value', values: readonly BoundaryValue[]): readonly BoundaryValue[] {
  const wrong = values.filter((value) => value.wrongType);
  if (!options.variants || wrong.length === 0) return values;
  const kept = new Set(options.variants.take(family, wrong));
  return values.filter((value) => !value.wrongType || kept.has(value));
}

/** The variants of a fixed family this operation is sent: all of them, or its turn's under --variant-samples. */
function rotated<T extends { label: string }>(options: GenerationOptions, family: Family, variants: readonly T[]): readonly T[] {
  return options.variants ? options.variants.take(family, variants) : variants;
}

/** The credential cases this operation is sent; under --variant-samples, "no credential at all" always among them. */
function rotatedAuth(options: GenerationOptions): readonly AuthCase[] {
  const { contract } = options;
  const all = authCases(contract.security, options.token, options.invalidToken, options.seed, options.basic, alternativePlaces(contract));
  return options.variants ? options.variants.take('auth', all, (auth) => auth.label === 'no-credential') : all;
}

/**
 * The string domain samples the `nth` walked property is sent: all of them, or `count` taken in turn
 * from where the previous property's left off (property 0 the first `count`, property 1 the next …).
 */
export function domainSamples(count: number | undefined, nth: number): readonly StringSample[] {
  const size = STRING_DOMAIN.length;
  if (count === undefined || count >= size) return STRING_DOMAIN;
  return Array.from({ length: count }, (_, j) => STRING_DOMAIN[(nth * count + j) % size] as StringSample);
}

/**
 * A valid body's text, for cases about something else (parameters): the required members (then every
 * member) of each variant, from the first few valid literals of their schemas, until the spec's
 * validator takes one (a `minProperties`, a union, a dependency may refuse the first try); undefined
 * when none is found within those bounded tries.
 */
function bodyText(body: RequestBody): string | undefined {
  const variants = body.variants.length ? body.variants.map((v) => v.properties) : [body.properties];
  for (let seed = 1; seed <= 4; seed++) {
    for (const properties of variants) {
      const writable = properties.filter((p) => p.schema.readOnly !== true);
      for (const members of [writable.filter((p) => p.required || p.name === body.identity?.name), writable]) {
        const text = `{${members.map((p) => `${JSON.stringify(p.name)}:${fc.sample(validLiterals(p.schema), { seed, numRuns: 1 })[0] as string}`).join(',')}}`;
        if (body.validate(parseExactJson(text))) return text;
      }
    }
  }
  return undefined;
}

/** The body walk of an operation that takes a JSON body (the second generation's cases). */
function bodyCases(options: GenerationOptions, body: RequestBody, _required: ParameterValues): Generation {
  const { contract, ids } = options;
  let draws = 0;
  const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: (options.seed + 7919 * ++draws) | 0, numRuns: 1 })[0] as T;
  /** A value for each property of a variant: a word for a plain string, else a valid literal of its schema. */
  const valuesOf = (own: readonly RequestProperty[]): Map<string, string> => {
    const values = new Map<string, string>();
    own.forEach((property, i) => {
      const types = typesOf(property.schema);
      const plain = types.includes('string') && plainText(property.schema) && property.schema.minLength === undefined && property.schema.maxLength === undefined;
      values.set(property.name, plain ? JSON.stringify(WORDS[i % WORDS.length]) : (fc.sample(validLiterals(property.schema), { seed: i, numRuns: 1 })[0] as string));
    });
    return values;
  };
  // A oneOf/anyOf body: the walk goes through the first branch whose base body the spec's validator accepts
  // (for oneOf, it matches that branch only); random valid bodies come from every branch.
  const chosen =
    body.variants.find((variant) => {
      const own = variant.properties.filter((p) => p.schema.readOnly !== true);
      const values = valuesOf(own);
      const text = objectText(own.map((p) => [p.name, p.name === body.identity?.name ? '1' : (values.get(p.name) as string)] as const));
      return isValidRequestBody(contract, text);
    }) ?? body.variants[0];
  const properties = (chosen?.properties ?? body.properties).filter((p) => p.schema.readOnly !== true);
  const identity = properties.find((p) => p.name === body.identity?.name);
  const baseValues = valuesOf(properties);
  if (identity) baseValues.delete(identity.name);
  // A record pinned as the owner (the parent a child operation is sent under) is not the body's own record: its id names the parent only.
  const pinnedRecord = options.record?.owner ? undefined : options.record;
  const idLiteral = (): string => (identity && pinnedRecord?.identity === identity.name ? pinnedRecord.id : identity ? freshIdentity(identity, ids).toString() : '0');
  // A string identity: a fresh value per body in a shape its schema takes (pattern, lengths), else its base value (and its cases are fixed).
  // A key inside an envelope (`{"add_on": {"code": …}}`) is written inside the member that holds the record.
  const holder = body.keyIn === undefined ? undefined : properties.find((p) => p.name === body.keyIn);
  const key = holder ? body.key : properties.find((p) => p.name === body.key?.name);
  const keySchema = key === undefined ? undefined : keySchemaOf(key.schema, body.keyMember);
  const keyMaker = keySchema === undefined ? undefined : freshKeyMaker(keySchema, ids);
  const freshKeys = keyMaker !== undefined;
  // An object identity takes the fresh key in its member, its other members as the base value has them.
  const keyText = (id: string): string => (key && !holder && body.keyMember !== undefined ? withKeyMember(baseValues.get(key.name), body.keyMember, id) : id);
  const keyLiteral = (): string => (key && pinnedRecord?.identity === key.name ? keyText(pinnedRecord.id) : keyMaker ? keyText(keyMaker()) : '""');
  /** A valid body with every declared property, a fresh id each call. */
  // On a pinned record, the body names that record wherever it carries the identity.
  if (pinnedRecord && properties.some((p) => p.name === pinnedRecord.identity)) baseValues.set(pinnedRecord.identity, pinnedRecord.id);
  // A property naming another resource's record (`station_id`) takes a value an earlier answer gave, never a made-up one.
  const knownBody = options.knownBody ?? new Map<string, string>();
  for (const [name, value] of knownBody) if (properties.some((p) => p.name === name && p !== identity)) baseValues.set(name, value);
  /** The envelope's value (a JSON object literal) holding a fresh key (for `replace`, only where it holds one: a random record may leave an optional key out). */
  const keyedRecord = (record: string, mode: 'set' | 'replace' = 'set'): string => (key ? withMemberInside(record, key.name, keyLiteral(), mode) : record);
  const base = (): Member[] =>
    properties.map(
      (p) =>
        [
          p.name,
          p === identity ? idLiteral() : p === key && freshKeys ? keyLiteral() : p === holder && freshKeys ? keyedRecord(baseValues.get(p.name) as string) : (baseValues.get(p.name) as string),
        ] as const,
    );
  /** Cases whose key is set by the case (a domain sample): a provider that kept it from an earlier run answers it as a repeat. */
  const fixedKey = (property: RequestProperty): { fixedId?: true } => (property === key || (holder !== undefined && property === holder) || (key && !freshKeys) ? { fixedId: true } : {});

  const generation: Generation = { cases: [], excluded: [] };
  const seen = new Set<string>();
  /** `domain`: a sample of a domain walk, which the schema's constraints may rule out (the constraint cases cover those). */
  const add = (kase: GeneratedCase, intended?: 'valid' | 'invalid', kind: 'constraint' | 'domain' = 'constraint'): void => {
    // A key the generators cannot draw fresh (a pattern) repeats in every body: each accepted case may meet it stored.
    if (key && !freshKeys && kase.expect === 'accepted') kase.fixedId = true;
    // Property names may make two labels alike (`a` with `b-c`, `a-b` with `c`): the later one gets a number, never a crash.
    let caseKey = `${kase.family}-${kase.label}`;
    for (let n = 2; seen.has(caseKey); n++) {
      kase.label = `${kase.label.replace(/~\d+$/, '')}~${n}`;
      caseKey = `${kase.family}-${kase.label}`;
    }
    seen.add(caseKey);
    // The body read once for what follows (a read per question was a fifth of a run: netlify's bodies of forty members).
    const read = readJsonBody(kase.body);
    // A valid body naming a record the run never saw (a string walk over `station_id`): the provider may not have it.
    const madeUp = kase.expect === 'accepted' && knownBody.size ? madeUpMember(read, knownBody) : undefined;
    if (madeUp !== undefined) {
      kase.expect = 'provider-choice';
      kase.choice = {
        check: 'positive_data_acceptance',
        rule: `${madeUp} names another resource's record, and this value was made up, not taken from an answer: the provider may not have it`,
      };
    }
    if (intended !== undefined) {
      const valid = read !== undefined && contract.requestBody?.validate(read.value) === true;
      if (valid !== (intended === 'valid')) {
        // A credential case goes out even without a valid body: a success to it still proves the credential ignored.
        if (kase.family === 'auth' && kase.expect === 'unauthenticated') {
          kase.bodyNotValid = true;
          kase.description += ` (the body is not a valid ${body.schemaName}: the suite could not make one, so only a success fails)`;
          generation.cases.push(kase);
          return;
        }
        const reason =
          kind === 'domain'
            ? `excluded: the spec ${intended === 'valid' ? 'rules out' : 'accepts'} this sample of a domain walk (the constraint cases cover what it rules out)`
            : `${intended === 'valid' ? EXCLUDED_VALID : 'excluded: meant as an invalid'} ${body.schemaName}, but the spec's validator ${intended === 'valid' ? 'rejects' : 'accepts'} it (a schema combining constraints the generators do not model)`;
        generation.excluded.push({ case: kase, reason });
        return;
      }
      if (valid && kase.expect === 'accepted') kase.plant = read.value as Record<string, unknown>;
    }
    generation.cases.push(kase);
  };
  const verdict = (expect: CaseExpectation): 'valid' | 'invalid' | undefined =>
    expect === 'accepted' || expect === 'unauthenticated' || expect === 'duplicate' ? 'valid' : expect === 'rejected-body' ? 'invalid' : undefined;

  // The duplicate probe: one body sent twice, before anything else.
  if (identity || key) {
    const probe = objectText(base());
    add({ family: 'probe', label: 'first', description: 'a valid body with a fresh id, sent first (the duplicate probe)', expect: 'accepted', body: probe, phase: 'probe' }, 'valid');
    add(
      {
        family: 'probe',
        label: 'repeat',
        description: `the same body again, the same ${(identity ?? key)?.name} (the spec leaves repeats unsaid: the answer is reported, and fixed-id cases read it)`,
        expect: 'duplicate',
        body: probe,
        phase: 'probe',
        choice: { check: 'positive_data_acceptance', rule: 'the spec leaves a repeated id unsaid' },
      },
      'valid',
    );
  }

  // The string domain, for every string property without constraints that shape its values.
  let walked = 0;
  for (const property of properties) {
    const types = typesOf(property.schema);
    if (!types.includes('string') || !plainText(property.schema)) continue;
    for (const sample of domainSamples(options.strings, walked++)) {
      // An empty key would name its record at `/users/`, not at the item path `/users/{username}`: a strict provider refuses it.
      const emptyKey = property === key && body.keyInPath === true && sample.value === '';
      add(
        {
          family: 'string',
          label: `${property.name}-${sample.label}`,
          description: `${property.name} is ${sample.about}${emptyKey ? '' : '; it must be accepted and come back exactly'}`,
          ...(emptyKey
            ? {
                expect: 'provider-choice' as const,
                choice: {
                  check: 'positive_data_acceptance' as const,
                  rule: `${property.name} names the record in its item path, where an empty value names none: the spec leaves accepting it unsaid`,
                },
              }
            : { expect: 'accepted' as const }),
          body: objectText(withMember(base(), property.name, sample.literal ?? JSON.stringify(sample.value))),
          ...fixedKey(property),
        },
        'valid',
        'domain',
      );
    }
  }

  // Both sides of every declared constraint, and every property present or absent.
  for (const property of properties) {
    for (const value of wrongTypesInTurn(options, 'value', boundaryValues(property.schema, sample, { identity: property === identity }))) {
      add(
        {
          family: 'value',
          label: `${property.name}-${value.label}`,
          description: `${property.name} is ${value.about}: ${value.valid ? 'valid, must be accepted' : 'invalid, must be refused'}`,
          expect: value.valid ? 'accepted' : 'rejected-body',
          body: objectText(withMember(base(), property.name, value.literal)),
          ...(value.valid ? fixedKey(property) : {}),
        },
        value.valid ? 'valid' : 'invalid',
      );
    }
    add(
      {
        family: 'required',
        label: `${property.name}-absent`,
        description: property.required ? `${property.name} is missing, and the spec requires it` : `${property.name} is left out (it is optional)`,
        expect: property.required ? 'rejected-body' : 'accepted',
        body: objectText(withMember(base(), property.name, undefined)),
      },
      property.required ? 'invalid' : 'valid',
    );
  }

  if (identity) {
    for (const value of identityValues(identity, ids)) {
      add(
        {
          family: 'identity',
          label: value.label,
          description: `${identity.name} is ${value.about}: ${value.valid ? 'valid, must be accepted' : 'invalid, must be refused'}`,
          expect: value.valid ? 'accepted' : 'rejected-body',
          body: objectText(withMember(base(), identity.name, value.literal)),
          ...(value.fixed && value.valid ? { fixedId: true } : {}),
        },
        value.valid ? 'valid' : 'invalid',
      );
    }
  }

  const firstString = properties.find((p) => p.required && typesOf(p.schema).includes('string') && plainText(p.schema));
  const syntaxes = syntaxCases({
    base,
    ...(firstString ? { stringProperty: firstString.name } : {}),
    ...(identity ? { identity: identity.name } : {}),
    ...(body.additionalProperties ? { extra: EXTRA_MEMBER } : {}),
  });
  for (const syntax of rotated(options, 'syntax', syntaxes)) {
    add(
      {
        family: 'syntax',
        label: syntax.label,
        description: syntax.about,
        expect: syntax.expect,
        body: syntax.body,
        ...(syntax.rule ? { choice: { check: 'negative_data_rejection' as const, rule: syntax.rule, ...(syntax.warnIfAccepted ? { warnIfAccepted: true } : {}) } } : {}),
      },
      verdict(syntax.expect),
    );
  }

  for (const auth of rotatedAuth(options)) {
    add(
      {
        family: 'auth',
        label: auth.label,
        description: auth.about,
        expect: auth.expect,
        body: objectText(base()),
        credentials: auth.credentials,
        ...(auth.omit ? { omit: auth.omit } : {}),
        ...(auth.rule ? { choice: { check: 'ignored_auth' as const, rule: auth.rule } } : {}),
      },
      'valid',
    );
  }

  // Spellings RFC 9110 §8.3.1 makes equal to the declared media type (case-insensitive type, subtype and
  // parameter names; a quoted parameter value is the same value; RFC 8259 §11: charset is meaningless but harmless).
  const essence = mediaEssence(body.mediaType);
  const [type = 'application', subtype = 'json'] = essence.split('/');
  const spellings = rotated(options, 'media-type', [
    { label: 'charset', contentType: `${essence}; charset=utf-8`, about: 'a charset=utf-8 parameter' },
    { label: 'letter-case', contentType: `${type.charAt(0).toUpperCase()}${type.slice(1)}/${subtype.toUpperCase()}`, about: 'the type and subtype in other letter case' },
    { label: 'quoted-charset', contentType: `${essence}; Charset="UTF-8"`, about: 'a charset parameter with its name in capitals and its value quoted' },
    // A real form body where the spec declares only JSON: a form parser behind the JSON route would store it.
    ...(body.mediaTypes.some((m) => mediaEssence(m) === 'application/x-www-form-urlencoded') ? [] : [{ label: 'form-urlencoded', contentType: 'application/x-www-form-urlencoded', about: '' }]),
  ]);
  for (const { label, contentType, about } of spellings.filter((spelling) => spelling.label !== 'form-urlencoded')) {
    add(
      {
        family: 'media-type',
        label,
        description: `a valid body sent as Content-Type: ${contentType}, ${about}: the same media type (RFC 9110 §8.3.1), must be accepted`,
        expect: 'accepted',
        body: objectText(base()),
        contentType,
      },
      'valid',
    );
  }
  if (spellings.some((spelling) => spelling.label === 'form-urlencoded')) {
    const form = new URLSearchParams(base().map(([name, literal]): [string, string] => [name, literal.startsWith('"') ? (JSON.parse(literal) as string) : literal])).toString();
    add(
      {
        family: 'media-type',
        label: 'form-urlencoded',
        description: `a form-encoded body (${form.slice(0, 60)}) sent as application/x-www-form-urlencoded, which the spec does not declare: must be refused`,
        expect: 'rejected-body',
        body: form,
        contentType: 'application/x-www-form-urlencoded',
      },
      'invalid',
    );
  }

  // The other encodings the operation declares (RFC 7578 multipart, a URL-encoded form, XML): the valid body written
  // in each must be accepted, and the same body with bytes that are not UTF-8 in a string refused.
  const validBase = base();
  if (isValidRequestBody(contract, objectText(validBase))) {
    const text = firstString ? validBase.find(([name]) => name === firstString.name)?.[1] : undefined;
    const marker = text?.startsWith('"') && (JSON.parse(text) as string).length > 0 ? (JSON.parse(text) as string).charAt(0) : undefined;
    let encodings = 0;
    for (const declared of body.mediaTypes) {
      const essence = mediaEssence(declared);
      // Each encoding's body is a record of its own (a fresh id and key): two XML types written alike would be a repeat a provider refuses.
      const record = (): Member[] => (encodings++ === 0 ? validBase : base());
      const written =
        essence === 'application/x-www-form-urlencoded'
          ? { label: 'form', text: formUrlencoded(record()), contentType: declared, about: 'a URL-encoded form' }
          : essence === 'multipart/form-data'
            ? { label: 'multipart', text: multipartFormData(record()), contentType: `${essence}; boundary=${MULTIPART_BOUNDARY}`, about: 'multipart/form-data (RFC 7578)' }
            : isXmlMediaType(essence)
              ? { label: 'xml', text: xmlDocument(record(), body.schemaName), contentType: declared, about: `XML, one <${body.schemaName}> element` }
              : undefined;
      if (!written?.text) continue;
      add({
        family: 'media-type',
        label: `${written.label}-valid`,
        description: `a valid body as ${written.about}, a type the spec declares: must be accepted`,
        expect: 'accepted',
        body: written.text,
        contentType: written.contentType,
      });
      const bytes = marker === undefined || !firstString ? undefined : notUtf8(written.text, encodedAt(written.label, firstString.name));
      if (bytes)
        add({
          family: 'media-type',
          label: `${written.label}-not-utf8`,
          description: `the valid ${written.about} body with the bytes C3 28 (not UTF-8) in ${firstString?.name}: must be refused`,
          expect: 'rejected-body',
          body: bytes,
          contentType: written.contentType,
        });
    }
  }

  const shapes = rotated(options, 'shape', [
    { label: 'null', text: (): string => 'null', about: 'the body is null' },
    { label: 'array', text: (): string => `[${objectText(base())}]`, about: 'the body is an array holding a valid body' },
    { label: 'string', text: (): string => JSON.stringify(objectText(base())), about: 'the body is a JSON string holding a valid body' },
    { label: 'number', text: idLiteral, about: 'the body is a number' },
    { label: 'boolean', text: (): string => 'true', about: 'the body is true' },
    { label: 'empty-object', text: (): string => '{}', about: 'the body is an empty object' },
  ]);
  for (const { label, text: made, about } of shapes) {
    const text = made();
    add({ family: 'shape', label, description: about, expect: 'rejected-body', body: text }, 'invalid', 'domain');
  }

  // fast-check: random valid bodies and random single mutations.
  const recordOf = (own: readonly RequestProperty[]): fc.Arbitrary<Record<string, string>> =>
    fc.record(Object.fromEntries(own.filter((p) => p.name !== identity?.name).map((p) => [p.name, validLiterals(p.schema)])), {
      requiredKeys: own.filter((p) => p.required && p.name !== identity?.name).map((p) => p.name),
    });
  const record = recordOf(properties);
  // The key as in base(): a fresh one where the generators draw it (random strings repeat, "" most of all, and a repeat is a 409).
  const randomBody = (values: Record<string, string>, own: readonly RequestProperty[] = properties): Member[] =>
    own.flatMap((p) =>
      p.name === identity?.name
        ? [[p.name, idLiteral()] as const]
        : knownBody.has(p.name) && values[p.name] !== undefined
          ? [[p.name, knownBody.get(p.name) as string] as const]
          : p.name === key?.name && !holder && freshKeys && values[p.name] !== undefined
            ? [[p.name, keyLiteral()] as const]
            : p.name === holder?.name && freshKeys && values[p.name] !== undefined
              ? [[p.name, keyedRecord(values[p.name] as string, 'replace')] as const]
              : values[p.name] === undefined
                ? []
                : [[p.name, values[p.name] as string] as const],
    );
  // Every branch of a oneOf/anyOf body takes its turn.
  const variants = body.variants.length > 1 ? body.variants.map((v) => v.properties.filter((p) => p.schema.readOnly !== true)) : [properties];
  const randoms = options.positive > 0 ? fc.sample(fc.oneof(...variants.map((own) => recordOf(own).map((values) => randomBody(values, own)))), { seed: options.seed, numRuns: options.positive }) : [];
  randoms.forEach((members, i) => {
    add({ family: 'random-valid', label: String(i + 1), description: `a random valid body: ${describeMembers(members)}`, expect: 'accepted', body: objectText(members) }, 'valid');
  });
  const mutations = options.negative > 0 ? fc.sample(fc.tuple(record, mutationArbitrary(properties)), { seed: options.seed ^ 0x5eed, numRuns: options.negative }) : [];
  mutations.forEach(([values, mutation], i) => {
    add(
      {
        family: 'random-invalid',
        label: `${i + 1}-${mutation.label}`,
        description: `a random body broken so that ${mutation.about}`,
        expect: 'rejected-body',
        body: mutation.apply(randomBody(values)),
      },
      'invalid',
    );
  });
  return generation;
}

/** A valid body's text with its members naming records set to the values the run holds (kept as it was when the spec refuses that). */
function withKnownMembers(text: string, known: ReadonlyMap<string, string>, body: RequestBody): string {
  let value: unknown;
  try {
    value = parseExactJson(text);
  } catch {
    return text;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return text;
  let members: Member[] = Object.entries(value as Record<string, unknown>).map(([name, member]) => [name, literal(member)] as const);
  for (const [name, held] of known) if (name in (value as Record<string, unknown>)) members = withMember(members, name, held);
  const written = objectText(members);
  return body.validate(parseExactJson(written)) ? written : text;
}

/** A case's body read as exact JSON; undefined when it is no JSON text. */
function readJsonBody(body: string | Uint8Array | undefined): { value: unknown } | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    return { value: parseExactJson(body) };
  } catch {
    return undefined;
  }
}

/** The first member of a JSON object body (as readJsonBody reads it) naming a record by a value other than the one the run holds for it; undefined when none does. */
function madeUpMember(body: { value: unknown } | undefined, known: ReadonlyMap<string, string>): string | undefined {
  if (body === undefined) return undefined;
  const { value } = body;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  for (const [name, held] of known) {
    const member = (value as Record<string, unknown>)[name];
    if (member !== undefined && literal(member) !== held) return name;
  }
  return undefined;
}

interface Mutation {
  label: string;
  about: string;
  apply: (members: Member[]) => string;
}

/** One way to break a valid body, chosen by fast-check along with its parameters. */
function mutationArbitrary(properties: readonly RequestProperty[]): fc.Arbitrary<Mutation> {
  const options: Array<fc.Arbitrary<Mutation>> = [
    fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }).map((at) => ({
      label: 'truncated',
      about: 'the JSON text is cut short',
      // Every proper prefix of an object's text lacks its closing brace: never JSON.
      apply: (members: Member[]) => {
        const whole = objectText(members);
        return whole.slice(0, 1 + Math.floor(at * (whole.length - 1)));
      },
    })),
  ];
  for (const property of properties) {
    if (property.required) {
      options.push(fc.constant({ label: `${property.name}-missing`, about: `${property.name} is missing`, apply: (members: Member[]) => objectText(withMember(members, property.name, undefined)) }));
    }
    const types = typesOf(property.schema);
    // A property without a type takes any value: no type is wrong for it.
    const wrong = types.length ? wrongTypes(types) : [];
    if (wrong.length) {
      options.push(
        fc.constantFrom(...wrong).map((value) => ({
          label: `${property.name}-wrong-type`,
          about: `${property.name} is ${value.about}`,
          apply: (members: Member[]) => objectText(withMember(members, property.name, value.literal)),
        })),
      );
    }
  }
  return fc.oneof(...options);
}

/** A string schema whose values are not shaped by a constraint (a word of the suite's fits it). */
function plainText(schema: JsonSchema): boolean {
  return !schema.enum && !('const' in schema) && !schema.format && !schema.pattern;
}

function describeMembers(members: readonly Member[]): string {
  return members.map(([name, value]) => `${name} ${value.startsWith('"') ? abbreviate(JSON.parse(value) as string, 24) : value.length > 40 ? `${value.slice(0, 40)}…` : value}`).join(', ');
}

/** Where a property's value starts in a body written as `label` (the bytes after this go bad). */
function encodedAt(label: string, name: string): string {
  if (label === 'form') return `${new URLSearchParams([[name, '']]).toString()}`;
  if (label === 'multipart') return `name="${name}"\r\n\r\n`;
  return `<${name}>`;
}

/** An object identity's JSON text (`base`, else an empty object) with `id` (JSON text) as its member `member`. */
function withKeyMember(base: string | undefined, member: string, id: string): string {
  let value: unknown;
  try {
    value = base === undefined ? {} : JSON.parse(base);
  } catch {
    value = {};
  }
  const rest = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value).filter(([name]) => name !== member) : [];
  return `{${[...rest.map(([name, inner]) => `${JSON.stringify(name)}:${JSON.stringify(inner)}`), `${JSON.stringify(member)}:${id}`].join(',')}}`;
}
