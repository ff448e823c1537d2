// The inspector page: reads the mock's /__mock routes and shows the stored plants (a page at a
// time) and the request journal (new entries only, by cursor); a click opens an exchange whole.
// Every value that came from a request is put in the page with textContent, never as HTML.

const POLL_MS = 1000;
const MAX_BACKOFF_MS = 10_000;
const PLANTS_PAGE = 50;
const JOURNAL_PAGE = 200;
/** Summaries kept in the page; the journal itself is bounded too. */
const MAX_ROWS = 1000;
// sessionStorage: the tokens live as long as this tab, and are never put in a URL.
const ADMIN_TOKEN_KEY = 'plant-store-mock.admin-token';
const API_TOKEN_KEY = 'plant-store-mock.api-token';
const DEFAULT_API_TOKEN = 'dev-token';
/** Methods that never change the store: a journal entry of another method that succeeded means the plants may have changed. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Headers a replay or a curl line leaves to the client (hop-by-hop, or set from the body). */
const NOT_RESENT = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'upgrade', 'expect', 'proxy-connection', 'cookie']);

const $ = (id) => document.getElementById(id);

/** An element with text children: strings become text nodes, so no markup is ever parsed. */
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

/** JSON with every `id` kept as the digits on the wire (ids are int64; a double would round them). */
function parseExactIds(text) {
  return JSON.parse(text, (key, value, context) =>
    key === 'id' && typeof value === 'number' && typeof context?.source === 'string' ? context.source : value,
  );
}

function adminFetch(path, init = {}) {
  const headers = new Headers(init.headers);
  const token = sessionStorage.getItem(ADMIN_TOKEN_KEY);
  if (token) headers.set('authorization', `Bearer ${token}`);
  return fetch(path, { ...init, headers, cache: 'no-store' });
}

async function errorMessage(response) {
  try {
    const body = JSON.parse(await response.text());
    if (typeof body?.message === 'string') return body.message;
  } catch {
    // not the Error shape, or cut off: show the status alone
  }
  return `HTTP ${response.status}`;
}

const state = {
  locked: false,
  failures: 0,
  timer: undefined,
  running: false,
  again: false,
  journal: { entries: [], last: undefined, lastChange: undefined, more: false, filters: '' },
  plants: { pages: [undefined], next: undefined, dirty: true, text: undefined },
  selected: undefined,
  detail: undefined,
  /** From /__mock/health: 'proxy' when the mock forwards to a real service (--proxy) and keeps no plants. */
  mode: undefined,
};

// ---- connection and admin token --------------------------------------------------------------

function setConnection(kind, text) {
  const element = $('connection');
  element.dataset.state = kind;
  element.textContent = text;
}

function showAdminChip() {
  $('admin-chip').hidden = !sessionStorage.getItem(ADMIN_TOKEN_KEY);
}

async function lock(response) {
  state.locked = true;
  $('token-reason').textContent = await errorMessage(response);
  $('token-panel').hidden = false;
  // What was shown belonged to a token that no longer works: show nothing rather than stale data.
  resetJournal();
  state.plants.dirty = true;
  state.plants.text = undefined;
  for (const [table, empty] of [['plants', 'plants-empty'], ['journal', 'journal-empty']]) {
    $(table).hidden = true;
    $(empty).hidden = false;
    $(empty).textContent = 'Enter the admin token to see this.';
  }
  $('plant-count').textContent = $('journal-count').textContent = '–';
  $('detail').hidden = true;
  setConnection('locked', 'admin token needed');
  $('admin-token').focus();
}

function unlock() {
  state.locked = false;
  $('token-panel').hidden = true;
}

// ---- polling ----------------------------------------------------------------------------------

