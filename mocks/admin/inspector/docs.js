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
 * @property {SwaggerPlugin[]} plugins
 */
/**
 * @typedef {{ createElement(type: unknown, props: Record<string, unknown>): unknown }} SwaggerReact
 * @typedef {(props: Record<string, unknown>) => unknown} SwaggerComponent
 * @typedef {{ wrapComponents: Record<string, (original: SwaggerComponent, system: { React: SwaggerReact }) => SwaggerComponent> }} SwaggerPlugin
 */
/**
 * @typedef {{ preauthorizeApiKey(name: string, value: string): void; preauthorizeBasic(name: string, user: string, password: string): void }} SwaggerUI
 * @typedef {(options: SwaggerOptions) => SwaggerUI} SwaggerUIBundleFunction
 */

const DOCUMENT_PATH = '/__mock/docs/openapi.json';
/** The document is the mock's 3.1 copy; this header names the version its file declares. */
const DECLARED_VERSION_HEADER = 'x-openapi-declared-version';
const ADMIN_TOKEN_KEY = 'plant-store-mock.admin-token';
/** Where the inspector's "Try it" remembers each scheme's credential (this tab only). */
const CREDENTIAL_KEY = 'plant-store-mock.credential.';

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
  const document_ = /** @type {{ components?: { securitySchemes?: Record<string, { type?: string; scheme?: string }> } }} */ (await probe.json());
  // Swagger UI stamps the version of the document it renders ("OAS 3.1" for an upgraded 3.0 file):
  // the stamp shows the file's own (3.0, 2.0), the one its author wrote and reads about.
  const declared = probe.headers.get(DECLARED_VERSION_HEADER)?.split('.').slice(0, 2).join('.');
  /** @type {SwaggerPlugin} */
  const declaredVersion = {
    wrapComponents: {
      OpenAPIVersion:
        (original, { React }) =>
        (props) =>
          React.createElement(original, declared ? { ...props, oasVersion: declared } : props),
    },
  };
  const ui = bundle({
    plugins: [declaredVersion],
    url: DOCUMENT_PATH,
    dom_id: '#swagger-ui',
    // The public validator badge would call out to validator.swagger.io.
    validatorUrl: null,
    deepLinking: false,
    tryItOutEnabled: true,
    requestInterceptor: withAdminToken,
    onComplete: () => {
      status.textContent = '';
      authorizeAsTheInspector(ui, document_.components?.securitySchemes ?? {});
      document.body.dataset.ready = 'true';
    },
  });
}

/**
 * The credentials "Try it" in the inspector remembers, per scheme, pre-filled in Swagger UI's
 * Authorize dialog: "Try it out" then sends what the inspector would.
 * @param {SwaggerUI} ui
 * @param {Record<string, { type?: string; scheme?: string }>} schemes
 */
function authorizeAsTheInspector(ui, schemes) {
  for (const [name, scheme] of Object.entries(schemes)) {
    const value = sessionStorage.getItem(CREDENTIAL_KEY + name);
    if (!value) continue;
    if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
      const at = value.indexOf(':');
      ui.preauthorizeBasic(name, at === -1 ? value : value.slice(0, at), at === -1 ? '' : value.slice(at + 1));
    } else if (scheme.type === 'apiKey' || scheme.type === 'http') ui.preauthorizeApiKey(name, value);
  }
}

void start();
