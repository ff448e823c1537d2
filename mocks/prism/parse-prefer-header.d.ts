/** parse-prefer-header ships no types: a Prefer header's preferences by camel-cased name. */
declare module 'parse-prefer-header' {
  export default function parsePreferHeader(prefer: string | string[] | undefined): Record<string, string | true>;
}
