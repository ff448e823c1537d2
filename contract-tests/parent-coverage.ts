/**
 * Which operations below a parent record (`POST /bookings/{bookingId}/payment`, the dependency
 * graph's `parent` path values) ran on parents the suite created, counted from what was sent: an
 * operation counts when one of its answered requests named, for every parent its path names, a
 * record whose create the suite saw succeed (a pinned record, or a create's 2xx answer in the run).
 * Every other such operation gets the reason, so a user sees why it was judged on a parent it never
 * made. Pure: the graph, the exchanges and what the pinning tried in, the counts out.
 */
import type { Collection } from '../openapi/operations/collections.js';
import type { OperationDependencies } from '../openapi/operations/dependencies.js';
import { parseBody } from './spec-contract.js';
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

export interface ParentCoverage {
  belowParent: number;
  onCreatedParent: number;
  /** The operations below a parent that never ran on one the suite created, with the reason. */
  notOnCreated: Array<{ operationId: string; reason: string }>;
}

/** The coverage of the operations under test (`graph` holds only those) by the records the suite created. */
export function parentCoverage(graph: readonly OperationDependencies[], collections: readonly Collection[], exchanges: readonly Exchange[], pinned: readonly PinAttempt[]): ParentCoverage {
  const created = createdKeys(collections, exchanges, pinned);
  const notOnCreated: ParentCoverage['notOnCreated'] = [];
  let belowParent = 0;
  const byOperation = exchangesByOperation(exchanges);
  for (const entry of graph) {
    const parents = entry.consumes.filter((d) => d.in === 'path' && d.source === 'parent');
    if (!parents.length) continue;
    belowParent++;
    const own = (byOperation.get(entry.operationId) ?? []).filter((x) => x.outcome === 'response');
    const named = own.map((x) => pathValues(entry.path, x.case.request.path));
    if (named.some((values) => values !== undefined && parents.every((d) => d.collection !== undefined && created.get(d.collection)?.has(values.get(d.parameter) ?? '') === true))) continue;
    notOnCreated.push({ operationId: entry.operationId, reason: whyNot(entry, parents, own.length, created, collections, pinned) });
  }
  return { belowParent, onCreatedParent: belowParent - notOnCreated.length, notOnCreated };
}

/** The first parent the operation's requests never named a created record of, and why. */
function whyNot(
  entry: OperationDependencies,
  parents: OperationDependencies['consumes'],
  answered: number,
  created: ReadonlyMap<string, ReadonlySet<string>>,
  collections: readonly Collection[],
  pinned: readonly PinAttempt[],
): string {
  if (!answered) return 'none of its requests was answered';
  for (const parent of parents) {
    if (parent.collection === undefined) return `{${parent.parameter}} names a record no collection's create makes: its value comes from ${parent.producer}'s answer`;
    const collection = collections.find((c) => c.path === parent.collection);
    const noun = collection?.noun ?? parent.collection;
    if (created.get(parent.collection)?.size) continue;
    const failed = pinned.find((p) => p.collection === parent.collection && p.failed !== undefined)?.failed;
    return failed ? `no ${noun} for {${parent.parameter}} was created: ${failed}` : `no ${noun} for {${parent.parameter}} was created before it`;
  }
  const records = namedRecords(entry, collections);
  if (records && 'unplanned' in records) return records.unplanned;
  return `no request of it named records the suite created for ${parents.map((p) => `{${p.parameter}}`).join(' and ')}`;
}

/** The keys (as a path carries them, decoded) of the records the suite created, by collection path. */
function createdKeys(collections: readonly Collection[], exchanges: readonly Exchange[], pinned: readonly PinAttempt[]): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  const add = (collection: string, json: string | undefined): void => {
    if (json === undefined) return;
    const text = json.startsWith('"') ? (JSON.parse(json) as string) : json;
    keys.set(collection, (keys.get(collection) ?? new Set()).add(text));
  };
  for (const pin of pinned) add(pin.collection, pin.id);
  for (const exchange of exchanges) {
    if (exchange.outcome !== 'response' || exchange.response.status < 200 || exchange.response.status > 299) continue;
    for (const collection of collections) {
      if (collection.create.operationId !== exchange.case.operationId) continue;
      const answer = parseBody(exchange.response.body);
      const sent = typeof exchange.case.request.body === 'string' ? parseBody(exchange.case.request.body) : undefined;
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
