/**
 * Which operations below a parent record (`POST /bookings/{bookingId}/payment`, the dependency
 * graph's `parent` path values) ran on parents the suite created, counted from what was sent: an
 * operation counts when one of its answered requests named, for every parent its path names, a
 * record whose create the suite saw succeed (a pinned record, a create's 2xx answer in the run, or what an
 * action called before the cases answered: an instance a trigger started).
 * Every other such operation gets the reason, so a user sees why it was judged on a parent it never
 * made. Pure: the graph, the exchanges and what the pinning tried in, the counts out.
 */
import type { Collection } from '../openapi/operations/collections.js';
import type { Dependency, OperationDependencies } from '../openapi/operations/dependencies.js';
import { parsedBodyOf } from './spec-contract.js';
import { exchangesByOperation, type Exchange } from './model.js';
import { namedRecords } from './dependencies.js';
import { createdKey } from './sequences.js';

/** A record the suite made before the cases (pinned), or why it made none of a collection. */
export interface PinAttempt {
  collection: string;
  /** The identity as JSON text, when the create succeeded. */
  id?: string;
  /** Why no record was made (`createBooking answered 422`). */
  failed?: string;
}

/** An action the suite called once before the cases for the value its answer gives (dependencies.ts producedValues), or why it gave none. */
export interface ProducedAttempt {
  producer: string;
  property: string;
  /** The answered value as JSON text, when the call succeeded. */
  value?: string;
  failed?: string;
}

export interface ParentCoverage {
  belowParent: number;
  onCreatedParent: number;
  /**
   * Of those, the operations below a record no operation creates (PowerDNS's servers: only listed), which
   * ran on one an answer of the run named (its producer's: listServers's `id`), the parents they could be given.
   */
  onAnsweredParent?: number;
  /** The operations below a parent that never ran on one the suite created, with the reason. */
  notOnCreated: Array<{ operationId: string; reason: string }>;
}

/** The coverage of the operations under test (`graph` holds only those) by the records the suite created. */
export function parentCoverage(
  graph: readonly OperationDependencies[],
  collections: readonly Collection[],
  exchanges: readonly Exchange[],
  pinned: readonly PinAttempt[],
  produced: readonly ProducedAttempt[] = [],
): ParentCoverage {
  const created = createdKeys(collections, exchanges, pinned);
  // What an action the suite called answered (an instance it started) is a record the suite created.
  const started = (d: Dependency, value: string): boolean => produced.some((p) => p.producer === d.producer && p.property === d.property && p.value !== undefined && pathText(p.value) === value);
  const notOnCreated: ParentCoverage['notOnCreated'] = [];
  let belowParent = 0;
  let onAnsweredParent = 0;
  const byOperation = exchangesByOperation(exchanges);
  const answered = answeredValues(byOperation);
  // A record no operation creates exists when an answer named it: the producer's (a list of servers).
  const exists = (d: Dependency, value: string): boolean => (d.collection !== undefined ? created.get(d.collection)?.has(value) === true : answered(d.producer, d.property).has(value));
  for (const entry of graph) {
    const parents = entry.consumes.filter((d) => d.in === 'path' && d.source === 'parent');
    if (!parents.length) continue;
    belowParent++;
    const own = (byOperation.get(entry.operationId) ?? []).filter((x) => x.outcome === 'response');
    const named = own.map((x) => pathValues(entry.path, x.case.request.path));
    const onStarted = named.find((values) => values !== undefined && parents.every((d) => started(d, values.get(d.parameter) ?? '') || exists(d, values.get(d.parameter) ?? '')));
    if (onStarted) {
      if (parents.some((d) => d.collection === undefined && !started(d, onStarted.get(d.parameter) ?? ''))) onAnsweredParent++;
      continue;
    }
    const failed = produced.find((p) => p.failed !== undefined && parents.some((d) => d.producer === p.producer && d.property === p.property));
    const reason = failed
      ? `${failed.producer}, called before the cases for its ${failed.property}, gave none: ${failed.failed}`
      : whyNot(entry, parents, own.length, created, collections, pinned, answered);
    notOnCreated.push({ operationId: entry.operationId, reason });
  }
  return { belowParent, onCreatedParent: belowParent - notOnCreated.length, ...(onAnsweredParent ? { onAnsweredParent } : {}), notOnCreated };
}

/**
 * The values (as a path carries them) a producer's 2xx answers gave for `property`: at the top of the
 * answer, in the items of an answered list, and in those of a list one member down (`{data: [...]}`).
 */
