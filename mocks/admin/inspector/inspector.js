// @ts-check
// The inspector page: reads the mock's /__mock routes and shows what the loaded spec declares
// (/__mock/spec: its title, one table per collection the mock stores, each singleton document as
// stored, a "Try it" form per operation), the stored records (a page at a time) and the request journal (new entries only,
// by cursor); a click opens an exchange whole. Every value that came from a request or from the
// spec is put in the page with textContent, never as HTML.

import { curlLine } from './curl.js';

/**
 * @typedef {{ name: string; in: 'path' | 'query' | 'header' | 'cookie'; required: boolean; description?: string; type?: string; enum?: string[]; example?: string }} ParameterView
 * @typedef {{ mediaType: string; required: boolean; example: string; from: string }} BodyView
 * @typedef {{ operationId: string; method: string; path: string; summary?: string; description?: string; stateful: boolean; role?: string; collection?: string; singleton?: string; parameters: ParameterView[]; body?: BodyView; security: string[][]; forceable: number[]; examples: Record<string, string[]> }} OperationView
 * @typedef {{ path: string; itemPath?: string; resource: string; noun: string; identity: string; admin: string; parent?: string; parentParameter?: string; operations: string[] }} CollectionView
 * @typedef {{ path: string; admin: string; parent?: string; parentParameter?: string; operations: { operationId: string; role: string }[] }} SingletonView
 * @typedef {{ name: string; kind: string; in?: string; parameter?: string }} SchemeView
 * @typedef {{ title: string; version: string; description?: string; collections: CollectionView[]; singletons?: SingletonView[]; operations: OperationView[]; securitySchemes: SchemeView[]; mode?: string; upstream?: string; strict?: boolean }} SpecView
 * @typedef {{ text?: string; encoding?: string; bytes?: number; cut?: boolean; unread?: boolean }} JournalBody
 * @typedef {{ headers: [string, string][]; headersCut?: number; body?: JournalBody }} JournalMessage
 * @typedef {{ in: string; code: string; message: string; severity: string; problems?: string[] }} Violation
 * @typedef {{ seq: number; at: string; replica?: string; method: string; path: string; query?: string; status: number; durationMs: number; verdict: string; operationId?: string; stateful?: boolean; code?: string; message?: string; problems?: string[]; fields?: string[]; violations?: Violation[] }} EntrySummary
 * @typedef {EntrySummary & { request: JournalMessage; response: JournalMessage }} Entry
 * @typedef {{ entries: number; bytes: number; maxEntries: number; maxBytes: number }} JournalStats
 * @typedef {{ entries: EntrySummary[]; last?: number; more: boolean; journal: JournalStats }} JournalPage
 * @typedef {{ text: string; pointer?: string }} Problem
 * @typedef {{ type: 'object'; members: [string, JsonNode][] } | { type: 'array'; items: JsonNode[] } | { type: 's' | 'n' | 'b'; raw: string }} JsonNode
 * @typedef {{ view: SingletonView; dirty: boolean; text: string | undefined; parentKey: string | undefined; element: HTMLElement }} DocumentState
 * @typedef {{ view: CollectionView; pages: (string | undefined)[]; next: string | undefined; dirty: boolean; text: string | undefined; parentKey: string | undefined; keys: string[]; element: HTMLElement }} CollectionState
 */

/** How often the journal is read when the mock cannot hold a read until its next entry (`busy`, `unavailable`). */
const POLL_MS = 1000;
const MAX_BACKOFF_MS = 10_000;
/** How long the mock holds a read of the journal until an entry comes (`?wait=`, mocks/admin/journal-wait.ts). */
const WAIT_SECONDS = 20;
/** The least time between two reads while entries keep coming, so a busy mock is not re-rendered per request. */
const MIN_GAP_MS = 200;
/** What ends a held read (the X-Mock-Journal-Wait header) when the mock can hold the next one too. */
const WAITED = new Set(['news', 'timeout', 'spec', 'gone']);
/** Reads between two reads of the spec's ETag (and one at once when a held read ends for a --watch reload). */
const SPEC_EVERY = 3;
const RECORDS_PAGE = 50;
const JOURNAL_PAGE = 200;
/** Summaries kept in the page; the journal itself is bounded too. */
const MAX_ROWS = 1000;
/** Columns of a collection's table: the identity, then the properties first seen in the page. */
const MAX_COLUMNS = 8;
// sessionStorage: the tokens live as long as this tab, and are never put in a URL.
const ADMIN_TOKEN_KEY = 'plant-store-mock.admin-token';
const CREDENTIAL_KEY = 'plant-store-mock.credential.';
/** What a credential field starts with: the mock accepts any well-formed one unless --tokens is set. */
const DEFAULT_CREDENTIAL = { 'http-bearer': 'dev-token', 'oauth-bearer': 'dev-token', 'http-basic': 'user:password', 'api-key': 'dev-key' };
/** Methods that never change the store: a journal entry of another method that succeeded means the records may have changed. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Headers a replay or a curl line leaves to the client (hop-by-hop, or set from the body). */
const NOT_RESENT = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'upgrade', 'expect', 'proxy-connection', 'cookie']);

/** @param {string} id */
function $(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
}
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ ($(id));
/** @param {string} id */
const select = (id) => /** @type {HTMLSelectElement} */ ($(id));
/** @param {string} id */
const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
/** @param {string} id */
const table = (id) => /** @type {HTMLTableElement} */ ($(id));

/**
 * An element with text children: strings become text nodes, so no markup is ever parsed.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | undefined>} [props]
 * @param {...(Node | string | undefined | null | false)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined) continue;
    if (name === 'class') element.className = value;
    else element.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

/**
 * @param {string} path
 * @param {RequestInit} [init]
 */
function adminFetch(path, init = {}) {
  const headers = new Headers(init.headers);
  const token = sessionStorage.getItem(ADMIN_TOKEN_KEY);
  if (token) headers.set('authorization', `Bearer ${token}`);
  return fetch(path, { ...init, headers, cache: 'no-store' });
}

/** @param {Response} response */
async function errorMessage(response) {
  try {
    const body = JSON.parse(await response.text());
    if (typeof body?.message === 'string') return body.message;
    if (typeof body?.detail === 'string') return body.detail;
    if (typeof body?.title === 'string') return body.title;
  } catch {
    // not the Error shape, or cut off: show the status alone
  }
  return `HTTP ${response.status}`;
}

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

const state = {
  locked: false,
  failures: 0,
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  timer: undefined,
  running: false,
  again: false,
  /** The held read of the journal in flight, cancelled when the user asks for something now. */
  /** @type {AbortController | undefined} */
  wait: undefined,
  /** Whether the mock held the last read until news (else the page polls every POLL_MS). */
  canWait: true,
  /** The spec's reload count of the last journal answer: a held read given it ends at once when the spec was reloaded since. */
  /** @type {string | null} */
  reloads: null,
  /** What ended the last held read (X-Mock-Journal-Wait). */
  /** @type {string | null} */
  waited: null,
  /** @type {{ entries: EntrySummary[]; last: number | undefined; lastChange: number | undefined; more: boolean; filters: string }} */
  journal: { entries: [], last: undefined, lastChange: undefined, more: false, filters: '' },
  /** @type {SpecView | undefined} */
  spec: undefined,
  polls: 0,
  /** @type {string | undefined} */
  specTag: undefined,
  /** @type {Map<string, CollectionState>} */
  collections: new Map(),
  /** @type {Map<string, DocumentState>} */
  documents: new Map(),
  /** @type {number | undefined} */
  selected: undefined,
  /** @type {Entry | undefined} */
  detail: undefined,
};

// ---- connection and admin token --------------------------------------------------------------

/**
 * @param {string} kind
 * @param {string} text
 */
function setConnection(kind, text) {
  const element = $('connection');
  element.dataset.state = kind;
  element.textContent = text;
}

function showAdminChip() {
  $('admin-chip').hidden = !sessionStorage.getItem(ADMIN_TOKEN_KEY);
}

/** @param {Response} response */
async function lock(response) {
  state.locked = true;
  $('token-reason').textContent = await errorMessage(response);
  $('token-panel').hidden = false;
  // What was shown belonged to a token that no longer works: show nothing rather than stale data.
  resetJournal();
  for (const collection of state.collections.values()) {
    collection.dirty = true;
    collection.text = undefined;
    showRecords(collection, [], '–', 'Enter the admin token to see this.');
  }
  for (const doc of state.documents.values()) showDocument(doc, undefined, 'Enter the admin token to see this.');
  table('journal').hidden = true;
  $('journal-empty').hidden = false;
  $('journal-empty').textContent = 'Enter the admin token to see this.';
  $('journal-count').textContent = '–';
  $('detail').hidden = true;
  setConnection('locked', 'admin token needed');
  $('admin-token').focus();
}

function unlock() {
  state.locked = false;
  $('token-panel').hidden = true;
}

// ---- the spec ----------------------------------------------------------------------------------

