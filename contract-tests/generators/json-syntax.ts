/**
 * The syntax of a JSON text (RFC 8259), walked around a valid body: text that is not one JSON
 * text (trailing data, two values, trailing commas, comments, single quotes, unquoted keys,
 * NaN/Infinity, leading zeros, bad escapes, raw control characters, non-JSON whitespace …) must
 * be refused; text that is JSON in an unusual but legal way must be accepted; and where RFC
 * 8259 leaves the parser a choice (a BOM, duplicate names, invalid UTF-8, lone surrogates,
 * nesting and number limits) the case only reports what the provider did.
 */
import { objectText, type Member } from './json-text.js';

export interface SyntaxCase {
  label: string;
  /** The body: text, or bytes for what text cannot carry (invalid UTF-8). */
  body: string | Uint8Array;
  expect: 'accepted' | 'rejected-body' | 'provider-choice';
  about: string;
  /** For provider-choice: the rule that leaves the choice open. */
  rule?: string;
  /** For provider-choice: accepting it is worth a warning (never a failure). */
  warnIfAccepted?: boolean;
}

export interface SyntaxInputs {
  /** A valid body's members, with a fresh identity each call. */
  base: () => Member[];
  /** A string property every body has (for string-level syntax), if the body has one. */
  stringProperty?: string;
  /** The identity property, if any. */
  identity?: string;
  /** A member name the body may carry without declaring it, when the schema lets undeclared members in. */
  extra?: string;
}

const RFC_2 = 'RFC 8259 §2 (JSON text grammar)';
export const DEPTH = 10_000;