function answeredValues(byOperation: ReadonlyMap<string, readonly Exchange[]>): (producer: string, property: string) => ReadonlySet<string> {
  const found = new Map<string, Set<string>>();
  return (producer, property) => {
    const key = JSON.stringify([producer, property]);
    let values = found.get(key);
    if (values) return values;
    values = new Set();
    const add = (holder: unknown): void => {
      if (holder === null || typeof holder !== 'object' || Array.isArray(holder)) return;
      const value = (holder as Record<string, unknown>)[property];
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') (values as Set<string>).add(String(value));
    };
    for (const exchange of byOperation.get(producer) ?? []) {
      if (exchange.outcome !== 'response' || exchange.response.status < 200 || exchange.response.status > 299) continue;
      const answer = parsedBodyOf(exchange.response);
      if (!answer.ok) continue;
      const lists = Array.isArray(answer.value)
        ? [answer.value]
        : answer.value !== null && typeof answer.value === 'object'
          ? Object.values(answer.value as Record<string, unknown>).filter((member): member is unknown[] => Array.isArray(member))
          : [];
      add(answer.value);
      for (const list of lists) for (const item of list) add(item);
    }
    found.set(key, values);
    return values;
  };
}

/** The first parent the operation's requests never named a created record of, and why. */
function whyNot(
  entry: OperationDependencies,
  parents: OperationDependencies['consumes'],
  answered: number,
  created: ReadonlyMap<string, ReadonlySet<string>>,
  collections: readonly Collection[],
  pinned: readonly PinAttempt[],
  answeredBy: (producer: string, property: string) => ReadonlySet<string>,
): string {
  if (!answered) return 'none of its requests was answered';
  for (const parent of parents) {
    if (parent.collection === undefined) {
      if (answeredBy(parent.producer, parent.property).size) continue;
      return `{${parent.parameter}} names a record no collection's create makes, and no answer of ${parent.producer} named one (its ${parent.property})`;
    }
    const collection = collections.find((c) => c.path === parent.collection);
    const noun = collection?.noun ?? parent.collection;
    if (created.get(parent.collection)?.size) continue;
    const failed = pinned.find((p) => p.collection === parent.collection && p.failed !== undefined)?.failed;
    return failed ? `no ${noun} for {${parent.parameter}} was created: ${failed}` : `no ${noun} for {${parent.parameter}} was created before it`;
  }
  const records = namedRecords(entry, collections);
  if (records && 'unplanned' in records) return records.unplanned;
  return `no request of it named records the suite created or an answer named for ${parents.map((p) => `{${p.parameter}}`).join(' and ')}`;
}

/** A JSON text value as a path carries it, decoded: a string without its quotes, a number's digits. */
function pathText(json: string): string {
  return json.startsWith('"') ? (JSON.parse(json) as string) : json;
}

/** The keys (as a path carries them, decoded) of the records the suite created, by collection path. */
function createdKeys(collections: readonly Collection[], exchanges: readonly Exchange[], pinned: readonly PinAttempt[]): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  const add = (collection: string, json: string | undefined): void => {
    if (json === undefined) return;
    keys.set(collection, (keys.get(collection) ?? new Set()).add(pathText(json)));
  };
  for (const pin of pinned) add(pin.collection, pin.id);
  for (const exchange of exchanges) {
    if (exchange.outcome !== 'response' || exchange.response.status < 200 || exchange.response.status > 299) continue;
    for (const collection of collections) {
      if (collection.create.operationId !== exchange.case.operationId) continue;
      const answer = parsedBodyOf(exchange.response);
      const { request } = exchange.case;
      const sent = typeof request.body === 'string' ? parsedBodyOf(request as { body: string }) : undefined;
      const plan = {
        collection: collection.path,
        identity: collection.identity.property,
        identityType: collection.identity.type,
        ...(collection.identity.member === undefined ? {} : { identityMember: collection.identity.member }),
        ...(collection.envelope === undefined ? {} : { envelope: { member: collection.envelope } }),
      };
      // The answer's identity (in the item of a list it answers what it made in) or Location, else the one the
      // request chose (a client-sent key the answer leaves out): the request's body is the record itself.
      const answered = collection.createdAs === undefined ? plan : { ...plan, createdAs: collection.createdAs };
      add(
        collection.path,
        createdKey({ ...(answer.ok ? { body: answer.value } : {}), headers: exchange.response.headers }, answered) ?? (sent?.ok ? createdKey({ body: sent.value }, plan) : undefined),
      );
    }
  }
  return keys;
}

/** The path parameters' values (percent-decoded) of a request path sent for `template`, or undefined when it does not match. */
export function pathValues(template: string, sent: string): Map<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^/{}]+\})/)
    .map((part) => {
      const name = /^\{([^/{}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/?#]*)';
    })
    .join('');
  const match = new RegExp(`^${pattern}/?(?:[?#]|$)`).exec(sent);
  if (!match) return undefined;
  const values = new Map<string, string>();
  names.forEach((name, at) => {
    const raw = match[at + 1] ?? '';
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A malformed escape names no record the suite made: kept as sent.
    }
    values.set(name, value);
  });
  return values;
}
