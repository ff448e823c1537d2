/**
 * The domain of a JSON string, walked: every class of string a provider can get wrong, from the
 * empty one to 65 536 characters, number- and literal-looking text, whitespace, every escape
 * JSON has, control characters, characters from every Unicode plane and combining sequences,
 * and text that looks like HTML, SQL or a path. A string schema without constraints accepts
 * every one of them, so each must come back exactly; under constraints the spec's validator
 * decides which are valid (the boundary cases cover the constraints themselves).
 */

export interface StringSample {
  /** Short, unique, kebab-case: part of the case id. */
  label: string;
  value: string;
  /** How the value is written in the JSON text, when not JSON.stringify's way (an escape form). */
  literal?: string;
  /** What the sample probes, for the report. */
  about: string;
}

/** A string of exactly `length` code points cycling through `alphabet` (itself a list of code points). */
export function ofLength(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz'): string {
  const points = [...alphabet];
  let out = '';
  for (let i = 0; i < length; i++) out += points[i % points.length];
  return out;
}

/** Lengths around the buffer sizes parsers and columns are built with, up to 65 536. */
const LENGTHS = [2, 255, 256, 1023, 1024, 4095, 4096, 8192, 10_000, 65_536];

const C0 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('');
const C1 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)).join('');

export const STRING_DOMAIN: readonly StringSample[] = [
  { label: 'empty', value: '', about: 'the empty string' },
  { label: 'one-char', value: 'x', about: 'one character' },
  ...LENGTHS.map((n) => ({ label: `ascii-${n}`, value: ofLength(n), about: `${n} ASCII characters` })),
  { label: 'cjk-4096', value: ofLength(4096, '植物園林'), about: '4 096 CJK characters (3 UTF-8 bytes each)' },
  { label: 'astral-10000', value: ofLength(10_000, '🌵🌿🪴'), about: '10 000 characters outside the BMP (4 UTF-8 bytes, two UTF-16 units each)' },
  { label: 'astral-escaped-10000', value: ofLength(10_000, '🌵'), literal: `"${'\\ud83c\\udf35'.repeat(10_000)}"`, about: '10 000 supplementary characters written as \\u surrogate-pair escapes' },
  // Number- and literal-looking text: a string, never a number or a keyword.
  ...['123', '0', '-0', '007', '1e5', '-1.5e-3', '0x1F', '9223372036854775808', 'NaN', 'Infinity'].map((value) => ({
    label: `number-like-${value.replace(/[^A-Za-z0-9]+/g, '_')}`,
    value,
    about: `a string that looks like the number ${value}`,
  })),
  ...['true', 'false', 'null', 'undefined', '[]', '{}'].map((value) => ({
    label: `literal-like-${value.replace(/\W/g, '') || (value === '[]' ? 'array' : 'object')}`,
    value,
    about: `a string that looks like ${value}`,
  })),
  // Whitespace.
  { label: 'space', value: ' ', about: 'one space' },
  { label: 'spaces', value: '   ', about: 'only spaces' },
  { label: 'tab-newlines', value: '\t\n\r\n', about: 'only a tab and line breaks' },
  { label: 'padded', value: '  padded  ', about: 'leading and trailing spaces, kept as sent' },
  { label: 'unicode-spaces', value: '\u00a0\u2003\u3000\u2028\u2029', about: 'no-break, em, ideographic space and the line and paragraph separators' },
  // Every escape JSON has, and unusual ways of writing ordinary characters.
  { label: 'escape-short-forms', value: '"\\/\b\f\n\r\t', literal: '"\\"\\\\\\/\\b\\f\\n\\r\\t"', about: 'every two-character escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t' },
  { label: 'escape-unicode-ascii', value: 'Ficus', literal: '"\\u0046\\u0069\\u0063\\u0075\\u0073"', about: 'plain ASCII written entirely as \\u escapes' },
  { label: 'escape-unicode-mixed-case', value: 'éÉ', literal: '"\\u00e9\\u00C9"', about: '\\u escapes in lower- and upper-case hex' },
  { label: 'escape-slash', value: '</script>', literal: '"<\\/script>"', about: 'a solidus written as \\/' },
  { label: 'backslash-u-text', value: '\\u0041', about: 'a backslash followed by u0041 as text, not an escape' },
  // Control characters.
  { label: 'nul', value: '\u0000', about: 'a NUL character alone' },
  { label: 'nul-inside', value: 'Fi\u0000cus', about: 'a NUL character inside a name (C strings end there)' },
  { label: 'c0-controls', value: C0, about: 'every C0 control character, U+0000 to U+001F' },
  { label: 'del-and-c1', value: `\u007f${C1}`, about: 'DEL and every C1 control character, U+0080 to U+009F' },
  { label: 'terminal-escape', value: '\u001b[31mred\u001b[0m\u001b]0;title\u0007', about: 'ANSI colour and window-title escape sequences' },
  // Every plane.
  { label: 'latin-1', value: 'Kaktüs Åloë ñ ß', about: 'Latin-1 letters' },
  { label: 'scripts-rtl', value: 'نبات צמח', about: 'right-to-left scripts (Arabic, Hebrew)' },
  { label: 'scripts-bmp', value: 'Ελιά Фикус पौधा 植物 식물 ᏣᎳᎩ', about: 'Greek, Cyrillic, Devanagari, CJK, Hangul and Cherokee' },
  { label: 'plane-1', value: '🌵🌿 𝔓𝔩𝔞𝔫𝔱 𐌰𐌱', about: 'plane 1: emoji, mathematical letters, Gothic' },
  { label: 'plane-2-3', value: '𠀀𪛖𫝀 𰀀𱍊', about: 'planes 2 and 3: CJK extensions B to H' },
  { label: 'plane-14', value: '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} a\u{E0100}', about: 'plane 14: tag characters and a variation selector' },
  { label: 'private-use', value: '\uE000\u{F0000}\u{10FFFD}', about: 'private-use characters of the BMP and planes 15 and 16' },
  { label: 'noncharacters', value: '\uFDD0\uFFFE\uFFFF\u{1FFFE}\u{10FFFF}', about: 'noncharacters, up to U+10FFFF (valid in JSON strings)' },
  // Combining sequences and other multi-code-point graphemes.
  { label: 'combining-decomposed', value: 'Cafe\u0301 A\u030A', about: 'decomposed accents (NFD): must not come back recomposed' },
  { label: 'combining-stack', value: 'Z\u0364\u0351\u0310a\u0308\u0356\u032dl\u036e\u0312\u036bo\u0328\u0317', about: 'stacked combining marks' },
  { label: 'emoji-sequences', value: '👩\u200d🌾 🇳🇱 👍🏽 1\ufe0f\u20e3', about: 'emoji ZWJ, flag, skin-tone and keycap sequences' },
  { label: 'hangul-jamo', value: '\u1100\u1161\u11a8', about: 'conjoining Hangul jamo' },
  { label: 'bidi-and-zero-width', value: 'a\u202eevil\u202c\u200b\u200d\u2066b\u2069\ufeff', about: 'bidi overrides, zero-width characters and a BOM inside the text' },
  // Text that looks like markup, a query or a path: stored and echoed as is, never interpreted.
  { label: 'html', value: '<script>alert(1)</script><b>&amp;</b>', about: 'HTML with a script and an entity' },
  { label: 'sql', value: "'; DROP TABLE plants; --", about: 'an SQL injection attempt' },
  { label: 'sql-quotes', value: `O'Brien "Ficus" \`x\``, about: 'single, double and back quotes' },
  { label: 'path', value: '../../etc/passwd', about: 'a relative path' },
  { label: 'windows-path', value: 'C:\\Windows\\system32\\', about: 'a Windows path with backslashes' },
  { label: 'url-encoded', value: '%00%2e%2e%2f%0d%0a', about: 'percent-encoded NUL, dots and a line break' },
  { label: 'template', value: '{{7*7}} ${7*7} #{7*7} ${jndi:ldap://x}', about: 'template and lookup syntax' },
  { label: 'format-string', value: '%s%n%x%d', about: 'printf conversions' },
];
