/**
 * Every exchange of a run as an HTTP Archive (HAR 1.2), beside the JUnit: a provider team opens
 * it in a browser's network panel (Chromium's DevTools imports it) or any HAR viewer to see each
 * request the suite sent and what came back. The token and the --header values are masked, in
 * requests and in anything the provider echoed. Requests that were never sent are not in it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Entry, Har, Header } from 'har-format';
import { packageFile } from '../package/root.js';
import type { ContractReport, Exchange } from './model.js';

const CREATOR_VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();

export function harLog(report: ContractReport): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'plant-store-contract', version: CREATOR_VERSION },
      comment: `Contract suite run against ${report.baseUrl} (${report.spec.operationId} from ${report.spec.source}), seed ${report.seed}`,
      entries: report.exchanges.filter((x) => x.outcome !== 'not-sent').map(entry),
    },
  };
}

function entry(exchange: Exchange): Entry {
  const { request } = exchange;
  const url = new URL(request.url);
  const headers: Header[] = Object.entries(request.headers).flatMap(([name, value]) => [value].flat().map((one) => ({ name, value: one })));
  const body = request.body;
  const bodyText = body === undefined ? undefined : typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const bodySize = body === undefined ? 0 : Buffer.byteLength(body);
  const contentType = [request.headers['content-type'] ?? ''].flat()[0] ?? '';
  const answered = exchange.outcome === 'response' ? exchange.response : undefined;
  const failed = exchange.outcome === 'timeout' ? `no answer within ${exchange.timeoutMs} ms` : exchange.outcome === 'dropped' ? exchange.error : undefined;
  return {
    startedDateTime: exchange.startedAt,
    time: exchange.elapsedMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers,
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(bodyText === undefined
        ? {}
        : { postData: { mimeType: contentType, text: bodyText, ...(typeof body === 'string' ? {} : { comment: `${bodySize} bytes, not valid UTF-8: shown decoded with replacement characters` }) } }),
      headersSize: -1,
      bodySize,
    },
    response: answered
      ? {
          status: answered.status,
          statusText: answered.statusText,
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: Object.entries(answered.headers).map(([name, value]) => ({ name, value })),
          content: {
            size: Buffer.byteLength(answered.body),
            mimeType: answered.headers['content-type'] ?? '',
            text: answered.body,
            ...(answered.truncated ? { comment: "cut at the suite's read limit" } : {}),
          },
          redirectURL: answered.headers.location ?? '',
          headersSize: -1,
          bodySize: Buffer.byteLength(answered.body),
        }
      : {
          // No answer: status 0, as browsers record a failed request.
          status: 0,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: '' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
          ...(failed ? { comment: failed } : {}),
        },
    cache: {},
    timings: { send: 0, wait: exchange.elapsedMs, receive: 0 },
    comment: `${exchange.case.id}: ${exchange.case.description}`,
  };
}

export function writeHar(report: ContractReport, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(harLog(report), null, 2)}\n`);
}