/** The spec's view, read again when it changed (a `--watch` reload): a 304 costs nothing. */
async function refreshSpec() {
  const headers = state.specTag ? { 'if-none-match': state.specTag } : undefined;
  const response = await adminFetch('/__mock/spec', { headers });
  if (response.status === 304) return;
  if (response.status === 401) return lock(response);
  if (!response.ok) throw new Error(await errorMessage(response));
  const view = /** @type {SpecView} */ (await response.json());
  const first = state.spec === undefined;
  state.specTag = response.headers.get('etag') ?? undefined;
  state.spec = view;
  renderSpec(view);
  if (!first) {
    $('reloaded').hidden = false;
    $('reloaded').textContent = `The spec was reloaded: ${view.title} ${view.version}, ${view.operations.length} operations.`;
  }
}

/** @param {SpecView} view */
function renderSpec(view) {
  $('api-title').textContent = view.title || 'Untitled API';
  $('api-version').textContent = view.version;
  document.title = `${view.title || 'mock'} · inspector`;
  renderCollections(view);
  renderDocuments(view);
  renderOperations(view);
}

// ---- collections ------------------------------------------------------------------------------

/** `Payments` of `/bookings/{bookingId}/payments`: what the table is called. */
function collectionName(/** @type {CollectionView} */ view) {
  const word = view.path.split('/').filter((part) => part && !part.startsWith('{')).pop() ?? view.path;
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** @param {SpecView} view */
function renderCollections(view) {
  const kept = state.collections;
  state.collections = new Map();
  const container = $('collections');
  const empty = $('collections-empty');
  container.replaceChildren();
  if (view.mode === 'proxy') {
    button('reset').hidden = true;
    $('collections-hint').hidden = true;
    empty.hidden = false;
    empty.replaceChildren(
      'Proxy mode: every request goes to ',
      h('code', {}, view.upstream ?? ''),
      view.strict ? ' (strict: an answer outside the spec becomes a 502)' : '',
      '. The mock keeps no records; the journal shows where each request and answer departs from the spec.',
    );
    return;
  }
  empty.hidden = view.collections.length > 0 || (view.singletons?.length ?? 0) > 0;
  empty.textContent = 'The mock stores nothing for this spec: no POST takes a body with an identity property. Every operation answers from the spec\u2019s examples.';
  for (const collection of view.collections) {
    const old = kept.get(collection.path);
    const sameView = old && JSON.stringify(old.view) === JSON.stringify(collection);
    const element = collectionElement(collection);
    /** @type {CollectionState} */
    const entry = { view: collection, pages: sameView && old ? old.pages : [undefined], next: undefined, dirty: true, text: undefined, parentKey: old?.parentKey, keys: [], element };
    state.collections.set(collection.path, entry);
    const host = collection.parent ? state.collections.get(collection.parent)?.element.querySelector('.nested') : undefined;
    (host ?? container).append(element);
  }
}

/** @param {CollectionView} view */
function collectionElement(view) {
  const name = collectionName(view);
  const element = h(
    'article',
    { class: view.parent ? 'collection nested-collection' : 'collection', 'data-collection': view.path },
    h('div', { class: 'panel-head' }, h('h3', {}, name, ' ', h('span', { class: 'count' }, '–')), h('code', { class: 'muted' }, view.path)),
    view.parent ? h('label', { class: 'parent-pick' }, `of ${view.parentParameter ?? 'parent'} `, h('select', { class: 'parent-key' })) : undefined,
    h('p', { class: 'hint range' }),
    h('div', { class: 'scroll' }, h('table', { class: 'records', hidden: '' }, h('thead'), h('tbody')), h('p', { class: 'empty' })),
    h(
      'div',
      { class: 'pager' },
      h('button', { type: 'button', class: 'secondary first', disabled: '' }, 'First page'),
      h('button', { type: 'button', class: 'secondary next', disabled: '' }, 'Next page'),
    ),
    h('div', { class: 'nested' }),
  );
  const path = view.path;
  element.querySelector('.next')?.addEventListener('click', () => {
    const collection = state.collections.get(path);
    if (!collection || collection.next === undefined) return;
    collection.pages.push(collection.next);
    collection.dirty = true;
    tick();
  });
  element.querySelector('.first')?.addEventListener('click', () => {
    const collection = state.collections.get(path);
    if (!collection) return;
    collection.pages = [undefined];
    collection.dirty = true;
    tick();
  });
  element.querySelector('.parent-key')?.addEventListener('change', (event) => {
    const collection = state.collections.get(path);
    if (!collection) return;
    collection.parentKey = /** @type {HTMLSelectElement} */ (event.target).value;
    collection.pages = [undefined];
    collection.dirty = true;
    tick();
  });
  return element;
}

/**
 * The admin route listing a collection: a nested one's under the parent record chosen.
 * @param {CollectionState} collection
 */
function listingPath(collection) {
  const { view } = collection;
  if (!view.parent) return view.admin;
  if (collection.parentKey === undefined || !view.parentParameter) return undefined;
  const path = view.admin.replace(`{${view.parentParameter}}`, encodeURIComponent(collection.parentKey));
  // A collection nested deeper than one parent is listed once its other parents can be chosen too.
  return path.includes('{') ? undefined : path;
}

/** @param {CollectionState} collection */
async function refreshCollection(collection) {
  const base = listingPath(collection);
  if (base === undefined) {
    collection.dirty = false;
    const parent = collection.view.parent ? state.collections.get(collection.view.parent) : undefined;
    showRecords(collection, [], '–', parent ? `No ${parent.view.noun} to choose yet.` : 'Nothing to list.');
    return;
  }
  const after = collection.pages.at(-1);
  const params = new URLSearchParams({ limit: String(RECORDS_PAGE) });
  if (after !== undefined) params.set('after', after);
  const response = await adminFetch(`${base}?${params}`);
  if (response.status === 401) return lock(response);
  if (response.status === 400 && after !== undefined) {
    // The page's cursor no longer exists (a reset): start over.
    collection.pages = [undefined];
    return refreshCollection(collection);
  }
  if (!response.ok) throw new Error(await errorMessage(response));
  const text = await response.text();
  collection.dirty = false;
  const next = /<[^>]*[?&]after=([^&>]+)[^>]*>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  collection.next = next === undefined ? undefined : decodeURIComponent(next);
  const total = response.headers.get('x-total-count') ?? '?';
  const count = collection.element.querySelector('.count');
  if (text !== collection.text || count?.textContent !== total) {
    collection.text = text;
    let tree;
    try {
      tree = parseJsonTokens(text);
    } catch {
      tree = undefined;
    }
    const records = tree?.type === 'array' ? tree.items : [];
    showRecords(collection, records, total, `No ${collection.view.noun} yet. Create one through the API or "Try it".`);
  }
}

/**
 * One page of records as a table: the identity first, then each property first seen in the page;
 * each value as it was stored (numbers with their exact digits).
 * @param {CollectionState} collection
 * @param {JsonNode[]} records
 * @param {string} total
 * @param {string} emptyText
 */
function showRecords(collection, records, total, emptyText) {
  const { element, view } = collection;
  const identity = JSON.stringify(view.identity);
  /** @type {string[]} */
  const columns = [identity];
  for (const record of records) {
    if (record.type !== 'object') continue;
    for (const [key] of record.members) if (!columns.includes(key) && columns.length < MAX_COLUMNS) columns.push(key);
  }
  const rows = records.map((record) => {
    const cells = new Map(record.type === 'object' ? record.members : []);
    return h('tr', {}, ...columns.map((key, index) => h('td', { class: index === 0 ? 'id' : undefined }, cellText(cells.get(key)))));
  });
  collection.keys = records.map((record) => (record.type === 'object' ? cellText(new Map(record.members).get(identity)) : '')).filter((key) => key !== '');
  const recordsTable = /** @type {HTMLTableElement} */ (element.querySelector('table.records'));
  /** @type {HTMLTableSectionElement} */ (recordsTable.tHead).replaceChildren(h('tr', {}, ...columns.map((key) => h('th', {}, JSON.parse(key)))));
  recordsTable.tBodies[0]?.replaceChildren(...rows);
  recordsTable.hidden = rows.length === 0;
  const empty = /** @type {HTMLElement} */ (element.querySelector('.empty'));
  empty.hidden = rows.length > 0;
  empty.textContent = emptyText;
  /** @type {HTMLElement} */ (element.querySelector('.count')).textContent = total;
  const first = (collection.pages.length - 1) * RECORDS_PAGE;
  /** @type {HTMLElement} */ (element.querySelector('.range')).textContent = rows.length ? `${first + 1}–${first + rows.length} of ${total}` : '';
  /** @type {HTMLButtonElement} */ (element.querySelector('.first')).disabled = collection.pages.length === 1;
  /** @type {HTMLButtonElement} */ (element.querySelector('.next')).disabled = collection.next === undefined;
  // The collections and documents nested under this one show those of the parent chosen among these.
  for (const child of state.collections.values()) if (child.view.parent === view.path) offerParents(child, collection.keys);
  for (const doc of state.documents.values()) if (doc.view.parent === view.path) offerDocumentParents(doc, collection.keys);
}

/**
 * @param {CollectionState} child
 * @param {string[]} keys
 */
function offerParents(child, keys) {
  const picker = /** @type {HTMLSelectElement | null} */ (child.element.querySelector('.parent-key'));
  if (!picker) return;
  const chosen = child.parentKey !== undefined && keys.includes(child.parentKey) ? child.parentKey : keys[0];
  picker.replaceChildren(...keys.map((key) => h('option', { value: key }, key)));
  if (chosen !== undefined) picker.value = chosen;
  if (chosen !== child.parentKey) {
    child.parentKey = chosen;
    child.pages = [undefined];
    child.dirty = true;
  }
}

// ---- singleton documents -----------------------------------------------------------------------

/** @param {SpecView} view */
function renderDocuments(view) {
  const kept = state.documents;
  state.documents = new Map();
  const list = $('documents-list');
  list.replaceChildren();
  const singletons = view.mode === 'proxy' ? [] : view.singletons ?? [];
  $('documents').hidden = !singletons.some((singleton) => !singleton.parent || !state.collections.has(singleton.parent));
  for (const singleton of singletons) {
    const element = documentElement(singleton);
    /** @type {DocumentState} */
    const entry = { view: singleton, dirty: true, text: undefined, parentKey: kept.get(singleton.path)?.parentKey, element };
    state.documents.set(singleton.path, entry);
    // A record's document beside its nested collections, under the record picked in its table.
    const host = singleton.parent ? state.collections.get(singleton.parent)?.element.querySelector('.nested') : undefined;
    (host ?? list).append(element);
  }
}

/** @param {SingletonView} view */
function documentElement(view) {
  const element = h(
    'article',
    { class: 'collection document', 'data-document': view.path },
    h('div', { class: 'panel-head' }, h('h3', {}, view.path.split('/').filter(Boolean).pop() ?? view.path, ' ', h('span', { class: 'muted' }, 'document')), h('code', { class: 'muted' }, view.path)),
    view.parent ? h('label', { class: 'parent-pick' }, `of ${view.parentParameter ?? 'parent'} `, h('select', { class: 'parent-key' })) : undefined,
    h('div', { class: 'json document-body' }),
    h('p', { class: 'empty' }),
  );
  element.querySelector('.parent-key')?.addEventListener('change', (event) => {
    const doc = state.documents.get(view.path);
    if (!doc) return;
    doc.parentKey = /** @type {HTMLSelectElement} */ (event.target).value;
    doc.dirty = true;
    tick();
  });
  return element;
}

/**
 * @param {DocumentState} doc
 * @param {string[]} keys
 */
function offerDocumentParents(doc, keys) {
  const picker = /** @type {HTMLSelectElement | null} */ (doc.element.querySelector('.parent-key'));
  if (!picker) return;
  const chosen = doc.parentKey !== undefined && keys.includes(doc.parentKey) ? doc.parentKey : keys[0];
  picker.replaceChildren(...keys.map((key) => h('option', { value: key }, key)));
  if (chosen !== undefined) picker.value = chosen;
  if (chosen !== doc.parentKey) {
    doc.parentKey = chosen;
    doc.dirty = true;
  }
}

/**
 * The admin route of a document: a record's under the record chosen.
 * @param {DocumentState} doc
 */
function documentPath(doc) {
  const { view } = doc;
  if (!view.parent) return view.admin;
  if (doc.parentKey === undefined || !view.parentParameter) return undefined;
  const path = view.admin.replace(`{${view.parentParameter}}`, encodeURIComponent(doc.parentKey));
  return path.includes('{') ? undefined : path;
}

/** @param {DocumentState} doc */
async function refreshDocument(doc) {
  const path = documentPath(doc);
  if (path === undefined) {
    doc.dirty = false;
    const parent = doc.view.parent ? state.collections.get(doc.view.parent) : undefined;
    showDocument(doc, undefined, parent ? `No ${parent.view.noun} to choose yet.` : 'Nothing to show.');
    return;
  }
  const response = await adminFetch(path);
  if (response.status === 401) return lock(response);
  if (response.status === 404) {
    doc.dirty = false;
    showDocument(doc, undefined, 'Not written — the API answers the spec’s example.');
    return;
  }
  if (!response.ok) throw new Error(await errorMessage(response));
  doc.dirty = false;
  showDocument(doc, await response.text(), '');
}

/**
 * The document as stored (numbers with their exact digits), or why there is none.
 * @param {DocumentState} doc
 * @param {string | undefined} text
 * @param {string} emptyText
 */
function showDocument(doc, text, emptyText) {
  const body = /** @type {HTMLElement} */ (doc.element.querySelector('.document-body'));
  const empty = /** @type {HTMLElement} */ (doc.element.querySelector('.empty'));
  empty.hidden = text !== undefined;
  empty.textContent = emptyText;
  if (text === undefined) {
    doc.text = undefined;
    body.replaceChildren();
    return;
  }
  if (text === doc.text) return;
  doc.text = text;
  body.replaceChildren(prettyJson(text, [], []) ?? h('pre', { class: 'raw' }, text));
}

/**
 * A value as the table shows it: a string's text, anything else as its JSON (numbers exact).
 * @param {JsonNode | undefined} node
 * @returns {string}
 */
function cellText(node) {
  if (!node) return '';
  if (node.type === 's') return JSON.parse(node.raw);
  return compactJson(node);
}

/**
 * @param {JsonNode} node
 * @returns {string}
 */
function compactJson(node) {
  if (node.type === 'object') return `{${node.members.map(([key, value]) => `${key}:${compactJson(value)}`).join(',')}}`;
  if (node.type === 'array') return `[${node.items.map(compactJson).join(',')}]`;
  return node.raw;
}

// ---- polling ----------------------------------------------------------------------------------

/** The journal filters as query parameters (the server filters: text search looks into bodies). */
function filterParams() {
  const params = new URLSearchParams();
  const classes = [...document.querySelectorAll('#filters input[name="status"]:checked')].map((element) => /** @type {HTMLInputElement} */ (element).value);
  if (classes.length) params.set('status', classes.join(','));
  const path = input('filter-path').value.trim();
  if (path) params.set('path', path);
  const text = input('filter-text').value.trim();
  if (text) params.set('q', text);
  return params;
}

function resetJournal() {
  state.journal = { entries: [], last: undefined, lastChange: undefined, more: false, filters: '' };
}

/**
 * @param {URLSearchParams} params
 * @param {AbortSignal} [signal] cancels a held read
 * @returns {Promise<JournalPage | undefined | null>} undefined when locked, null when cancelled
 */
async function readJournal(params, signal) {
  try {
    const response = await adminFetch(`/__mock/requests?${params}`, { signal });
    if (response.status === 401) {
      await lock(response);
      return undefined;
    }
    if (!response.ok) throw new Error(await errorMessage(response));
    state.reloads = response.headers.get('x-mock-spec-reloads') ?? state.reloads;
    // A mock that did not say it held the read is polled.
    if (params.has('wait')) state.waited = response.headers.get('x-mock-journal-wait') ?? 'not held';
    return await response.json();
  } catch (error) {
    if (signal?.aborted) return null;
    throw error;
  }
}

/**
 * New journal entries since the last read (all of them after a filter change); `waiting`, the mock
 * holds the read until the next entry comes. Undefined when the held read was cancelled.
 * @param {boolean} [waiting]
 * @returns {Promise<boolean | undefined>}
 */
async function refreshJournal(waiting = false) {
  const params = filterParams();
  const filters = params.toString();
  const journal = state.journal;
  const fresh = filters !== journal.filters || journal.last === undefined;
  params.set('limit', String(JOURNAL_PAGE));
  if (!fresh) params.set('after', String(journal.last));
  const held = waiting && !fresh;
  if (held) params.set('wait', String(WAIT_SECONDS));
  if (held && state.reloads !== null) params.set('reloads', state.reloads);
  state.wait = held ? new AbortController() : undefined;
  const page = await readJournal(params, state.wait?.signal);
  state.wait = undefined;
  if (page === null) return undefined;
  if (!page) return false;
  if (fresh) {
    state.journal = { entries: page.entries, last: page.last, lastChange: page.last, more: page.more, filters };
    markCollectionsDirty();
    renderJournal(page.journal);
    return true;
  }
  // The journal was cleared and numbered on: what is shown no longer exists.
  if (page.entries.some((entry) => entry.method === 'DELETE' && entry.path === '/__mock/requests' && entry.status < 300)) {
    resetJournal();
    return refreshJournal();
  }
  // More new entries than one page: the ones between would be skipped silently, so start over from the newest.
  if (page.more) {
    resetJournal();
    return refreshJournal();
  }
  journal.last = page.last;
  if (page.entries.length) {
    journal.entries = [...page.entries, ...journal.entries].slice(0, MAX_ROWS);
    renderJournal(page.journal);
  } else {
    renderJournalBound(page.journal);
  }
  return page.entries.length > 0;
}

function markCollectionsDirty() {
  for (const collection of state.collections.values()) collection.dirty = true;
  for (const doc of state.documents.values()) doc.dirty = true;
}

/** Whether anything changed the store since the last look, from the journal alone. */
async function storeChanged() {
  const journal = state.journal;
  if (journal.lastChange === undefined) return true;
  // Unfiltered, the entries of this poll already say it; filtered, ask for successful changes only.
  const changes = journal.filters
    ? (await readJournal(new URLSearchParams({ after: String(journal.lastChange), status: '2xx,3xx', limit: String(JOURNAL_PAGE) })))?.entries ?? []
    : journal.entries.filter((entry) => entry.seq > (journal.lastChange ?? 0));
  journal.lastChange = journal.last;
  return changes.some((entry) => !READS.has(entry.method));
}

/** @param {boolean} waiting */
async function refresh(waiting) {
  // The journal first: without the token, one 401 (journaled) is enough to ask for it.
  const before = state.journal.last;
  // Cancelled for something the user asked: the next refresh comes at once.
  if ((await refreshJournal(waiting)) === undefined) return;
  if (state.locked) return;
  unlock();
  // The spec changes only on a --watch reload, which ends a held read: asked then, and every third read (a 304 when unchanged).
  if (state.spec === undefined || state.waited === 'spec' || state.polls++ % SPEC_EVERY === 0) await refreshSpec();
  if (state.locked || state.spec?.mode === 'proxy') return;
  if (before !== undefined && (await storeChanged())) markCollectionsDirty();
  // Parents before their nested collections: a child lists the records of a parent shown.
  for (const collection of state.collections.values()) {
    if (state.locked) return;
    if (collection.dirty) await refreshCollection(collection);
  }
  // After the collections: a record's document shows the record picked in its table.
  for (const doc of state.documents.values()) {
    if (state.locked) return;
    if (doc.dirty) await refreshDocument(doc);
  }
}

/**
 * One refresh now, then the next one scheduled: a read the mock holds until its next entry, or a
 * poll every POLL_MS where it cannot hold one. Overlapping calls fold into one more run, and cancel
 * a held read: what the user asked for is shown at once.
 * @param {boolean} [waiting] the scheduled read, which the mock may hold
 */
async function tick(waiting = false) {
  if (state.running) {
    state.again = true;
    state.wait?.abort();
    return;
  }
  state.running = true;
  clearTimeout(state.timer);
  const started = performance.now();
  let delay = POLL_MS;
  try {
    state.waited = null;
    await refresh(waiting);
    state.failures = 0;
    if (!state.locked) setConnection('live', 'live');
    if (state.waited !== null) state.canWait = WAITED.has(state.waited);
    if (state.canWait) delay = Math.max(0, MIN_GAP_MS - (performance.now() - started));
  } catch (error) {
    state.failures++;
    delay = Math.min(POLL_MS * 2 ** state.failures, MAX_BACKOFF_MS);
    setConnection('down', `cannot reach the mock (${messageOf(error)}); retrying`);
  }
  state.running = false;
  if (state.again) {
    state.again = false;
    return tick();
  }
  // A hidden tab stops reading; a locked page waits for the token.
  if (!document.hidden && !state.locked) state.timer = setTimeout(() => void tick(true), delay);
}

// ---- rendering: the journal --------------------------------------------------------------------

/** @param {number} status */
function statusBadge(status) {
  return h('span', { class: `status s${String(status).charAt(0)}` }, String(status));
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });

