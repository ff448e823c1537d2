/**
 * Request bodies as exact JSON text: members in order, each value written as the literal the
 * case wants on the wire (an int64 as its digits, a string escaped one particular way).
 */
import { exactJsonOf, parseExactJson } from '../../openapi/schema/exact-json.js';

/** One member of an object body: its name and the exact JSON text of its value. */
export type Member = readonly [name: string, literal: string];

export function objectText(members: readonly Member[]): string {
  return `{${members.map(([name, literal]) => `${JSON.stringify(name)}:${literal}`).join(',')}}`;
}

/** A JSON literal for a value; bigints as exact digits. */
export function literal(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(literal).join(',')}]`;
  if (value !== null && typeof value === 'object') return objectText(Object.entries(value).map(([k, v]) => [k, literal(v)] as const));
  return JSON.stringify(value) ?? 'null';
}

/** The members with `name` set to `text` (replaced in place, or added last), or left out when text is undefined. */
export function withMember(members: readonly Member[], name: string, text: string | undefined): Member[] {
  const out: Member[] = [];
  let placed = false;
  for (const member of members) {
    if (member[0] !== name) out.push(member);
    else if (text !== undefined) {
      out.push([name, text]);
      placed = true;
    } else placed = true;
  }
  if (!placed && text !== undefined) out.push([name, text]);
  return out;
}

/**
 * An object literal's text with the member `name` set to `text` (only where it already has one, for
 * `replace`), every other value written exactly as it was (an int64 on its digits); the text itself
 * when it is no JSON object.
 */
export function withMemberInside(objectLiteral: string, name: string, text: string, mode: 'set' | 'replace' = 'set'): string {
  let value: unknown;
  try {
    value = parseExactJson(objectLiteral);
  } catch {
    return objectLiteral;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || (mode === 'replace' && !Object.hasOwn(value, name))) return objectLiteral;
  const container = value;
  const members = Object.keys(container).map((key) => [key, exactJsonOf(container, key)] as const);
  return objectText(withMember(members, name, text));
}

/** A string shortened for messages: its start, and how long it really is. */
export function abbreviate(text: string, max = 40): string {
  const points = [...text];
  return points.length <= max ? JSON.stringify(text) : `${JSON.stringify(points.slice(0, max).join(''))}… (${points.length} characters)`;
}