/** The journal filters as query parameters (the server filters: text search looks into bodies). */
function filterParams() {
  const params = new URLSearchParams();
  const classes = [...document.querySelectorAll('#filters input[name="status"]:checked')].map((input) => input.value);
  if (classes.length) params.set('status', classes.join(','));
  const path = $('filter-path').value.trim();
  if (path) params.set('path', path);
  const text = $('filter-text').value.trim();
  if (text) params.set('q', text);
  return params;
}

function resetJournal() {
  state.journal = { entries: [], last: undefined, lastChange: undefined, more: false, filters: '' };
}

async function readJournal(params) {
  const response = await adminFetch(`/__mock/requests?${params}`);
  if (response.status === 401) {
    await lock(response);
    return undefined;
  }
  if (!response.ok) throw new Error(await errorMessage(response));
  return response.json();
}

/** New journal entries since the last poll (all of them after a filter change). */
async function refreshJournal() {
  const params = filterParams();
  const filters = params.toString();
  const journal = state.journal;
  const fresh = filters !== journal.filters || journal.last === undefined;
  params.set('limit', String(JOURNAL_PAGE));
  if (!fresh) params.set('after', String(journal.last));
  const page = await readJournal(params);
  if (!page) return false;
  if (fresh) {
    state.journal = { entries: page.entries, last: page.last, lastChange: page.last, more: page.more, filters };
    state.plants.dirty = true;
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

/** Whether anything changed the store since the last look, from the journal alone. */
async function storeChanged() {
  const journal = state.journal;
  if (journal.lastChange === undefined) return true;
  // Unfiltered, the entries of this poll already say it; filtered, ask for successful changes only.
  const changes = journal.filters
    ? (await readJournal(new URLSearchParams({ after: String(journal.lastChange), status: '2xx,3xx', limit: String(JOURNAL_PAGE) })))?.entries ?? []
    : journal.entries.filter((entry) => entry.seq > journal.lastChange);
  journal.lastChange = journal.last;
  return changes.some((entry) => !READS.has(entry.method));
}

async function refreshPlants() {
  const plants = state.plants;
  const after = plants.pages.at(-1);
  const params = new URLSearchParams({ limit: String(PLANTS_PAGE) });
  if (after !== undefined) params.set('after', after);
  const response = await adminFetch(`/__mock/plants?${params}`);
  if (response.status === 401) return lock(response);
  if (response.status === 400 && after !== undefined) {
    // The page's cursor no longer exists (a reset): start over.
    plants.pages = [undefined];
    return refreshPlants();
  }
  if (!response.ok) throw new Error(await errorMessage(response));
  const text = await response.text();
  plants.dirty = false;
  plants.next = /<[^>]*[?&]after=([^&>]+)[^>]*>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  if (plants.next !== undefined) plants.next = decodeURIComponent(plants.next);
  const total = response.headers.get('x-total-count') ?? '?';
  if (text !== plants.text || $('plant-count').textContent !== total) {
    plants.text = text;
    renderPlants(parseExactIds(text), total);
  }
}

async function refresh() {
  if (state.mode === undefined) await readMode();
  // The journal first: without the token, one 401 (journaled) is enough to ask for it.
  const before = state.journal.last;
  await refreshJournal();
  if (state.locked) return;
  unlock();
  // In proxy mode the plants live upstream: only the journal changes here.
  if (state.mode === 'proxy') return;
  if (before !== undefined && (await storeChanged())) state.plants.dirty = true;
  if (state.locked) return;
  if (state.plants.dirty) await refreshPlants();
}

/** Proxy mode (health says so, without a token): the plants live upstream, the journal carries the verdicts. */
async function readMode() {
  const response = await fetch('/__mock/health', { cache: 'no-store' });
  const health = response.ok ? await response.json() : {};
  state.mode = health.mode ?? 'mock';
  if (state.mode !== 'proxy') return;
  $('reset').hidden = true;
  $('plants-title').replaceChildren('Plants');
  $('plants-title').closest('section').querySelector('.hint').hidden = true;
  $('plants-empty').replaceChildren(
    'Proxy mode: every request goes to ',
    h('code', {}, health.upstream),
    health.strict ? ' (strict: an answer outside the spec becomes a 502)' : '',
    '. The mock keeps no plants; the journal shows where each request and answer departs from the spec.',
  );
}

/** One refresh now, then the next one scheduled; overlapping calls fold into one more run. */
async function tick() {
  if (state.running) {
    state.again = true;
    return;
  }
  state.running = true;
  clearTimeout(state.timer);
  let delay = POLL_MS;
  try {
    await refresh();
    state.failures = 0;
    if (!state.locked) setConnection('live', 'live');
  } catch (error) {
    state.failures++;
    delay = Math.min(POLL_MS * 2 ** state.failures, MAX_BACKOFF_MS);
    setConnection('down', `cannot reach the mock (${error.message}); retrying`);
  }
  state.running = false;
  if (state.again) {
    state.again = false;
    return tick();
  }
  // A hidden tab stops polling; a locked page waits for the token.
  if (!document.hidden && !state.locked) state.timer = setTimeout(tick, delay);
}

// ---- rendering: plants ------------------------------------------------------------------------

function renderPlants(plants, total) {
  const rows = plants.map((plant) =>
    h('tr', {}, h('td', { class: 'id' }, String(plant.id)), h('td', { class: 'name' }, String(plant.name ?? '')), h('td', {}, plant.tag === undefined ? '' : String(plant.tag))),
  );
  $('plants').tBodies[0].replaceChildren(...rows);
  $('plant-count').textContent = total;
  $('plants').hidden = plants.length === 0;
  $('plants-empty').hidden = plants.length > 0;
  $('plants-empty').replaceChildren('No plants yet. Create one with ', h('code', {}, 'POST /plants'), ' or the form.');
  const first = (state.plants.pages.length - 1) * PLANTS_PAGE;
  $('plants-range').textContent = plants.length ? `${first + 1}–${first + plants.length} of ${total}` : `none of ${total}`;
  $('plants-first').disabled = state.plants.pages.length === 1;
  $('plants-next').disabled = state.plants.next === undefined;
}

// ---- rendering: the journal --------------------------------------------------------------------

function statusBadge(status) {
  return h('span', { class: `status s${String(status).charAt(0)}` }, String(status));
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });

function timeOf(at) {
  const date = new Date(at);
  return `${timeFormat.format(date)}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

function renderJournalBound(stats) {
  if (!stats) return;
  const kib = (bytes) => `${Math.round(bytes / 1024)} KiB`;
  $('journal-bound').textContent = `The journal keeps the last ${stats.maxEntries} requests within ${kib(stats.maxBytes)} (now ${stats.entries}, ${kib(stats.bytes)}).`;
}

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
    const row = h(
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
    return row;
  });
  $('journal').tBodies[0].replaceChildren(...rows);
  $('journal-count').textContent = String(entries.length);
  $('journal').hidden = rows.length === 0;
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
    setConnection('down', `cannot load older requests (${error.message})`);
    return;
  }
  if (!page) return;
  state.journal.entries = [...state.journal.entries, ...page.entries].slice(0, MAX_ROWS);
  state.journal.more = page.more && state.journal.entries.length < MAX_ROWS;
  renderJournal(page.journal);
}

// ---- one exchange, whole ----------------------------------------------------------------------

async function openEntry(seq) {
  state.selected = seq;
  for (const row of document.querySelectorAll('#journal tr.selected')) row.classList.remove('selected');
  document.querySelector(`#journal tr[data-seq="${seq}"]`)?.classList.add('selected');
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
    detail = await response.json();
  } catch (error) {
    return failed(`Cannot reach the mock (${error.message}).`);
  }
  state.detail = detail;
  renderDetail(state.detail);
  $('detail').hidden = false;
  $('detail').scrollIntoView({ block: 'nearest' });
}

