/** An option that cannot work; the CLI exits 2 with its message. */
export class ContractUsageError extends Error {
  override name = 'ContractUsageError';
}