/** @param {string} at */
function timeOf(at) {
  const date = new Date(at);
  return `${timeFormat.format(date)}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** @param {JournalStats | undefined} stats */
function renderJournalBound(stats) {
  if (!stats) return;
  /** @param {number} bytes */
  const kib = (bytes) => `${Math.round(bytes / 1024)} KiB`;
  $('journal-bound').textContent = `The journal keeps the last ${stats.maxEntries} requests within ${kib(stats.maxBytes)} (now ${stats.entries}, ${kib(stats.bytes)}).`;
}

/**
 * The count beside "Requests", in the same terms as the bound's "(now N, …)": the rows shown of the
 * entries the journal holds while older ones are not loaded ("200 of 500"), or, under filters (the
 * journal's count is not the matching ones'), the rows with a "+" while more match.
 * @param {number} rows
 * @param {JournalStats | undefined} stats
 */
function journalCount(rows, stats) {
  if (state.journal.filters) return state.journal.more ? `${rows}+` : String(rows);
  return stats && rows < stats.entries ? `${rows} of ${stats.entries}` : String(rows);
}

/** @param {JournalStats | undefined} stats */
function renderJournal(stats) {
  const entries = state.journal.entries;
  const rows = entries.map((entry) => {
    const why = h('td', { class: 'why', title: entry.message });
    if (entry.code) why.append(h('span', { class: 'code' }, entry.code));
    // The problems are the validation errors one by one; the message already joins them.
    if (entry.problems?.length) why.append(h('ul', {}, ...entry.problems.map((problem) => h('li', {}, problem))));
    else if (entry.message) why.append(entry.message);
    // Proxy mode: where the request or the upstream's answer departs from the spec.
    if (entry.violations?.length) {
      why.append(h('ul', { class: 'violations' }, ...entry.violations.map((v) => h('li', { class: v.severity }, h('span', { class: 'code' }, `${v.in} ${v.code}`), ' ', v.message))));
    }
    return h(
      'tr',
      { class: ['entry', isAdminPathname(entry.path) ? 'admin' : '', entry.seq === state.selected ? 'selected' : ''].join(' ').trim(), tabindex: '0', 'data-seq': String(entry.seq) },
      h('td', { class: 'num' }, String(entry.seq)),
      // Several replicas on one store share the journal: which one answered.
      h('td', { class: 'time', title: entry.replica ? `${entry.at}, answered by ${entry.replica}` : entry.at }, timeOf(entry.at), entry.replica ? h('span', { class: 'replica' }, ` ${entry.replica}`) : ''),
      h('td', { class: 'request' }, `${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ''}`),
      h('td', {}, statusBadge(entry.status)),
      h('td', { class: 'num' }, String(entry.durationMs)),
      why,
    );
  });
  table('journal').tBodies[0]?.replaceChildren(...rows);
  $('journal-count').textContent = journalCount(entries.length, stats);
  table('journal').hidden = rows.length === 0;
  $('journal-empty').hidden = rows.length > 0;
  $('journal-empty').textContent = state.journal.filters ? 'No request in the journal matches these filters.' : 'No requests yet.';
  $('journal-older').hidden = !state.journal.more;
  renderJournalBound(stats);
}

async function loadOlder() {
  const oldest = state.journal.entries.at(-1);
  if (!oldest) return;
  const params = filterParams();
  params.set('limit', String(JOURNAL_PAGE));
  params.set('before', String(oldest.seq));
  let page;
  try {
    page = await readJournal(params);
  } catch (error) {
    setConnection('down', `cannot load older requests (${messageOf(error)})`);
    return;
  }
  if (!page) return;
  state.journal.entries = [...state.journal.entries, ...page.entries].slice(0, MAX_ROWS);
  state.journal.more = page.more && state.journal.entries.length < MAX_ROWS;
  renderJournal(page.journal);
}

// ---- one exchange, whole ----------------------------------------------------------------------

/** @param {number} seq */
async function openEntry(seq) {
  state.selected = seq;
  for (const row of document.querySelectorAll('#journal tr.selected')) row.classList.remove('selected');
  document.querySelector(`#journal tr[data-seq="${seq}"]`)?.classList.add('selected');
  /** @param {string} text */
  const failed = (text) => {
    state.detail = undefined;
    $('detail').hidden = false;
    $('detail-seq').textContent = `#${seq}`;
    $('detail-summary').textContent = text;
  };
  let detail;
  try {
    const response = await adminFetch(`/__mock/requests/${seq}`);
    if (response.status === 401) return lock(response);
    if (!response.ok) return failed(await errorMessage(response));
    detail = /** @type {Entry} */ (await response.json());
  } catch (error) {
    return failed(`Cannot reach the mock (${messageOf(error)}).`);
  }
  state.detail = detail;
  renderDetail(detail);
  $('detail').hidden = false;
  $('detail').scrollIntoView({ block: 'nearest' });
}

