import type { ResultAsync } from 'neverthrow';
import type { StatusValidationError, SystemStatus } from '../status/system-status.js';

/** Why the system status could not be read. */
export type TaskStoreError = StatusValidationError | { readonly kind: 'io'; readonly message: string };

/** Where the system status comes from (the server's database, a JSON file a cron job writes…). */
export interface TaskStore {
  readonly snapshot: () => ResultAsync<SystemStatus, TaskStoreError>;
}