const STATUS_TEXT = { 200: 'OK', 201: 'Created', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 413: 'Content Too Large', 415: 'Unsupported Media Type', 500: 'Internal Server Error', 503: 'Service Unavailable' };

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
  renderHeaders($('request-headers'), entry.request);
  renderHeaders($('response-headers'), entry.response);
  // Each problem goes next to the field it concerns; one about no field of the body stays in the message.
  const aboutBody = entry.code === 'INVALID_REQUEST_BODY' || entry.code === 'INVALID_SEED';
  const problems = (entry.problems ?? []).map((text, index) => ({ text, pointer: aboutBody ? entry.fields?.[index] : undefined }));
  renderBody($('request-body'), $('request-body-note'), entry.request.body, problems);
  renderBody($('response-body'), $('response-body-note'), entry.response.body, []);
  renderCurl();
  const replayable = replayProblem(entry);
  $('replay').disabled = replayable !== undefined;
  $('replay').title = replayable ?? 'Send this request again from this page (with the token of "Try a create")';
  $('replay-result').hidden = true;
}

function renderHeaders(table, message) {
  const rows = message.headers.map(([name, value]) => h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, value)));
  if (message.headersCut) rows.push(h('tr', { class: 'cut' }, h('td', { colspan: '2' }, `… ${message.headersCut} more header lines not kept`)));
  table.tBodies[0].replaceChildren(...rows);
}