/** @type {Record<number, string>} */
const STATUS_TEXT = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 413: 'Content Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

/**
 * Each problem with the field it concerns (a pointer into the body, or `/query parameter x` …).
 * @param {{ problems?: string[]; fields?: string[] }} entry
 * @returns {Problem[]}
 */
function problemsOf(entry) {
  return (entry.problems ?? []).map((text, index) => ({ text, pointer: entry.fields?.[index] }));
}

/** A pointer into a body, not a parameter's place. */
const PARAMETER_FIELD = /^\/(path|query|header|cookie) parameter (.+?)(?:\/.*)?$/;

/** @param {Entry} entry */
function renderDetail(entry) {
  $('detail-seq').textContent = `#${entry.seq}`;
  $('detail-summary').replaceChildren(
    statusBadge(entry.status),
    ` ${entry.verdict} · ${entry.durationMs} ms · ${entry.at}`,
    entry.operationId ? ` · ${entry.operationId}${entry.stateful === false ? ' (from the spec’s examples)' : ''}` : '',
    entry.replica ? ` · replica ${entry.replica}` : '',
  );
  const message = $('detail-message');
  message.hidden = !entry.message;
  message.replaceChildren(...(entry.code ? [h('span', { class: 'code' }, entry.code)] : []), entry.message ?? '');
  $('request-line').textContent = `${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ''}`;
  $('response-line').textContent = `${entry.status} ${STATUS_TEXT[entry.status] ?? ''}`.trim();
  renderHeaders(table('request-headers'), entry.request);
  renderHeaders(table('response-headers'), entry.response);
  // Each problem goes next to the field it concerns; one about no field of the body stays in the message.
  const problems = problemsOf(entry).map((problem) => (problem.pointer && PARAMETER_FIELD.test(problem.pointer) ? { text: problem.text } : problem));
  renderBody($('request-body'), $('request-body-note'), entry.request.body, problems);
  renderBody($('response-body'), $('response-body-note'), entry.response.body, []);
  renderCurl();
  const replayable = replayProblem(entry);
  button('replay').disabled = replayable !== undefined;
  button('replay').title = replayable ?? 'Send this request again from this page (with the credentials of "Try it")';
  $('replay-result').hidden = true;
}

