/**
 * The Prefer header (RFC 7240) as Prism reads it: `code=N` forces a status, `example=NAME` picks
 * one of the spec's examples, `delay=MS` delays the answer. Preferences the mock does not know are
 * ignored, as RFC 7240 asks. Which statuses an operation can be forced to answer is decided by
 * `forceableStatuses`, from the spec.
 */
import type { ContractOperation } from '../../openapi/operations/model.js';
import { FORCEABLE_STATUSES, quoted } from '../errors.js';

/** The longest delay `Prefer: delay` may ask for, in milliseconds. */
export const MAX_DELAY_MS = 30_000;

export interface Preferences {
  code?: number;
  example?: string;
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
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'code') {
      if (/^[1-5]\d\d$/.test(value)) preferences.code = Number(value);
      else problems.push(`code=${quoted(value)} is not an HTTP status`);
    } else if (name === 'example') {
      if (value) preferences.example = value;
      else problems.push('example= names no example');
    } else if (name === 'delay') {
      const delay = /^\d+$/.test(value) ? Number(value) : NaN;
      if (delay <= MAX_DELAY_MS) preferences.delayMs = delay;
      else problems.push(`delay=${quoted(value)} must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`);
    }
  }
  // A few problems named, the rest counted: a header of many bad parts still gets a sentence.
  if (problems.length) preferences.problem = problems.slice(0, 3).join('; ') + (problems.length > 3 ? ` (${problems.length - 3} more)` : '');
  return preferences;
}

/** The statuses `Prefer: code=` may ask of an operation: those the spec declares, and the mock's own rejections. */
export function forceableStatuses(declared: readonly number[]): number[] {
  return [...new Set([...declared, ...FORCEABLE_STATUSES])].sort((a, b) => a - b);
}

/**
 * Why `code` cannot be forced on `operation`, whose forceable statuses are `allowed`, or
 * undefined. Besides those, any error status (4xx, 5xx) its `4XX`/`5XX` range or its `default`
 * covers: answered in that response's shape. A success must be declared by its own status, as its
 * body is generated from that response.
 */
export function forceProblem(code: number, allowed: readonly number[], operation: Pick<ContractOperation, 'ranges' | 'responses'>): string | undefined {
  if (allowed.includes(code)) return undefined;
  const covering: string[] = [...(operation.ranges?.keys() ?? [])].filter((range) => range === '4XX' || range === '5XX');
  if (operation.responses.has('default')) covering.push('default');
  if (code >= 400 && (operation.responses.has('default') || operation.ranges?.has(`${Math.floor(code / 100)}XX`))) return undefined;
  const others = covering.length ? `, or any error status its ${covering.join(' or ')} response covers` : '';
  return `code=${code} is not a status the mock can force here (choose one of ${allowed.join(', ')}${others})`;
}
