/**
 * response_echoes_request: the resource created names exactly what was sent, for every property
 * the success response declares and the request carries (for the bundled spec: name and tag),
 * character for character; a property sent with its schema's `default` may be left out. A declared
 * property that was not sent but comes back is a warning, except in a PATCH's answer (the whole record).
 * A value declared writeOnly there is never answered; one the answer declares with another schema that
 * cannot hold the value sent (a card number answered masked) may differ, a provider choice at most; a
 * wider answer schema (the request's bounds left out) still holds it, so it is compared. A record
 * sent and answered in an envelope (`{"article": {...}}`) is compared inside it, as the mock stores it.
 */
import { exactInteger } from '../../openapi/schema/exact-json.js';
import { isObject } from '../../openapi/schema/resolve.js';
import { abbreviate } from '../generators/json-text.js';
import type { Check, Problem } from '../model.js';
import { parseBody } from '../spec-contract.js';
import { answered, failure, info, isSuccess, warning } from './verdicts.js';

export const responseEchoesRequest: Check = {
  name: 'response_echoes_request',
  proves: 'the created resource names exactly what was sent, for every property the success response declares',
  judge(exchange, { contract }) {
    const response = answered(exchange);
    const sentBody = exchange.case.request.plant;
    const declared = response && contract.responses.get(response.status);
    if (!response || !declared || !isSuccess(response.status) || !sentBody) return undefined;
    const parsed = parseBody(response.body);
    const { validate } = declared;
    // A body that is not the declared schema is response_schema_conformance's to report.
    if (!parsed.ok || !validate?.(parsed.value) || !isObject(parsed.value)) return undefined;
    const outer = parsed.value;
    // An enveloped record (`{"article": {...}}` sent and answered): the values sent and echoed are inside the envelope.
    const member = contract.envelope;
    if (member !== undefined && !declared.properties.includes(member)) return undefined;
    const got = member === undefined ? outer : outer[member];
    const sent = member === undefined ? sentBody : sentBody[member];
    if (!isObject(got) || !isObject(sent)) return undefined;
    /** Whether the answer's schema holds this record in its place. */
    const holds = (record: Record<string, unknown>): boolean => validate(member === undefined ? record : { ...outer, [member]: record });
    const problems: Problem[] = [];
    for (const name of member === undefined ? contract.echoed.filter((echoed) => declared.properties.includes(echoed)) : contract.echoed) {
      const had = Object.hasOwn(sent, name);
      const has = Object.hasOwn(got, name);
      // A PATCH's null may remove the member (RFC 7396, JSON merge patch), which many JSON PATCH APIs follow: absent is an answer too.
      if (had && !has && sent[name] === null && contract.method === 'PATCH') continue;
      // A value equal to the schema's default may be left out: the answer still says it.
      if (had && !has && contract.echoDefaults.has(name) && sameValue(sent, { [name]: contract.echoDefaults.get(name) }, name)) continue;
      // A property the answer declares with another schema, whose answer could not hold the value sent (a card number
      // masked), is transformed: its value there is the provider's. A wider schema (no maxLength) still holds it, so it is compared.
      const transformed = contract.transformed?.has(name) === true && (!has || !holds({ ...got, [name]: sent[name] }));
      if (had && !has && !transformed) problems.push(failure(`The answer has no ${name}, but the request sent ${name} ${show(sent, name)}.`));
      else if (had && has && !sameValue(sent, got, name)) {
        problems.push(
          transformed
            ? info(`${difference(name, sent, got)} The answer declares ${name} with another schema than the request, so the provider may transform it.`)
            : failure(difference(name, sent, got)),
        );
      }
      // A PATCH answers the whole record: a property it did not send is the record's own, not an invention.
      else if (!had && has && contract.method !== 'PATCH') problems.push(warning(`The answer has ${name} ${show(got, name)}, but the request sent no ${name}.`));
    }
    return problems;
  },
};

function sameValue(sent: Record<string, unknown>, got: Record<string, unknown>, name: string): boolean {
  const a = sent[name];
  const b = got[name];
  if (typeof a === 'number' && typeof b === 'number') return exactInteger(sent, name) !== undefined ? exactInteger(sent, name) === exactInteger(got, name) : a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A member's value for messages; an integer by its exact digits (as a double, 9007199254740993 and 9007199254740992 read the same). */
function show(container: Record<string, unknown>, name: string): string {
  const value = container[name];
  if (typeof value === 'string') return abbreviate(value);
  if (typeof value === 'number') return String(exactInteger(container, name) ?? value);
  return JSON.stringify(value)?.slice(0, 80) ?? String(value);
}

/** Where two values part, in words: for strings, the first code point that differs. */
function difference(name: string, sentBody: Record<string, unknown>, gotBody: Record<string, unknown>): string {
  const sent = sentBody[name];
  const got = gotBody[name];
  if (typeof sent === 'string' && typeof got === 'string') {
    const a = [...sent];
    const b = [...got];
    let at = 0;
    while (at < a.length && at < b.length && a[at] === b[at]) at++;
    const codePoint = (c: string | undefined) => (c === undefined ? 'the end' : `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
    return (
      `The answer's ${name} is ${abbreviate(got)}, but the request sent ${abbreviate(sent)}: ` +
      `they part at character ${at + 1} (sent ${codePoint(a[at])}, got ${codePoint(b[at])}; ${a.length} characters sent, ${b.length} returned).`
    );
  }
  return `The answer's ${name} is ${show(gotBody, name)}, but the request sent ${show(sentBody, name)}.`;
}