/**
 * @param {HTMLTableElement} headersTable
 * @param {JournalMessage} message
 */
function renderHeaders(headersTable, message) {
  const rows = message.headers.map(([name, value]) => h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, value)));
  if (message.headersCut) rows.push(h('tr', { class: 'cut' }, h('td', { colspan: '2' }, `… ${message.headersCut} more header lines not kept`)));
  headersTable.tBodies[0]?.replaceChildren(...rows);
}

/**
 * @param {HTMLElement} container
 * @param {HTMLElement} note
 * @param {JournalBody | undefined} body
 * @param {Problem[]} problems
 */
function renderBody(container, note, body, problems) {
  /** @type {Problem[]} */
  const shown = [];
  /** @type {HTMLElement | undefined} */
  let pretty;
  if (!body) {
    note.textContent = 'No body.';
  } else if (body.unread) {
    note.textContent = `The mock answered without reading this body (${body.bytes} bytes declared).`;
  } else if (body.encoding === 'base64') {
    note.textContent = `${body.bytes} bytes that are not UTF-8 text, shown in base64${body.cut ? ' (the first ones only)' : ''}.`;
    pretty = h('pre', { class: 'raw' }, body.text ?? '');
  } else {
    note.textContent = body.cut ? `${body.bytes} bytes; the journal keeps the first ${new Blob([body.text ?? '']).size}, shown as sent.` : `${body.bytes} bytes.`;
    pretty = (!body.cut && prettyJson(body.text ?? '', problems, shown)) || h('pre', { class: 'raw' }, body.text ?? '');
  }
  container.replaceChildren(...[pretty, problemList(problems, shown)].filter((node) => node !== undefined));
}

/**
 * Problems that found no line (a query parameter, a body that is not JSON), listed under the body.
 * @param {Problem[]} problems
 * @param {Problem[]} shown
 */
function problemList(problems, shown) {
  const left = problems.filter((problem) => !shown.includes(problem));
  return left.length ? h('ul', { class: 'problems' }, ...left.map((problem) => h('li', { class: 'problem', 'data-field': problem.pointer }, problem.text))) : undefined;
}

/**
 * JSON text pretty-printed from its own tokens, so numbers keep their exact digits (a double would
 * round an int64 id), with each problem on the line of the field it concerns (for a missing
 * property, the line of the object that lacks it). Undefined when the text is not JSON.
 */
/**
 * @param {string} text
 * @param {Problem[]} problems
 * @param {Problem[]} shown the problems placed on a line are added here
 * @returns {HTMLElement | undefined}
 */
function prettyJson(text, problems, shown) {
  let tree;
  try {
    tree = parseJsonTokens(text);
  } catch {
    return undefined;
  }
  /** @type {{ pointer: string | undefined; parts: (Node | string)[]; problems?: Problem[] }[]} */
  const lines = [];
  /**
   * @param {JsonNode} node
   * @param {string} pointer
   * @param {number} depth
   * @param {(Node | string)[]} prefix
   * @param {string} suffix
   */
  const emit = (node, pointer, depth, prefix, suffix) => {
    const indent = '  '.repeat(depth);
    if (node.type === 'object' || node.type === 'array') {
      const [open, close] = node.type === 'object' ? ['{', '}'] : ['[', ']'];
      /** @type {[string | undefined, JsonNode, string][]} */
      const children = node.type === 'object' ? node.members.map(([key, child]) => [key, child, '']) : node.items.map((item, index) => [undefined, item, String(index)]);
      if (!children.length) {
        lines.push({ pointer, parts: [indent, ...prefix, h('span', { class: 'p' }, open + close + suffix)] });
        return;
      }
      lines.push({ pointer, parts: [indent, ...prefix, h('span', { class: 'p' }, open)] });
      children.forEach(([rawKey, child, index], position) => {
        const name = rawKey === undefined ? index : JSON.parse(rawKey);
        const childPointer = `${pointer}/${String(name).replaceAll('~', '~0').replaceAll('/', '~1')}`;
        const keyParts = rawKey === undefined ? [] : [h('span', { class: 'k' }, rawKey), h('span', { class: 'p' }, ': ')];
        emit(child, childPointer, depth + 1, keyParts, position < children.length - 1 ? ',' : '');
      });
      lines.push({ pointer: undefined, parts: [indent, h('span', { class: 'p' }, close + suffix)] });
      return;
    }
    lines.push({ pointer, parts: [indent, ...prefix, h('span', { class: node.type }, node.raw), suffix ? h('span', { class: 'p' }, suffix) : ''] });
  };
  emit(tree, '', 0, [], '');
  /** @type {Map<string, (typeof lines)[number]>} */
  const byPointer = new Map();
  for (const line of lines) if (line.pointer !== undefined && !byPointer.has(line.pointer)) byPointer.set(line.pointer, line);
  for (const problem of problems) {
    if (typeof problem.pointer !== 'string' || !(problem.pointer === '' || problem.pointer.startsWith('/'))) continue;
    // The field's own line, or the nearest enclosing one (a missing property's object).
    let pointer = problem.pointer;
    while (!byPointer.has(pointer) && pointer !== '') pointer = pointer.slice(0, pointer.lastIndexOf('/'));
    const line = byPointer.get(pointer);
    if (!line) continue;
    (line.problems ??= []).push(problem);
    shown.push(problem);
  }
  return h(
    'div',
    { class: 'pretty', role: 'group', 'aria-label': 'body' },
    ...lines.map((line) =>
      h(
        'div',
        { class: line.problems ? 'ln flagged' : 'ln', 'data-pointer': line.pointer },
        h('code', {}, ...line.parts),
        ...(line.problems ?? []).map((problem) => h('span', { class: 'problem', 'data-field': problem.pointer }, problem.text)),
      ),
    ),
  );
}

/** A JSON text as a tree of raw tokens: strings and numbers as they were written. Throws when it is not JSON. */
/**
 * @param {string} text
 * @returns {JsonNode}
 */
function parseJsonTokens(text) {
  let at = 0;
  const fail = () => {
    throw new SyntaxError(`not JSON at ${at}`);
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at])) at++;
  };
  /** @param {RegExp} pattern */
  const literal = (pattern) => {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) return fail();
    at += match[0].length;
    return match[0];
  };
  const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const WORD = /true|false|null/y;
  /**
   * @param {number} depth
   * @returns {JsonNode}
   */
  const value = (depth) => {
    if (depth > 200) fail();
    space();
    const c = text[at];
    if (c === '{') {
      at++;
      /** @type {[string, JsonNode][]} */
      const members = [];
      space();
      if (text[at] === '}') {
        at++;
        return { type: 'object', members };
      }
      for (;;) {
        space();
        const key = literal(STRING);
        space();
        if (text[at++] !== ':') fail();
        members.push([key, value(depth + 1)]);
        space();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at++] !== '}') fail();
        return { type: 'object', members };
      }
    }
    if (c === '[') {
      at++;
      /** @type {JsonNode[]} */
      const items = [];
      space();
      if (text[at] === ']') {
        at++;
        return { type: 'array', items };
      }
      for (;;) {
        items.push(value(depth + 1));
        space();
        if (text[at] === ',') {
          at++;
          continue;
        }
        if (text[at++] !== ']') fail();
        return { type: 'array', items };
      }
    }
    if (c === '"') return { type: 's', raw: literal(STRING) };
    if (c === '-' || (c >= '0' && c <= '9')) return { type: 'n', raw: literal(NUMBER) };
    return { type: 'b', raw: literal(WORD) };
  };
  const tree = value(0);
  space();
  if (at !== text.length) fail();
  return tree;
}

// ---- credentials ------------------------------------------------------------------------------

/** @param {SchemeView} scheme */
function storedCredential(scheme) {
  return sessionStorage.getItem(CREDENTIAL_KEY + scheme.name) ?? DEFAULT_CREDENTIAL[/** @type {keyof typeof DEFAULT_CREDENTIAL} */ (scheme.kind)] ?? '';
}

/**
 * The credential for a header a replay or a curl line sends (the journal keeps only a mask): for
 * Authorization the first scheme that uses it, for an API key header its scheme's; undefined when
 * the spec declares none.
 * @param {string} lower the header's name in lower case
 * @returns {string | undefined} the header's whole value
 */
