/**
 * A forwarded request judged by the mock's own judge (../engine/request-path.ts) through the one
 * judge (openapi/judge/judge.ts), with the policy that collects every problem: the route, the
 * credentials' presence and shape for the operation's security, the media type, the size, the JSON
 * syntax, the body's schema and the parameters — in the mock's words. Nothing is refused (the
 * upstream decides); the body judged is the copy the proxy kept while forwarding it.
 */
import type { IncomingMessage } from 'node:http';
import { judge as judgeExchange, type RequestUnderJudgement } from '../../openapi/judge/judge.js';
import type { JudgePolicy, Violation } from '../../openapi/judge/violation.js';
import type { EngineContext, Route } from '../engine/context.js';
import type { Preferences } from '../engine/prefer.js';
import { judge } from '../engine/request-path.js';
import { reject } from '../errors.js';
import { violation } from './violations.js';

/** The copy of the request body the proxy kept while forwarding it, or why it kept none. */
export type BodyCopy = { bytes: Buffer } | { unchecked: string };

export async function judgeRequest(req: IncomingMessage, path: string, mock: EngineContext, found: Route, prefer: Preferences, body: Promise<BodyCopy>): Promise<Violation[]> {
  const request: RequestUnderJudgement = {
    judge: async (policy: JudgePolicy) => {
      const verdict = await judge(
        req,
        path,
        mock,
        found,
        prefer,
        async () => {
          const copy = await body;
          return 'bytes' in copy ? copy.bytes : copy;
        },
        policy,
      );
      const violations: Violation[] = [];
      for (const answer of verdict.answers ?? []) if (answer.rejection) violations.push(violation('request', answer.rejection));
      if (verdict.unchecked !== undefined) violations.push(violation('request', reject('NOT_VALIDATED', { what: 'request body', reason: verdict.unchecked }), 'warning'));
      return violations;
    },
  };
  return judgeExchange(found.kind === 'operation' ? found.operation.contract : undefined, { request }, 'all');
}
