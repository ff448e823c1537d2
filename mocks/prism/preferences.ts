/**
 * What a request asks of Prism's mocker (`Prefer: code=400, example=…, dynamic=true, seed=…`, or
 * the `__code`, `__example`, `__dynamic`, `__seed` query parameters when there is no Prefer), read
 * as Prism's own HTTP server reads it: with `parse-prefer-header`, its error a 422 problem. Its
 * server package does not export this, so it is rebuilt from public parts rather than imported
 * from a private `dist/` path.
 */
import { ProblemJsonError, UNPROCESSABLE_ENTITY, type IHttpOperationConfig, type IHttpRequest } from '@stoplight/prism-http';
import parsePreferHeader from 'parse-prefer-header';

export type MockPreferences = Partial<Pick<IHttpOperationConfig, 'code' | 'exampleKey' | 'dynamic' | 'seed'>>;

type Raw = Record<string, string | string[] | boolean | undefined>;

export function mockPreferences(request: IHttpRequest): { ok: MockPreferences } | { problem: ProblemJsonError } {
  const prefer = request.headers?.prefer;
  const query = request.url.query ?? {};
  const raw: Raw = prefer ? (parsePreferHeader(prefer) as Raw) : { code: query.__code, dynamic: query.__dynamic, seed: query.__seed, example: query.__example };
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = raw[name];
    if (value === undefined) return undefined;
    if (typeof value === 'string') return value;
    problems.push(`${name}: cannot decode ${JSON.stringify(value)}, should be string`);
    return undefined;
  };
  const code = text('code');
  const dynamic = text('dynamic');
  const preferences: MockPreferences = { exampleKey: text('example'), seed: text('seed') };
  if (code !== undefined) {
    if (/^\d{3}$/.test(code)) preferences.code = Number(code);
    else problems.push(`code: cannot decode "${code}", should be a number`);
  }
  if (dynamic !== undefined) {
    if (dynamic === 'true' || dynamic === 'false') preferences.dynamic = dynamic === 'true';
    else problems.push(`dynamic: cannot decode "${dynamic}", should be a boolean`);
  }
  if (problems.length) return { problem: ProblemJsonError.fromTemplate(UNPROCESSABLE_ENTITY, problems.join('\n')) };
  return { ok: preferences };
}