function credentialHeader(lower) {
  for (const scheme of state.spec?.securitySchemes ?? []) {
    const value = storedCredential(scheme);
    if (!value) continue;
    if (lower === 'authorization' && (scheme.kind === 'http-bearer' || scheme.kind === 'oauth-bearer')) return `Bearer ${value}`;
    if (lower === 'authorization' && scheme.kind === 'http-basic') return `Basic ${basicOf(value)}`;
    if (scheme.kind === 'api-key' && scheme.in === 'header' && scheme.parameter?.toLowerCase() === lower) return value;
  }
  return undefined;
}

/** `user:password` as Basic credentials (UTF-8, base64). */
function basicOf(/** @type {string} */ userPassword) {
  return btoa(String.fromCharCode(...new TextEncoder().encode(userPassword)));
}

// ---- curl and replay --------------------------------------------------------------------------

/**
 * The credentials part of a masked Authorization value replaced by a token (or $TOKEN).
 * @param {string} masked
 * @param {string} token
 */
function authorizationWith(masked, token) {
  const scheme = /^\s*(\S+)\s+\S/.exec(masked)?.[1];
  return scheme ? `${scheme} ${token}` : token;
}

/** Whether a header carries a credential the journal masks. */
function isCredentialHeader(/** @type {string} */ lower) {
  if (lower === 'authorization' || lower === 'proxy-authorization') return true;
  return (state.spec?.securitySchemes ?? []).some((scheme) => scheme.kind === 'api-key' && scheme.in === 'header' && scheme.parameter?.toLowerCase() === lower);
}

/**
 * @param {Entry} entry
 * @param {boolean} withCredentials
 */
function curlOf(entry, withCredentials) {
  const url = `${location.origin}${entry.path}${entry.query ? `?${entry.query}` : ''}`;
  /** @type {import('./curl.js').CurlHeader[]} */
  const headers = [];
  for (const [name, value] of entry.request.headers) {
    const lower = name.toLowerCase();
    // What only a browser sends (client hints, fetch metadata) is left out.
    if (NOT_RESENT.has(lower) || lower.startsWith('sec-')) continue;
    if (isCredentialHeader(lower)) {
      // The journal holds only a mask: the credential comes from the page, or from the shell's $TOKEN.
      const real = withCredentials ? credentialHeader(lower) : undefined;
      if (real !== undefined) headers.push({ name, value: real });
      else headers.push({ name, prefix: lower.endsWith('authorization') ? authorizationWith(value, '') : '', token: true });
      continue;
    }
    headers.push({ name, value });
  }
  const body = entry.request.body;
  return curlLine(entry.method, url, headers, body?.text !== undefined && body.encoding === 'utf8' ? body.text : undefined);
}

function renderCurl() {
  if (!state.detail) return;
  const box = /** @type {HTMLTextAreaElement} */ ($('curl'));
  box.value = curlOf(state.detail, input('curl-with-token').checked);
  // Every line shown: one row a line (the box does not wrap them), and one for the scrollbar a long line brings.
  box.rows = box.value.split('\n').length + 1;
}

async function copyCurl() {
  renderCurl();
  input('curl').select();
  try {
    await navigator.clipboard.writeText(input('curl').value);
    $('copy-curl').textContent = 'Copied';
  } catch {
    $('copy-curl').textContent = 'Selected: press Ctrl+C';
  }
  setTimeout(() => ($('copy-curl').textContent = 'Copy'), 1500);
}

/**
 * Where a request to `pathAndQuery` would go, as the browser will resolve it: a journaled path is
 * what a client sent (`/plants/../__mock/plants`, `//other.example/`), so it is judged after resolving.
 * @param {string} pathAndQuery
 */
function targetOf(pathAndQuery) {
  try {
    return new URL(pathAndQuery, location.origin);
  } catch {
    return undefined;
  }
}

/** @param {string} pathname */
function isAdminPathname(pathname) {
  return pathname === '/__mock' || pathname.startsWith('/__mock/');
}

/**
 * Why a request to `target` is not sent from this page: only the mock's own API routes are.
 * @param {URL | undefined} target
 */
function targetProblem(target) {
  if (!target || target.origin !== location.origin) return 'This request would go to another origin; it is not sent from here.';
  if (isAdminPathname(target.pathname)) return "The mock's own routes are not replayed from here.";
  return undefined;
}

/** @param {Entry} entry */
function replayProblem(entry) {
  const problem = targetProblem(targetOf(`${entry.path}${entry.query ? `?${entry.query}` : ''}`));
  if (problem) return problem;
  const body = entry.request.body;
  if (body?.unread) return 'The mock never read this body, so it cannot be sent again.';
  if (body?.cut) return 'The journal kept only the start of this body.';
  if (body && body.encoding !== 'utf8') return 'This body is not text.';
  return undefined;
}

async function replay() {
  const entry = state.detail;
  if (!entry || replayProblem(entry)) return;
  const target = /** @type {URL} */ (targetOf(`${entry.path}${entry.query ? `?${entry.query}` : ''}`));
  const headers = new Headers();
  for (const [name, value] of entry.request.headers) {
    const lower = name.toLowerCase();
    if (NOT_RESENT.has(lower) || lower === 'origin' || lower === 'referer' || lower.startsWith('sec-') || lower === 'user-agent') continue;
    try {
      // A masked credential is replaced by the one "Try it" remembers for its scheme.
      if (isCredentialHeader(lower)) {
        const real = credentialHeader(lower);
        if (real !== undefined) headers.set(name, real);
      } else headers.append(name, value);
    } catch {
      // a header the browser does not let a page set: left out
    }
  }
  const started = performance.now();
  const answer = await send(target, { method: entry.method, headers, body: entry.request.body?.text });
  showReplay(answer, started);
  tick();
}

/**
 * @typedef {{ status: number; text: string; headers: [string, string][] }} Sent
 * @param {URL} target
 * @param {RequestInit} init
 * @returns {Promise<Sent>}
 */
async function send(target, init) {
  try {
    const response = await fetch(target, { ...init, cache: 'no-store', credentials: 'same-origin' });
    return { status: response.status, text: await response.text(), headers: [...response.headers] };
  } catch (error) {
    return { status: 0, text: `The request failed: ${messageOf(error)}`, headers: [] };
  }
}

/**
 * @param {Sent} answer
 * @param {number} started
 */
function showReplay(answer, started) {
  let shown = answer.text;
  try {
    shown = JSON.stringify(JSON.parse(answer.text), null, 2);
  } catch {
    // not JSON: show it as it came
  }
  const badge = $('replay-status');
  badge.className = `status s${String(answer.status).charAt(0)}`;
  badge.textContent = answer.status ? String(answer.status) : 'failed';
  $('replay-time').textContent = `${Math.round(performance.now() - started)} ms`;
  $('replay-body').textContent = shown;
  $('replay-result').hidden = false;
}

// ---- Try it -------------------------------------------------------------------------------------

/** @param {SpecView} view */
function renderOperations(view) {
  const picker = select('try-operation');
  const chosen = picker.value;
  const groups = new Map(view.collections.map((collection) => [collection.path, /** @type {HTMLOptionElement[]} */ ([])]));
  const documents = new Map((view.singletons ?? []).map((singleton) => [singleton.path, /** @type {HTMLOptionElement[]} */ ([])]));
  /** @type {HTMLOptionElement[]} */
  const others = [];
  for (const operation of view.operations) {
    const option = h('option', { value: operation.operationId }, `${operation.method} ${operation.path}${operation.summary ? ` — ${operation.summary}` : ''}`);
    const group = operation.collection ? groups.get(operation.collection) : operation.singleton ? documents.get(operation.singleton) : undefined;
    (group ?? others).push(option);
  }
  picker.replaceChildren(
    ...view.collections.map((collection) => h('optgroup', { label: collectionName(collection) }, ...(groups.get(collection.path) ?? []))),
    ...[...documents].map(([path, options]) => h('optgroup', { label: `${path} (document)` }, ...options)),
    ...(others.length ? [h('optgroup', { label: 'Answered from the spec\u2019s examples' }, ...others)] : []),
  );
  if (view.operations.some((operation) => operation.operationId === chosen)) picker.value = chosen;
  renderTryForm();
}

function chosenOperation() {
  const id = select('try-operation').value;
  return state.spec?.operations.find((operation) => operation.operationId === id);
}

/** The schemes an operation may be called with, each once, in the spec's order. */
function schemesOf(/** @type {OperationView} */ operation) {
  const names = [...new Set(operation.security.flat())];
  return names.map((name) => state.spec?.securitySchemes.find((scheme) => scheme.name === name)).filter((scheme) => scheme !== undefined);
}

/**
 * A path parameter the form can fill from what is shown: the item of the collection (its newest
 * record shown) or the parent record chosen.
 * @param {OperationView} operation
 * @param {ParameterView} parameter
 */
function shownValue(operation, parameter) {
  const doc = operation.singleton ? state.documents.get(operation.singleton) : undefined;
  if (doc && parameter.in === 'path' && doc.view.parentParameter === parameter.name) return doc.parentKey;
  const collection = operation.collection ? state.collections.get(operation.collection) : undefined;
  if (!collection || parameter.in !== 'path') return undefined;
  if (collection.view.parentParameter === parameter.name) return collection.parentKey;
  if (collection.view.itemPath?.endsWith(`{${parameter.name}}`)) return collection.keys.at(-1);
  return undefined;
}

