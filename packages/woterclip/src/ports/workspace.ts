import type { ResultAsync } from 'neverthrow';

/** Why a workspace read failed (a missing file is not an error: it reads as undefined). */
export interface WorkspaceError {
  readonly kind: 'io';
  readonly message: string;
}

/** Reads the user's files under `.woterclip/` (config, persona files) by relative path. */
export interface WorkspaceFiles {
  readonly readText: (relativePath: string) => ResultAsync<string | undefined, WorkspaceError>;
}

/** Answers whether a required executable is available (a PATH lookup in the node adapter). */
export interface ToolProbe {
  readonly hasExecutable: (name: string) => ResultAsync<boolean, WorkspaceError>;
}
