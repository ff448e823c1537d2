// @ts-check
// "Copy as curl": a line pasted into bash must run curl with exactly the request's parts as its
// arguments and nothing else. Every part comes from a client or a spec (a method, a path, a header's
// name and value, a body), so each one is a single-quoted word: inside '…' bash expands nothing
// (no `…`, $(…), $VAR, globs or ;), and a ' is closed, escaped and reopened ('\''). The one
// expansion kept on purpose is the shell's "$TOKEN", outside the quotes and double-quoted itself.

/**
 * @typedef {{ name: string; value: string } | { name: string; prefix: string; token: true }} CurlHeader
 *   a header sent as written, or one whose value is `prefix` followed by the shell's $TOKEN
 */

/** One word for bash, whatever `text` holds. @param {string} text */
export function shellQuote(text) {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * The curl line, one argument a line (continued by backslashes, outside any quote).
 * @param {string} method
 * @param {string} url
 * @param {CurlHeader[]} headers
 * @param {string | undefined} body sent as written (--data-raw: no @file, no =)
 */
export function curlLine(method, url, headers, body) {
  const parts = [`curl -i -X ${shellQuote(method)} ${shellQuote(url)}`];
  for (const header of headers) {
    if ('token' in header) parts.push(`-H ${shellQuote(`${header.name}: ${header.prefix}`)}"$TOKEN"`);
    else parts.push(`-H ${shellQuote(`${header.name}: ${header.value}`)}`);
  }
  if (body !== undefined) parts.push(`--data-raw ${shellQuote(body)}`);
  return parts.join(' \\\n  ');
}