function renderTryForm() {
  const operation = chosenOperation();
  $('try-result').hidden = true;
  if (!operation) {
    $('try-summary').textContent = 'This spec declares no operation.';
    button('try-send').disabled = true;
    return;
  }
  button('try-send').disabled = false;
  $('try-summary').textContent = [(operation.description ?? operation.summary ?? '').replace(/([^.!?])$/, '$1.'), state.spec?.mode === 'proxy' ? 'Forwarded to the upstream.' : operation.stateful ? `Served from the store (${operation.role}).` : 'Answered from the spec\u2019s examples.']
    .filter(Boolean)
    .join(' ');
  const schemes = schemesOf(operation);
  const credentials = $('try-credentials');
  /** @param {SchemeView} scheme */
  const credentialInput = (scheme) => {
    const field = h('input', { 'data-scheme': scheme.name, autocomplete: 'off', spellcheck: 'false', value: storedCredential(scheme) });
    // Remembered as typed, once per scheme, for this tab only: replay and curl use it too.
    field.addEventListener('input', () => sessionStorage.setItem(CREDENTIAL_KEY + scheme.name, field.value.trim()));
    return field;
  };
  credentials.hidden = schemes.length === 0;
  credentials.replaceChildren(
    h('legend', {}, 'Credentials ', h('span', { class: 'muted' }, '(remembered in this tab, per scheme)')),
    ...schemes.map((scheme) =>
      h(
        'label',
        {},
        `${scheme.name} `,
        h('span', { class: 'muted' }, credentialHint(scheme)),
        credentialInput(scheme),
      ),
    ),
  );
  const params = $('try-params');
  params.hidden = operation.parameters.length === 0;
  params.replaceChildren(
    h('legend', {}, 'Parameters'),
    ...operation.parameters.map((parameter) => {
      const value = parameter.example ?? shownValue(operation, parameter) ?? '';
      const attributes = { 'data-in': parameter.in, 'data-name': parameter.name, autocomplete: 'off', spellcheck: 'false' };
      const field = parameter.enum
        ? h('select', attributes, h('option', { value: '' }, parameter.required ? 'choose' : 'not sent'), ...parameter.enum.map((option) => h('option', { value: option }, option)))
        : h('input', { ...attributes, value, placeholder: parameter.required ? 'required' : 'not sent when empty' });
      if (field instanceof HTMLSelectElement) field.value = parameter.required ? value : '';
      return h(
        'label',
        { class: 'parameter', 'data-parameter': `${parameter.in}:${parameter.name}` },
        h('span', {}, parameter.name, ' ', h('span', { class: 'muted' }, `${parameter.in}${parameter.type ? ` · ${parameter.type}` : ''}${parameter.required ? ' · required' : ''}`)),
        field,
        parameter.description ? h('span', { class: 'hint' }, parameter.description) : undefined,
      );
    }),
  );
  $('try-body-label').hidden = !operation.body;
  $('try-body-media').textContent = operation.body ? `${operation.body.mediaType}${operation.body.from === 'schema' ? ' · generated from the schema' : operation.body.from === 'example' ? ' · the spec\u2019s example' : ''}` : '';
  const editor = /** @type {HTMLTextAreaElement} */ ($('try-body-text'));
  editor.value = editor.dataset.prefilled = operation.body?.example ?? '';
  select('try-code').replaceChildren(h('option', { value: '' }, 'as the mock decides'), ...operation.forceable.map((code) => h('option', { value: String(code) }, String(code))));
  const examples = [...new Set(Object.values(operation.examples).flat())];
  select('try-example').replaceChildren(h('option', { value: '' }, 'any'), ...examples.map((name) => h('option', { value: name }, name)));
  $('try-send').textContent = `Send ${operation.method} ${operation.path}`;
}

/** @param {SchemeView} scheme */
function credentialHint(scheme) {
  if (scheme.kind === 'http-basic') return 'user:password, sent as Basic';
  if (scheme.kind === 'api-key') return `API key in the ${scheme.in} ${scheme.parameter}`;
  if (scheme.kind === 'unsupported') return 'not checked by the mock';
  return 'token, sent as Bearer';
}

/**
 * The request the form describes, or why it cannot be sent.
 * @param {OperationView} operation
 */
function requestOfForm(operation) {
  const headers = new Headers();
  const query = new URLSearchParams();
  /** @type {[string, string][]} */
  const cookies = [];
  let path = operation.path;
  for (const field of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ ($('try-params').querySelectorAll('[data-in]'))) {
    const value = field.value;
    const name = field.dataset.name ?? '';
    if (field.dataset.in === 'path') path = path.replace(`{${name}}`, encodeURIComponent(value));
    else if (value === '') continue;
    else if (field.dataset.in === 'query') query.append(name, value);
    else if (field.dataset.in === 'header') headers.set(name, value);
    else if (field.dataset.in === 'cookie') cookies.push([name, value]);
  }
  for (const field of /** @type {NodeListOf<HTMLInputElement>} */ ($('try-credentials').querySelectorAll('input[data-scheme]'))) {
    const scheme = state.spec?.securitySchemes.find((s) => s.name === field.dataset.scheme);
    const value = field.value.trim();
    if (!scheme) continue;
    // Remembered once per scheme, for this tab only.
    sessionStorage.setItem(CREDENTIAL_KEY + scheme.name, value);
    if (!value) continue;
    if (scheme.kind === 'http-bearer' || scheme.kind === 'oauth-bearer') headers.set('authorization', `Bearer ${value}`);
    else if (scheme.kind === 'http-basic') headers.set('authorization', `Basic ${basicOf(value)}`);
    else if (scheme.kind === 'api-key' && scheme.parameter) {
      if (scheme.in === 'header') headers.set(scheme.parameter, value);
      else if (scheme.in === 'query') query.set(scheme.parameter, value);
      else if (scheme.in === 'cookie') cookies.push([scheme.parameter, value]);
    }
  }
  const prefer = [
    select('try-code').value && `code=${select('try-code').value}`,
    select('try-example').value && `example=${select('try-example').value}`,
    input('try-delay').value.trim() && `delay=${input('try-delay').value.trim()}`,
  ].filter(Boolean);
  if (prefer.length) headers.set('prefer', prefer.join(', '));
  const text = withFreshIdentity(operation, /** @type {HTMLTextAreaElement} */ ($('try-body-text')));
  const body = operation.body && text.trim() !== '' ? text : undefined;
  if (body !== undefined && operation.body) headers.set('content-type', operation.body.mediaType);
  const search = query.toString();
  const target = targetOf(`${path}${search ? `?${search}` : ''}`);
  // Sent to the mock's own origin and API routes only, however a path parameter was written:
  // a `..` would take the request to another path than the operation's.
  const problem = targetProblem(target) ?? (target && target.pathname !== path ? `A path parameter of "." or ".." would send this to ${target.pathname} instead; it is not sent.` : undefined);
  return { target, problem, headers, body, cookies, line: `${operation.method} ${path}${search ? `?${search}` : ''}` };
}

/**
 * A create's body with a fresh identity each send, where the page wrote the body and the body names
 * the identity: the pre-fill's (`"id": "string"`, `"id": 0`) is taken once, and a second send would
 * be a 409. The value keeps the pre-fill's kind and length (a UUID stays a UUID, a 6-character string
 * 6 characters), so it stays within what the schema asked of it; a body the user edited is sent as
 * written. Replaced as text, so every other number keeps its digits.
 * @param {OperationView} operation
 * @param {HTMLTextAreaElement} editor
 */
function withFreshIdentity(operation, editor) {
  const identity = operation.role === 'create' ? state.spec?.collections.find((collection) => collection.path === operation.collection)?.identity : undefined;
  // The editor remembers the body the page last wrote into it: while it stands as written, the page may change it.
  if (!identity || editor.value !== editor.dataset.prefilled) return editor.value;
  // The pre-fill is JSON.stringify(…, null, 2): its own members sit alone on lines indented by two.
  const member = new RegExp(`^  ${JSON.stringify(identity).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (-?\\d+|"(?:[^"\\\\]|\\\\.)*")(,?)$`, 'm');
  const found = member.exec(editor.value);
  if (!found) return editor.value;
  const old = /** @type {string} */ (found[1]);
  let fresh;
  if (!old.startsWith('"')) {
    // Exact digits (an int64 pre-fill), moved away from the int64 end it may sit at.
    const [base, step] = [BigInt(old), BigInt(1 + Math.floor(Math.random() * 1_000_000))];
    fresh = String(base > 2n ** 62n ? base - step : base + step);
  } else if (/^"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"$/i.test(old)) {
    // crypto.randomUUID needs a secure context; a mock reached over plain HTTP by its address is not one.
    const hex = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte, index) => (index === 6 ? (byte & 0x0f) | 0x40 : index === 8 ? (byte & 0x3f) | 0x80 : byte).toString(16).padStart(2, '0')).join('');
    fresh = JSON.stringify(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
  }
  else {
    const length = Math.max(1, /** @type {string} */ (JSON.parse(old)).length);
    const letters = Array.from(crypto.getRandomValues(new Uint8Array(length)), (byte) => 'abcdefghijklmnopqrstuvwxyz0123456789'.charAt(byte % 36));
    fresh = JSON.stringify(letters.join(''));
  }
  editor.value = `${editor.value.slice(0, found.index)}  ${JSON.stringify(identity)}: ${fresh}${found[2]}${editor.value.slice(found.index + found[0].length)}`;
  editor.dataset.prefilled = editor.value;
  return editor.value;
}

