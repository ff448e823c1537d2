/**
 * The `x-mock-*` extensions: what a user states of their API where the CRUD rule
 * (collections.ts) cannot know it, written in the spec or added by an overlay (`--overlay`,
 * openapi/document/overlay.ts). Read and checked once at load: a malformed one is refused in one
 * line naming its pointer, never ignored. docs/stateful-inference.md shows each one.
 *
 * - `x-mock-collection: false` (path item or operation): never served from the store.
 *   `x-mock-collection: true` on a POST (or its path item): it creates records whatever its body's
 *   schema looks like.
 * - `x-mock-identity: /slug` (a POST that creates, or its path item): the record's identity, a JSON
 *   pointer of one token into the record (inside its envelope, for an enveloped one).
 * - `x-mock-envelope: article` (the create, or its path item): the member the create's body and
 *   answers wrap the record in; `false`: none, even where the rule would infer one.
 * - `x-mock-role: create | read | list | update | delete | none` (an operation): what it does to
 *   the collection whose path (create, list) or item path (read, update, delete) its own path
 *   starts with; `create` on a PUT or POST at an item path: it creates the record that path names;
 *   `none` leaves it stateless.
 * - `x-mock-page: {size, offset, page, cursor}` (a list): which query parameters page it.
 */
import { HTTP_METHODS } from '../document/load.js';
import { escapePointerToken, isObject, unescapePointerToken } from '../schema/resolve.js';
import type { CompiledContract } from './model.js';

export const MOCK_ROLES = ['create', 'read', 'list', 'update', 'delete', 'none'] as const;
export type MockRole = (typeof MOCK_ROLES)[number];
export const PAGE_KEYS = ['size', 'offset', 'page', 'cursor'] as const;
export type MockPage = Partial<Record<(typeof PAGE_KEYS)[number], string>>;

/** What the extensions say of one operation (its path item's, its own winning), with where each was written. */
export interface MockHints {
  collection?: boolean;
  identity?: string;
  envelope?: string | false;
  role?: MockRole;
  page?: MockPage;
  /** The pointer of each extension given, for the errors a later check finds (`#/paths/~1articles/post/x-mock-identity`). */
  at: Partial<Record<'collection' | 'identity' | 'envelope' | 'role' | 'page', string>>;
}

/** A malformed or inapplicable `x-mock-*` extension: `#pointer: reason`, one line. */
export class MockExtensionError extends Error {
  override name = 'MockExtensionError';

  static at(pointer: string, reason: string): MockExtensionError {
    return new MockExtensionError(`#${pointer}: ${reason}`);
  }
}

const KNOWN = new Set(['x-mock-collection', 'x-mock-identity', 'x-mock-envelope', 'x-mock-role', 'x-mock-page']);

/** The hints of every operation that has any, by operationId. Throws MockExtensionError for the first malformed one. */
export function mockHints(contract: CompiledContract): Map<string, MockHints> {
  const hints = new Map<string, MockHints>();
  const paths = isObject(contract.document.paths) ? contract.document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const itemAt = `/paths/${escapePointerToken(path)}`;
    const shared = read(item, itemAt, 'path item');
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation) || typeof operation.operationId !== 'string') continue;
      const own = read(operation, `${itemAt}/${method}`, 'operation');
      const merged: MockHints = { ...shared, ...own, at: { ...shared.at, ...own.at } };
      delete (merged as { role?: unknown }).role;
      if (own.role !== undefined) merged.role = own.role;
      if (Object.keys(merged.at).length) hints.set(operation.operationId, merged);
    }
  }
  return hints;
}

/** The extensions written on one path item or operation, each checked. */
function read(node: Record<string, unknown>, at: string, kind: 'path item' | 'operation'): MockHints {
  const hints: MockHints = { at: {} };
  for (const key of Object.keys(node)) {
    if (key.startsWith('x-mock-') && !KNOWN.has(key)) throw MockExtensionError.at(`${at}/${key}`, `unknown extension; the mock reads ${[...KNOWN].join(', ')}`);
  }
  const pointer = (key: string): string => `${at}/${key}`;
  if ('x-mock-collection' in node) {
    const value = node['x-mock-collection'];
    if (typeof value !== 'boolean') throw MockExtensionError.at(pointer('x-mock-collection'), `must be true or false, not ${JSON.stringify(value)}`);
    hints.collection = value;
    hints.at.collection = pointer('x-mock-collection');
  }
  if ('x-mock-identity' in node) {
    const value = node['x-mock-identity'];
    const tokens = typeof value === 'string' && value.startsWith('/') ? value.slice(1).split('/') : [];
    if (tokens.length !== 1 || tokens[0] === '') {
      throw MockExtensionError.at(pointer('x-mock-identity'), `must be a JSON pointer to one member of the record, like "/id", not ${JSON.stringify(value)}`);
    }
    hints.identity = unescapePointerToken(tokens[0] as string);
    hints.at.identity = pointer('x-mock-identity');
  }
  if ('x-mock-envelope' in node) {
    const value = node['x-mock-envelope'];
    if (value !== false && (typeof value !== 'string' || value === ''))
      throw MockExtensionError.at(pointer('x-mock-envelope'), `must be the member the record is wrapped in (a name) or false, not ${JSON.stringify(value)}`);
    hints.envelope = value as string | false;
    hints.at.envelope = pointer('x-mock-envelope');
  }
  if ('x-mock-role' in node) {
    const value = node['x-mock-role'];
    if (kind !== 'operation') throw MockExtensionError.at(pointer('x-mock-role'), 'belongs on an operation, not on a path item');
    if (!MOCK_ROLES.includes(value as MockRole)) throw MockExtensionError.at(pointer('x-mock-role'), `must be one of ${MOCK_ROLES.join(', ')}, not ${JSON.stringify(value)}`);
    hints.role = value as MockRole;
    hints.at.role = pointer('x-mock-role');
  }
  if ('x-mock-page' in node) {
    const value = node['x-mock-page'];
    const entries = isObject(value) ? Object.entries(value) : [];
    const bad = entries.find(([name, parameter]) => !(PAGE_KEYS as readonly string[]).includes(name) || typeof parameter !== 'string');
    if (!isObject(value) || entries.length === 0 || bad) {
      throw MockExtensionError.at(
        pointer('x-mock-page'),
        `must be an object naming query parameters by ${PAGE_KEYS.join(', ')}, like {"size": "limit", "offset": "skip"}${bad ? ` (not ${JSON.stringify(bad[0])}: ${JSON.stringify(bad[1])})` : ''}`,
      );
    }
    hints.page = value as MockPage;
    hints.at.page = pointer('x-mock-page');
  }
  return hints;
}
