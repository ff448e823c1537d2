/**
 * The Prefer header (RFC 7240) as Prism reads it: `code=N` forces a status, `delay=MS` delays
 * the answer. Preferences the mock does not know are ignored, as RFC 7240 asks.
 */
import { FORCEABLE_STATUSES } from '../errors.js';

/** The longest delay `Prefer: delay` may ask for, in milliseconds. */
export const MAX_DELAY_MS = 30_000;

export interface Preferences {
  code?: number;
  delayMs?: number;
  /** Why a known preference cannot be honoured (the request then gets a 400). */
  problem?: string;
}

const NONE: Preferences = Object.freeze({});

export function parsePrefer(header: string | undefined): Preferences {
  if (header === undefined || header === '') return NONE;
  const preferences: Preferences = {};
  const problems: string[] = [];
  for (const part of header.split(/[,;]/)) {
    const [rawName = '', ...rest] = part.split('=');
    const name = rawName.trim().toLowerCase();
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1');
    if (name === 'code') {
      const code = /^\d{3}$/.test(value) ? Number(value) : NaN;
      if ((FORCEABLE_STATUSES as readonly number[]).includes(code)) preferences.code = code;
      else problems.push(`code=${value} is not a status the mock can force (choose one of ${FORCEABLE_STATUSES.join(', ')})`);
    } else if (name === 'delay') {
      const delay = /^\d+$/.test(value) ? Number(value) : NaN;
      if (delay <= MAX_DELAY_MS) preferences.delayMs = delay;
      else problems.push(`delay=${value} must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`);
    }
  }
  if (problems.length) preferences.problem = problems.join('; ');
  return preferences;
}
