import type { ResultAsync } from 'neverthrow';

/**
 * Why a workspace read failed (a missing file is not an error: it reads as undefined).
 * `outside-repository`: the file resolves (through symlinks) outside the repository, so its text
 * is never read into a prompt; `path` names the file as the user wrote it.
 */
export type WorkspaceError =
  | { readonly kind: 'io'; readonly message: string }
  | { readonly kind: 'outside-repository'; readonly path: string; readonly message: string };

/** Reads the user's files under `.woterclip/` (config, persona files) by relative path. */
export interface WorkspaceFiles {
  readonly readText: (relativePath: string) => ResultAsync<string | undefined, WorkspaceError>;
}

/** Answers whether a required executable is available (a PATH lookup in the node adapter). */
export interface ToolProbe {
  readonly hasExecutable: (name: string) => ResultAsync<boolean, WorkspaceError>;
}
