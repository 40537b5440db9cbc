/**
 * Answers whether a path exists. Injected so scanners that decide by a file's presence (the GChat
 * poll script) stay pure; the Node implementation is `nodeFileExists` in `./node`.
 */
export type FileExists = (path: string) => Promise<boolean>;
