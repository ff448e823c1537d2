// The inspector page: polls the mock's /__mock routes and shows plants and the request journal.
// Every value that came from a request is put in the page with textContent, never as HTML.

const POLL_MS = 1000;
const MAX_BACKOFF_MS = 10_000;
// sessionStorage: the admin token lives as long as this tab, and is never put in a URL.
const ADMIN_TOKEN_KEY = 'plant-store-mock.admin-token';
const API_TOKEN_KEY = 'plant-store-mock.api-token';
const DEFAULT_API_TOKEN = 'dev-token';

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
    if (child === undefined || child === null) continue;
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
  const text = await response.text();
  try {
    const body = JSON.parse(text);
    if (typeof body?.message === 'string') return body.message;
  } catch {
    // not the Error shape: show the status alone
  }
  return `HTTP ${response.status}`;
}

const state = {
  locked: false,
  plantsText: undefined,
  journalText: undefined,
  journal: [],
  failures: 0,
  timer: undefined,
  running: false,
  again: false,
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
  state.plantsText = state.journalText = undefined;
  for (const [table, empty] of [['plants', 'plants-empty'], ['journal', 'journal-empty']]) {
    $(table).hidden = true;
    $(empty).hidden = false;
    $(empty).textContent = 'Enter the admin token to see this.';
  }
  $('plant-count').textContent = $('journal-count').textContent = '–';
  setConnection('locked', 'admin token needed');
  $('admin-token').focus();
}

function unlock() {
  state.locked = false;
  $('token-panel').hidden = true;
}

// ---- polling ----------------------------------------------------------------------------------

async function refresh() {
  // The journal first: without the token, one 401 (journaled) is enough to ask for it.
  const journal = await adminFetch('/__mock/requests');
  if (journal.status === 401) return lock(journal);
  const plants = await adminFetch('/__mock/plants');
  if (plants.status === 401) return lock(plants);
  for (const response of [journal, plants]) {
    if (!response.ok) throw new Error(await errorMessage(response));
  }
  unlock();
  const [plantsText, journalText] = await Promise.all([plants.text(), journal.text()]);
  // Re-render only what changed, so a selection or scroll position survives the polling.
  if (plantsText !== state.plantsText) {
    state.plantsText = plantsText;
    renderPlants(parseExactIds(plantsText));
  }
  if (journalText !== state.journalText) {
    state.journalText = journalText;
    state.journal = JSON.parse(journalText).entries;
    renderJournal();
  }
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

// ---- rendering --------------------------------------------------------------------------------

function renderPlants(plants) {
  const rows = [...plants].reverse().map((plant) =>
    h('tr', {}, h('td', { class: 'id' }, String(plant.id)), h('td', { class: 'name' }, plant.name), h('td', {}, plant.tag ?? '')),
  );
  $('plants').tBodies[0].replaceChildren(...rows);
  $('plant-count').textContent = String(plants.length);
  $('plants').hidden = plants.length === 0;
  $('plants-empty').hidden = plants.length > 0;
  $('plants-empty').replaceChildren('No plants yet. Create one with ', h('code', {}, 'POST /plants'), ' or the form.');
}

function statusBadge(status) {
  return h('span', { class: `status s${String(status).charAt(0)}` }, String(status));
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });

function renderJournal() {
  const rejectionsOnly = $('rejections-only').checked;
  const entries = rejectionsOnly ? state.journal.filter((entry) => entry.status >= 400) : state.journal;
  const rows = entries.map((entry) => {
    const at = new Date(entry.at);
    const why = h('td', { class: 'why', title: entry.message });
    if (entry.code) why.append(h('span', { class: 'code' }, entry.code));
    // The problems are the validation errors one by one; the message already joins them.
    if (entry.problems?.length) why.append(h('ul', {}, ...entry.problems.map((problem) => h('li', {}, problem))));
    else if (entry.message) why.append(entry.message);
    return h(
      'tr',
      { class: entry.path.startsWith('/__mock') ? 'admin' : undefined },
      h('td', { class: 'num' }, String(entry.seq)),
      h('td', { class: 'time', title: entry.at }, `${timeFormat.format(at)}.${String(at.getMilliseconds()).padStart(3, '0')}`),
      h('td', { class: 'request' }, `${entry.method} ${entry.path}`),
      h('td', {}, statusBadge(entry.status)),
      h('td', { class: 'num' }, String(entry.durationMs)),
      why,
    );
  });
  $('journal').tBodies[0].replaceChildren(...rows);
  $('journal-count').textContent = String(state.journal.length);
  $('journal').hidden = rows.length === 0;
  $('journal-empty').hidden = rows.length > 0;
  $('journal-empty').textContent = state.journal.length ? 'No rejections in the journal.' : 'No requests yet.';
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
    const response = await fetch('/plants', {
      method: 'POST',
      headers,
      body: newPlantBody(id, $('try-name').value, $('try-tag').value),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    status = 0;
    text = `The request failed: ${error.message}`;
  }
  const elapsed = Math.round(performance.now() - started);
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: show it as it came
  }
  const badge = $('try-status');
  badge.className = `status s${String(status).charAt(0)}`;
  badge.textContent = status ? String(status) : 'failed';
  $('try-time').textContent = `${elapsed} ms`;
  $('try-body').textContent = shown;
  $('try-result').hidden = false;
  // Ready for the next plant: a created id moves on by one.
  if (status === 200 && /^-?[0-9]+$/.test(id)) $('try-id').value = String(BigInt(id) + 1n);
  tick();
}

async function resetStore() {
  const response = await adminFetch('/__mock/plants', { method: 'DELETE' });
  if (response.status === 401) return lock(response);
  if (!response.ok) setConnection('down', `reset failed: ${await errorMessage(response)}`);
  tick();
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

// ---- start --------------------------------------------------------------------------------------

$('base-url').textContent = location.origin;
$('try-token').value = sessionStorage.getItem(API_TOKEN_KEY) ?? DEFAULT_API_TOKEN;
$('try-form').addEventListener('submit', tryCreate);
$('reset').addEventListener('click', resetStore);
$('token-form').addEventListener('submit', useToken);
$('forget-token').addEventListener('click', forgetToken);
$('rejections-only').addEventListener('change', renderJournal);
document.addEventListener('visibilitychange', () => {
  if (!document.hidden && !state.locked) tick();
});
showAdminChip();
tick();
