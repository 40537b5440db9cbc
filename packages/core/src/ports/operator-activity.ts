import type { ResultAsync } from 'neverthrow';

/** Tells when the operator last sent a message (undefined = unknown, which counts as idle). */
export interface OperatorActivity {
  readonly lastActiveAt: () => ResultAsync<Date | undefined, { readonly kind: 'io'; readonly message: string }>;
}