/** @param {SubmitEvent} event */
async function tryIt(event) {
  event.preventDefault();
  const operation = chosenOperation();
  if (!operation) return;
  const request = requestOfForm(operation);
  for (const element of document.querySelectorAll('#try-params .problem')) element.remove();
  $('try-result').hidden = false;
  $('try-line').textContent = request.line;
  // The last answer's status goes while this one is on its way, so nothing reads it as this one's.
  const badge = $('try-status');
  badge.className = 'status';
  badge.textContent = 'sending\u2026';
  if (request.problem || !request.target) {
    showTryAnswer({ status: 0, text: request.problem ?? 'Not a URL.', headers: [] }, performance.now(), [], undefined);
    return;
  }
  // Where the journal stands now: the entry of this request comes after it.
  const before = await readJournal(new URLSearchParams({ limit: '1' })).catch(() => undefined);
  // A cookie parameter or API key is set for this origin for the request, then removed.
  for (const [name, value] of request.cookies) document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; path=/; SameSite=Strict`;
  const started = performance.now();
  const answer = await send(request.target, { method: operation.method, headers: request.headers, body: request.body });
  for (const [name] of request.cookies) document.cookie = `${encodeURIComponent(name)}=; path=/; max-age=0; SameSite=Strict`;
  const problems = answer.status >= 400 ? await problemsOfAnswer(operation, request.target, answer.status, before?.last) : [];
  showTryAnswer(answer, started, problems, request.body);
  tick();
}

/**
 * The journal's words for a refused request just sent: each problem with its field.
 * @param {OperationView} operation
 * @param {URL} target
 * @param {number} status
 * @param {number | undefined} after
 * @returns {Promise<Problem[]>}
 */
async function problemsOfAnswer(operation, target, status, after) {
  const params = new URLSearchParams({ limit: '50', path: target.pathname });
  if (after !== undefined) params.set('after', String(after));
  let page;
  try {
    page = await readJournal(params);
  } catch {
    return [];
  }
  const query = target.search.slice(1);
  const entry = page?.entries.find((e) => e.method === operation.method && e.path === target.pathname && (e.query ?? '') === query && e.status === status);
  return entry ? problemsOf(entry) : [];
}

/**
 * @param {Sent} answer
 * @param {number} started
 * @param {Problem[]} problems
 * @param {string | undefined} sentBody
 */
function showTryAnswer(answer, started, problems, sentBody) {
  const badge = $('try-status');
  badge.className = `status s${String(answer.status).charAt(0)}`;
  badge.textContent = answer.status ? `${answer.status} ${STATUS_TEXT[answer.status] ?? ''}`.trim() : 'not sent';
  $('try-time').textContent = answer.status ? `${Math.round(performance.now() - started)} ms` : '';
  table('try-headers').tBodies[0]?.replaceChildren(...answer.headers.map(([name, value]) => h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, value))));
  /** @type {Problem[]} */
  const shown = [];
  // A parameter's problem goes under its field in the form.
  for (const problem of problems) {
    const match = problem.pointer ? PARAMETER_FIELD.exec(problem.pointer) : null;
    const label = match ? [...document.querySelectorAll('#try-params label.parameter')].find((l) => /** @type {HTMLElement} */ (l).dataset.parameter?.toLowerCase() === `${match[1]}:${match[2]}`.toLowerCase()) : undefined;
    if (!label) continue;
    label.append(h('span', { class: 'problem', 'data-field': problem.pointer }, problem.text));
    shown.push(problem);
  }
  // A body's problem goes on the line of the field it concerns, in the body as it was sent.
  const bodyProblems = problems.filter((problem) => !shown.includes(problem) && problem.pointer !== undefined && (problem.pointer === '' || problem.pointer.startsWith('/')) && !PARAMETER_FIELD.test(problem.pointer));
  const sent = sentBody !== undefined && bodyProblems.length ? prettyJson(sentBody, bodyProblems, shown) : undefined;
  $('try-sent-wrap').hidden = !sent;
  $('try-sent').replaceChildren(...(sent ? [sent] : []));
  const left = problems.filter((problem) => !shown.includes(problem));
  $('try-problems').replaceChildren(...left.map((problem) => h('li', { class: 'problem', 'data-field': problem.pointer }, problem.text)));
  const pretty = answer.text === '' ? undefined : prettyJson(answer.text, [], []);
  $('try-note').hidden = answer.text !== '';
  $('try-note').textContent = 'No body.';
  $('try-body').replaceChildren(pretty ?? h('pre', { class: 'raw' }, answer.text));
}

// ---- actions ----------------------------------------------------------------------------------

/**
 * An admin action: its answer, or undefined once the failure is shown (a 401 locks the page).
 * @param {string} what
 * @param {string} path
 * @param {RequestInit} init
 */
async function adminAction(what, path, init) {
  let response;
  try {
    response = await adminFetch(path, init);
    if (response.status === 401) {
      await lock(response);
      return undefined;
    }
  } catch (error) {
    setConnection('down', `${what} failed: cannot reach the mock (${messageOf(error)})`);
    return undefined;
  }
  return response;
}

async function resetStore() {
  // Every record and document of the store, also on a spec that stores documents only.
  const response = await adminAction('reset', '/__mock/reset', { method: 'POST' });
  if (!response) return;
  if (!response.ok) setConnection('down', `reset failed: ${await errorMessage(response)}`);
  for (const collection of state.collections.values()) {
    collection.pages = [undefined];
    collection.dirty = true;
  }
  tick();
}

async function clearJournal() {
  const response = await adminAction('clear', '/__mock/requests', { method: 'DELETE' });
  if (!response) return;
  if (!response.ok) {
    setConnection('down', `clear failed: ${await errorMessage(response)}`);
    return;
  }
  resetJournal();
  $('detail').hidden = true;
  tick();
}

async function exportCases() {
  const note = $('export-note');
  /** @param {string} text */
  const failed = (text) => {
    note.textContent = text;
    note.hidden = false;
  };
  let file;
  try {
    const response = await adminFetch('/__mock/requests?format=cases');
    if (response.status === 401) return lock(response);
    if (!response.ok) return failed(await errorMessage(response));
    file = await response.blob();
  } catch (error) {
    return failed(`Export failed: cannot reach the mock (${messageOf(error)}).`);
  }
  const link = h('a', { href: URL.createObjectURL(file), download: 'frontend-requests.cases.json' });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  note.replaceChildren('Saved frontend-requests.cases.json: run it against a provider with ', h('code', {}, 'npm run contract -- --cases DIR'), '.');
  note.hidden = false;
}

/** @param {SubmitEvent} event */
function useToken(event) {
  event.preventDefault();
  const token = input('admin-token').value.trim();
  if (!token) return;
  sessionStorage.setItem(ADMIN_TOKEN_KEY, token);
  input('admin-token').value = '';
  showAdminChip();
  unlock();
  tick();
}

function forgetToken() {
  sessionStorage.removeItem(ADMIN_TOKEN_KEY);
  showAdminChip();
  tick();
}

/** @param {Event} event */
function onJournalClick(event) {
  const row = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest('tr[data-seq]'));
  if (row) openEntry(Number(row.dataset.seq));
}

// ---- start --------------------------------------------------------------------------------------

/** @type {ReturnType<typeof setTimeout> | undefined} */
let filterTimer;
function onFilterChange() {
  clearTimeout(filterTimer);
  // Typing settles before the server is asked.
  filterTimer = setTimeout(tick, 250);
}

$('base-url').textContent = location.origin;
$('try-form').addEventListener('submit', (event) => void tryIt(/** @type {SubmitEvent} */ (event)));
$('try-operation').addEventListener('change', renderTryForm);
$('reset').addEventListener('click', resetStore);
$('token-form').addEventListener('submit', (event) => useToken(/** @type {SubmitEvent} */ (event)));
$('forget-token').addEventListener('click', forgetToken);
$('filters').addEventListener('input', onFilterChange);
$('filters').addEventListener('submit', (event) => event.preventDefault());
$('journal').addEventListener('click', onJournalClick);
$('journal').addEventListener('keydown', (event) => {
  if (event.key === 'Enter') onJournalClick(event);
});
$('journal-older').addEventListener('click', loadOlder);
$('close-detail').addEventListener('click', () => {
  $('detail').hidden = true;
  state.selected = undefined;
  for (const row of document.querySelectorAll('#journal tr.selected')) row.classList.remove('selected');
});
$('replay').addEventListener('click', replay);
$('copy-curl').addEventListener('click', copyCurl);
$('curl-with-token').addEventListener('change', renderCurl);
$('export-cases').addEventListener('click', exportCases);
$('clear-journal').addEventListener('click', clearJournal);
document.addEventListener('visibilitychange', () => {
  // A hidden tab lets go of its held read (and its connection) until it is shown again.
  if (document.hidden) state.wait?.abort();
  else if (!state.locked) tick();
});
showAdminChip();
tick();