export function syntaxCases(inputs: SyntaxInputs): SyntaxCase[] {
  const { base, stringProperty: str, identity: id, extra } = inputs;
  const text = (members: readonly Member[] = base()) => objectText(members);
  const out: SyntaxCase[] = [];
  const refuse = (label: string, body: string, about: string): void => {
    out.push({ label, body, expect: 'rejected-body', about: `${about} — not JSON (${RFC_2})` });
  };
  const set = (members: Member[], name: string, literal: string): Member[] => members.map((m) => (m[0] === name ? ([name, literal] as const) : m));
  const inner = (whole: string): string => whole.slice(1, -1);
  const joined = (members: readonly Member[], comma: string, colon = ':'): string => `{${members.map(([k, v]) => `${JSON.stringify(k)}${colon}${v}`).join(comma)}}`;

  refuse('trailing-garbage', `${text()} x`, 'a valid body followed by a stray word');
  refuse('trailing-brace', `${text()}}`, 'a valid body followed by an extra closing brace');
  refuse('trailing-comma-after-body', `${text()},`, 'a valid body followed by a comma');
  refuse('two-bodies', `${text()}${text()}`, 'two valid bodies back to back');
  refuse('two-bodies-ndjson', `${text()}\n${text()}\n`, 'two valid bodies on two lines (NDJSON)');
  refuse('trailing-comma-member', `{${inner(text())},}`, 'a trailing comma after the last member');
  refuse('leading-comma-member', `{,${inner(text())}}`, 'a comma before the first member');
  refuse('double-comma', joined(base(), ',,'), 'two commas between members');
  refuse('comment-block', `{/* a comment */${inner(text())}}`, 'a /* block comment */');
  refuse('comment-line', joined(base(), ', // a comment\n'), 'a // line comment');
  refuse('comment-hash', `# a comment\n${text()}`, 'a # comment line');
  refuse(
    'single-quoted-keys',
    `{${base()
      .map(([k, v]) => `'${k}':${v}`)
      .join(',')}}`,
    'keys in single quotes',
  );
  refuse(
    'unquoted-keys',
    `{${base()
      .map(([k, v]) => `${k}:${v}`)
      .join(',')}}`,
    'unquoted keys',
  );
  refuse('colon-missing', joined(base(), ',', ' '), 'members without their colons');
  refuse('unterminated-object', text().slice(0, -1), 'the closing brace missing');
  refuse('whitespace-only', ' \n\t ', 'only whitespace');
  refuse('non-json-whitespace-nbsp', joined(base(), ',', ':\u00a0'), 'a no-break space between tokens (JSON whitespace is space, tab, LF and CR only)');
  refuse('non-json-whitespace-vt-ff', `\u000b${joined(base(), '\u000c,')}`, 'a vertical tab and a form feed between tokens');
  if (id) {
    const withId = (literal: string) => text(set(base(), id, literal));
    const fresh = () => base().find((m) => m[0] === id)?.[1] ?? '1';
    refuse('id-nan', withId('NaN'), `${id} is NaN`);
    refuse('id-infinity', withId('Infinity'), `${id} is Infinity`);
    refuse('id-minus-infinity', withId('-Infinity'), `${id} is -Infinity`);
    refuse('id-leading-zero', withId(`0${fresh().replace('-', '')}`), `${id} written with a leading zero`);
    refuse('id-plus-sign', withId(`+${fresh().replace('-', '')}`), `${id} written with a plus sign`);
    refuse('id-hex', withId('0x1F'), `${id} written in hex (0x1F)`);
    refuse('id-trailing-dot', withId(`${fresh()}.`), `${id} with a dot and no fraction digits`);
    refuse('id-leading-dot', withId('.5e1'), `${id} written .5e1 (no digit before the dot)`);
    refuse('id-exponent-without-digits', withId(`${fresh()}e`), `${id} with an exponent marker and no digits`);
  }
  if (str) {
    const withString = (raw: string) => text(set(base(), str, raw));
    refuse('string-single-quoted', withString("'Monstera'"), `${str} in single quotes`);
    refuse('string-unterminated', `${text(set(base(), str, '"Monstera')).slice(0, -1)}`, `${str} with no closing quote`);
    refuse('string-raw-control', withString('"Mon\u0001stera"'), `${str} with a raw U+0001 (control characters must be escaped)`);
    refuse('string-raw-newline', withString('"Mon\nstera"'), `${str} with a raw line break`);
    refuse('string-raw-tab', withString('"Mon\tstera"'), `${str} with a raw tab`);
    refuse('string-raw-nul', withString('"Mon\u0000stera"'), `${str} with a raw NUL`);
    refuse('escape-x', withString('"\\x41"'), `${str} with the escape \\x41, which JSON does not have`);
    refuse('escape-short-u', withString('"\\u12"'), `${str} with a \\u escape of two hex digits`);
    refuse('escape-letter', withString('"\\a"'), `${str} with the escape \\a`);
    refuse('escape-single-quote', withString(`"\\'"`), `${str} with the escape \\', which JSON does not have`);
    refuse('escape-at-end', `${text(set(base(), str, '"Monstera\\"'))}`, `${str} ending in a backslash that escapes the closing quote`);
  }
  if (extra) {
    const withExtra = (literal: string) => text([...base(), [extra, literal]]);
    refuse('extra-trailing-comma-array', withExtra('[1,2,]'), 'an undeclared member holding an array with a trailing comma');
    refuse('extra-nan', withExtra('NaN'), 'an undeclared member holding NaN');
    refuse('extra-leading-zero', withExtra('007'), 'an undeclared member holding 007');
    refuse('extra-python-literals', withExtra('[True, None]'), 'an undeclared member holding True and None');
    refuse('extra-undefined', withExtra('undefined'), 'an undeclared member holding undefined');
    refuse('extra-unterminated-array', withExtra('[1,2').concat('}'), 'an undeclared member holding an array with no closing bracket');
  }

  // Legal, if unusual: must be accepted.
  const accept = (label: string, body: string, about: string): void => {
    out.push({ label, body, expect: 'accepted', about });
  };
  const spaced = base();
  accept(
    'whitespace-everywhere',
    ` \t\r\n{ ${spaced.map(([k, v]) => `${JSON.stringify(k)} \t:\r\n ${v}`).join(' ,\n\t')} }\r\n `,
    'JSON whitespace (space, tab, CR, LF) before, between and after every token',
  );
  accept(
    'escaped-keys',
    `{${base()
      .map(([k, v]) => `"${[...k].map((c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`).join('')}":${v}`)
      .join(',')}}`,
    'every key written entirely as \\u escapes (the same names)',
  );
  accept('members-reversed', text(base().reverse()), 'the members in reverse order');
  if (extra) {
    accept('extra-every-type', text([...base(), [extra, '{"a":[1,-0.0e-0,1E+2,true,false,null,"s",{}],"b":{"c":[]}}']]), 'an undeclared member holding every JSON type (the schema lets it in)');
  }

  // Where RFC 8259 leaves the parser a choice: reported, never failed.
  const choose = (label: string, body: string | Uint8Array, about: string, rule: string, warnIfAccepted = false): void => {
    out.push({ label, body, expect: 'provider-choice', about, rule, ...(warnIfAccepted ? { warnIfAccepted } : {}) });
  };
  choose('leading-bom', `\ufeff${text()}`, 'a valid body after a byte order mark', 'RFC 8259 §8.1 forbids sending a BOM but lets a parser ignore it');
  if (str) {
    choose(
      'duplicate-name',
      text([...base(), [str, '"Second"']]),
      `${str} given twice with different values`,
      'RFC 8259 §4: names should be unique; with duplicates, parsers differ (first, last, or an error)',
    );
    const bytes = (middle: number[]) => {
      const [before, after] = text(set(base(), str, '"@@"')).split('@@') as [string, string];
      return Buffer.concat([Buffer.from(before, 'utf8'), Buffer.from(middle), Buffer.from(after, 'utf8')]);
    };
    // JSON text exchanged between systems is UTF-8 (RFC 8259 §8.1): bytes that are not are not JSON text, and a
    // provider that decodes them into U+FFFD stores what nobody sent. Refused, as other text that is not JSON.
    const notUtf8 = (label: string, body: Uint8Array, about: string): void =>
      void out.push({ label, body, expect: 'rejected-body', about: `${about} — not JSON text (RFC 8259 §8.1: JSON text is UTF-8; RFC 3629)` });
    notUtf8('invalid-utf8', bytes([0x4d, 0xc3, 0x28, 0x6e]), `${str} holding the bytes C3 28, which are not UTF-8`);
    notUtf8('overlong-utf8', bytes([0xc0, 0xaf]), `${str} holding C0 AF, an overlong (invalid) UTF-8 form of "/"`);
    notUtf8('utf8-encoded-surrogate', bytes([0xed, 0xa0, 0x80]), `${str} holding ED A0 80, a UTF-16 surrogate encoded as if it were a character (CESU-8)`);
    choose(
      'lone-surrogate-escape',
      text(set(base(), str, '"a\\ud800b"')),
      `${str} holding \\ud800, an unpaired surrogate escape`,
      'RFC 8259 §8.2: an unpaired surrogate escape is grammatical, but what software makes of it is unpredictable',
    );
  }
  if (id)
    choose(
      'duplicate-id',
      text([...base(), [id, base().find((m) => m[0] === id)?.[1] ?? '1']]),
      `${id} given twice with two fresh values`,
      'RFC 8259 §4: names should be unique; with duplicates, parsers differ',
    );
  if (extra) {
    choose(
      'deep-nesting',
      text([...base(), [extra, `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`]]),
      `an undeclared member holding arrays nested ${DEPTH} deep`,
      'RFC 8259 §9: a parser may limit nesting depth (any 4xx is fine; a 5xx or a hang is not)',
    );
    choose('huge-number', text([...base(), [extra, '1e400']]), 'an undeclared member holding 1e400', 'RFC 8259 §9: a parser may limit the range of numbers');
    choose('long-number', text([...base(), [extra, '9'.repeat(1000)]]), 'an undeclared member holding a 1 000-digit integer', 'RFC 8259 §9: a parser may limit the precision of numbers');
  } else {
    out.push({
      label: 'deep-nesting',
      body: text([...base(), ['nested', `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`]]),
      expect: 'rejected-body',
      about: `an undeclared member (the schema forbids them) holding arrays nested ${DEPTH} deep`,
    });
  }
  return out;
}
