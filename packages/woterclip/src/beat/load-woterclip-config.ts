import { err, ok, type Result } from 'neverthrow';
import { parsePersonaConfig, parseWoterclipConfig } from '../config/woterclip-config.js';
import type { WorkspaceFiles } from '../ports/workspace.js';
import type { LoadedPersona, LoadedWoterclipConfig } from './beat-types.js';

/** Loads and validates the repo config and every persona; errors name the file, key and fix. */
export async function loadWoterclipConfig(
  files: WorkspaceFiles,
): Promise<Result<LoadedWoterclipConfig, { readonly kind: 'config-missing' | 'config-invalid' | 'io'; readonly message: string }>> {
  const text = await files.readText('config.yaml');
  if (text.isErr())
    return err({ kind: text.error.kind === 'io' ? 'io' : 'config-invalid', message: `.woterclip/config.yaml: ${text.error.message}` });
  const config = parseWoterclipConfig(text.value);
  if (config.isErr()) return err({ kind: config.error.kind, message: config.error.message });
  const personas = new Map<string, LoadedPersona>();
  for (const [name, ref] of Object.entries(config.value.personas)) {
    const base = ref.path.replace(/\/+$/, '');
    // A persona file that resolves outside the repository is the user's to fix (exit 2), not an I/O failure.
    const read = async (file: string): Promise<Result<string | undefined, { kind: 'io' | 'config-invalid'; message: string }>> =>
      (await files.readText(`${base}/${file}`)).mapErr((e) => ({
        kind: e.kind === 'io' ? 'io' : 'config-invalid',
        message: `.woterclip/${base}/${file}: ${e.message}`,
      }));
    const [yamlText, soul, tools] = await Promise.all([read('config.yaml'), read('SOUL.md'), read('TOOLS.md')]);
    if (yamlText.isErr()) return err(yamlText.error);
    if (soul.isErr()) return err(soul.error);
    if (tools.isErr()) return err(tools.error);
    const parsed = parsePersonaConfig(yamlText.value, `.woterclip/${base}/config.yaml`);
    if (parsed.isErr()) return err({ kind: 'config-invalid', message: parsed.error.message });
    personas.set(name, { name, label: ref.label, config: parsed.value, soul: soul.value ?? '', tools: tools.value ?? '' });
  }
  return ok({ config: config.value, personas });
}