function renderBody(container, note, body, problems) {
  const shown = [];
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
    pretty = !body.cut && prettyJson(body.text ?? '', problems, shown);
    if (!pretty) pretty = h('pre', { class: 'raw' }, body.text ?? '');
  }
  // Problems that found no line (a query parameter, a body that is not JSON) are listed under the body.
  const left = problems.filter((problem) => !shown.includes(problem));
  const list = left.length ? h('ul', { class: 'problems' }, ...left.map((problem) => h('li', { class: 'problem' }, problem.text))) : undefined;
  container.replaceChildren(...[pretty, list].filter(Boolean));
}

/**
 * JSON text pretty-printed from its own tokens, so numbers keep their exact digits (a double would
 * round an int64 id), with each problem on the line of the field it concerns (for a missing
 * property, the line of the object that lacks it). Undefined when the text is not JSON.
 */
function prettyJson(text, problems, shown) {
  let tree;
  try {
    tree = parseJsonTokens(text);
  } catch {
    return undefined;
  }
  const lines = [];
  const emit = (node, pointer, depth, prefix, suffix) => {
    const indent = '  '.repeat(depth);
    if (node.type === 'object' || node.type === 'array') {
      const [open, close] = node.type === 'object' ? ['{', '}'] : ['[', ']'];
      const children = node.type === 'object' ? node.members : node.items.map((item, index) => [undefined, item, String(index)]);
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
function parseJsonTokens(text) {
  let at = 0;
  const fail = () => {
    throw new SyntaxError(`not JSON at ${at}`);
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at])) at++;
  };
  const literal = (pattern) => {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) fail();
    at += match[0].length;
    return match[0];
  };
  const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const WORD = /true|false|null/y;
  const value = (depth) => {
    if (depth > 200) fail();
    space();
    const c = text[at];
    if (c === '{') {
      at++;
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

// ---- curl and replay --------------------------------------------------------------------------

function shellQuote(text) {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The credentials part of a masked Authorization value replaced by a token (or $TOKEN). */
function authorizationWith(masked, token) {
  const scheme = /^\s*(\S+)\s+\S/.exec(masked)?.[1];
  return scheme ? `${scheme} ${token}` : token;
}

function curlOf(entry, token) {
  const url = `${location.origin}${entry.path}${entry.query ? `?${entry.query}` : ''}`;
  const parts = [`curl -i -X ${entry.method} ${shellQuote(url)}`];
  for (const [name, value] of entry.request.headers) {
    const lower = name.toLowerCase();
    // What only a browser sends (client hints, fetch metadata) is left out.
    if (NOT_RESENT.has(lower) || lower.startsWith('sec-')) continue;
    if (lower === 'authorization' || lower === 'proxy-authorization') {
      // The journal holds only a mask: the token comes from the page, or from the shell's $TOKEN.
      parts.push(token ? `-H ${shellQuote(`${name}: ${authorizationWith(value, token)}`)}` : `-H "${name}: ${authorizationWith(value, '$TOKEN')}"`);
      continue;
    }
    parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  const body = entry.request.body;
  if (body?.text !== undefined && body.encoding === 'utf8') parts.push(`--data-raw ${shellQuote(body.text)}`);
  return parts.join(' \\\n  ');
}

function renderCurl() {
  if (!state.detail) return;
  const token = $('curl-with-token').checked ? $('try-token').value.trim() : '';
  $('curl').value = curlOf(state.detail, token);
}

async function copyCurl() {
  renderCurl();
  $('curl').select();
  try {
    await navigator.clipboard.writeText($('curl').value);
    $('copy-curl').textContent = 'Copied';
  } catch {
    $('copy-curl').textContent = 'Selected: press Ctrl+C';
  }
  setTimeout(() => ($('copy-curl').textContent = 'Copy'), 1500);
}

/**
 * Where a replay of `entry` would go, as the browser will resolve it: a journaled path is what a
 * client sent (`/plants/../__mock/plants`, `//other.example/`), so it is judged after resolving.
 */
function replayTarget(entry) {
  try {
    return new URL(`${entry.path}${entry.query ? `?${entry.query}` : ''}`, location.origin);
  } catch {
    return undefined;
  }
}

function isAdminPathname(pathname) {
  return pathname === '/__mock' || pathname.startsWith('/__mock/');
}

function replayProblem(entry) {
  const target = replayTarget(entry);
  if (!target || target.origin !== location.origin) return 'This request went to another origin; it is not replayed from here.';
  if (isAdminPathname(target.pathname)) return "The mock's own routes are not replayed from here.";
  const body = entry.request.body;
  if (body?.unread) return 'The mock never read this body, so it cannot be sent again.';
  if (body?.cut) return 'The journal kept only the start of this body.';
  if (body && body.encoding !== 'utf8') return 'This body is not text.';
  return undefined;
}

async function replay() {
  const entry = state.detail;
  if (!entry || replayProblem(entry)) return;
  const target = replayTarget(entry);
  const headers = new Headers();
  for (const [name, value] of entry.request.headers) {
    const lower = name.toLowerCase();
    if (NOT_RESENT.has(lower) || lower === 'origin' || lower === 'referer' || lower.startsWith('sec-') || lower === 'user-agent') continue;
    // A masked credential is replaced by the token of "Try a create".
    const token = $('try-token').value.trim();
    try {
      if (lower === 'authorization') {
        if (token) headers.set(name, authorizationWith(value, token));
      } else headers.append(name, value);
    } catch {
      // a header the browser does not let a page set: left out
    }
  }
  const started = performance.now();
  let status;
  let text;
  try {
    const response = await fetch(target, {
      method: entry.method,
      headers,
      body: entry.request.body?.text,
      cache: 'no-store',
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    status = 0;
    text = `The request failed: ${error.message}`;
  }
  showResult('replay', status, text, started);
  tick();
}

function showResult(prefix, status, text, started) {
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: show it as it came
  }
  const badge = $(`${prefix}-status`);
  badge.className = `status s${String(status).charAt(0)}`;
  badge.textContent = status ? String(status) : 'failed';
  $(`${prefix}-time`).textContent = `${Math.round(performance.now() - started)} ms`;
  $(`${prefix}-body`).textContent = shown;
  $(`${prefix}-result`).hidden = false;
}

// ---- actions ----------------------------------------------------------------------------------

/** The NewPlant body as typed: digits go on the wire as a number exactly, anything else as a string. */
function newPlantBody(id, name, tag) {
  const fields = [];
  if (id !== '') fields.push(`"id":${/^-?(0|[1-9][0-9]*)$/.test(id) ? id : JSON.stringify(id)}`);
  if (name !== '') fields.push(`"name":${JSON.stringify(name)}`);
  if (tag !== '') fields.push(`"tag":${JSON.stringify(tag)}`);
  return `{${fields.join(',')}}`;
}

async function tryCreate(event) {
  event.preventDefault();
  const token = $('try-token').value.trim();
  const id = $('try-id').value.trim();
  sessionStorage.setItem(API_TOKEN_KEY, token);
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const prefer = $('try-prefer').value.trim();
  if (prefer) headers.prefer = prefer;
  const started = performance.now();
  let status;
  let text;
  try {
    const response = await fetch('/plants', { method: 'POST', headers, body: newPlantBody(id, $('try-name').value, $('try-tag').value) });
    status = response.status;
    text = await response.text();
  } catch (error) {
    status = 0;
    text = `The request failed: ${error.message}`;
  }
  showResult('try', status, text, started);
  // Ready for the next plant: a created id moves on by one.
  if (status === 200 && /^-?[0-9]+$/.test(id)) $('try-id').value = String(BigInt(id) + 1n);
  tick();
}

/** An admin action: its answer, or undefined once the failure is shown (a 401 locks the page). */
async function adminAction(what, path, init) {
  let response;
  try {
    response = await adminFetch(path, init);
    if (response.status === 401) {
      await lock(response);
      return undefined;
    }
  } catch (error) {
    setConnection('down', `${what} failed: cannot reach the mock (${error.message})`);
    return undefined;
  }
  return response;
}

async function resetStore() {
  const response = await adminAction('reset', '/__mock/plants', { method: 'DELETE' });
  if (!response) return;
  if (!response.ok) setConnection('down', `reset failed: ${await errorMessage(response)}`);
  state.plants.pages = [undefined];
  state.plants.dirty = true;
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
    return failed(`Export failed: cannot reach the mock (${error.message}).`);
  }
  const link = h('a', { href: URL.createObjectURL(file), download: 'frontend-requests.cases.json' });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  note.replaceChildren('Saved frontend-requests.cases.json: run it against a provider with ', h('code', {}, 'npm run contract -- --cases DIR'), '.');
  note.hidden = false;
}

function useToken(event) {
  event.preventDefault();
  const token = $('admin-token').value.trim();
  if (!token) return;
  sessionStorage.setItem(ADMIN_TOKEN_KEY, token);
  $('admin-token').value = '';
  showAdminChip();
  unlock();
  tick();
}

function forgetToken() {
  sessionStorage.removeItem(ADMIN_TOKEN_KEY);
  showAdminChip();
  tick();
}

function onJournalClick(event) {
  const row = event.target.closest('tr[data-seq]');
  if (row) openEntry(Number(row.dataset.seq));
}

// ---- start --------------------------------------------------------------------------------------

let filterTimer;
function onFilterChange() {
  clearTimeout(filterTimer);
  // Typing settles before the server is asked.
  filterTimer = setTimeout(tick, 250);
}

$('base-url').textContent = location.origin;
$('try-token').value = sessionStorage.getItem(API_TOKEN_KEY) ?? DEFAULT_API_TOKEN;
$('try-form').addEventListener('submit', tryCreate);
$('reset').addEventListener('click', resetStore);
$('token-form').addEventListener('submit', useToken);
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
$('plants-next').addEventListener('click', () => {
  if (state.plants.next === undefined) return;
  state.plants.pages.push(state.plants.next);
  state.plants.dirty = true;
  tick();
});
$('plants-first').addEventListener('click', () => {
  state.plants.pages = [undefined];
  state.plants.dirty = true;
  tick();
});
document.addEventListener('visibilitychange', () => {
  if (!document.hidden && !state.locked) tick();
});
showAdminChip();
tick();
