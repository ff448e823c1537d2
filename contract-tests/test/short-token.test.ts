/**
 * Short tokens are masked like long ones (issue 23): every credential an auth case sends that holds
 * the token is one of the run's secrets, so no report shows it, whatever the token's length.
 */
import { describe, expect, it } from 'vitest';
import { authCases } from '../generators/auth.js';
import { secrets } from '../secret-mask.js';
import type { SecurityScheme } from '../spec-contract.js';

const bearer: SecurityScheme = { kind: 'bearer', name: 'bearerAuth', alongside: [] };

describe('the secrets of a run', () => {
  for (const token of ['t', 'tx', 'abc1234', 'a-long-token-of-many-characters']) {
    it(`hold every credential the auth cases send for the token ${JSON.stringify(token)}`, () => {
      const hidden = new Set(secrets({ token, headers: {} }).map(([secret]) => secret));
      const sent = authCases(bearer, token, '0000-9999', 1).flatMap((c) => Object.values(c.credentials.headers).flat());
      const credentials = sent.map((value) => value.replace(/^\S+ +|^\S+\t/, '')).filter((credential) => credential.includes(token));
      expect(credentials.length).toBeGreaterThan(0);
      for (const credential of credentials) expect(hidden, `${credential} is not masked`).toContain(credential);
    });
  }
});
