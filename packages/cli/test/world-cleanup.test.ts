import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createWorld, tmuxSocketPath } from './support/world.js';

describe('a world leaves nothing behind (issue 26 item 9)', () => {
  it('destroy kills its tmux server and removes the socket file and the directory', () => {
    const world = createWorld({ sessions: ['orch-a'] });
    const socket = tmuxSocketPath(world.tmuxSocket);
    expect(existsSync(socket)).toBe(true);
    world.destroy();
    expect(existsSync(socket)).toBe(false);
    expect(existsSync(world.root)).toBe(false);
  });
});
