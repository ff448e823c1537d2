// @ts-check
// The API docs page at /__mock/docs: Swagger UI (swagger-ui-dist, served by the mock itself)
// rendering the spec the mock serves, from /__mock/docs/openapi.json, whose only server is the
// mock. The admin token the inspector keeps in this tab's sessionStorage is sent for that one
// document, never with a "Try it out" request.

/** @typedef {{ url: string; headers: Record<string, string> }} SwaggerRequest */
/**
 * @typedef {object} SwaggerOptions
 * @property {string} url
 * @property {string} dom_id
 * @property {null} validatorUrl
 * @property {boolean} deepLinking
 * @property {boolean} tryItOutEnabled
 * @property {(request: SwaggerRequest) => SwaggerRequest} requestInterceptor
 * @property {() => void} onComplete
 */
/** @typedef {(options: SwaggerOptions) => unknown} SwaggerUIBundleFunction */

const DOCUMENT_PATH = '/__mock/docs/openapi.json';
const ADMIN_TOKEN_KEY = 'plant-store-mock.admin-token';

const status = /** @type {HTMLElement} */ (document.getElementById('docs-status'));

/** @param {SwaggerRequest} request */
function withAdminToken(request) {
  const token = sessionStorage.getItem(ADMIN_TOKEN_KEY);
  // Only the document itself, on this origin, gets the admin token.
  if (token && new URL(request.url, location.href).href === new URL(DOCUMENT_PATH, location.href).href) request.headers.authorization = `Bearer ${token}`;
  return request;
}

async function start() {
  const bundle = /** @type {{ SwaggerUIBundle?: SwaggerUIBundleFunction }} */ (/** @type {unknown} */ (window)).SwaggerUIBundle;
  if (!bundle) {
    status.dataset.state = 'failed';
    status.textContent = 'Swagger UI did not load.';
    return;
  }
  // Ask first, to say why in words when the admin token is missing (Swagger UI would show a bare 401).
  const token = sessionStorage.getItem(ADMIN_TOKEN_KEY);
  const probe = await fetch(DOCUMENT_PATH, { method: 'GET', cache: 'no-store', headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!probe.ok) {
    status.dataset.state = 'failed';
    status.replaceChildren(
      probe.status === 401 ? 'This mock is protected by an admin token: enter it in the ' : `The spec could not be read (HTTP ${probe.status}); see the `,
      Object.assign(document.createElement('a'), { href: '/__mock/', textContent: 'inspector' }),
      ', then come back.',
    );
    return;
  }
  bundle({
    url: DOCUMENT_PATH,
    dom_id: '#swagger-ui',
    // The public validator badge would call out to validator.swagger.io.
    validatorUrl: null,
    deepLinking: false,
    tryItOutEnabled: true,
    requestInterceptor: withAdminToken,
    onComplete: () => {
      status.textContent = '';
      document.body.dataset.ready = 'true';
    },
  });
}

void start();
