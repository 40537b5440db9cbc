import { describe, expect, it } from 'vitest';
import { looksLikeSecret } from './secret-value.js';

describe('looksLikeSecret', () => {
  it.each([
    'hunter2XY99',
    'k3yV4lu3abcdef',
    'dXNlcjpwYXNzd29yZA==',
    '550e8400-e29b-41d4-a716-446655440000',
    'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'qwertyuiopasdfghjklzxcvbnm',
    '4111111111111111',
  ])('%s is a secret', (value) => expect(looksLikeSecret(value)).toBe(true));

  it.each([
    'it',
    'waiting',
    'Re-trigger',
    'waitingForInput',
    'HTTPServer',
    'iPhone',
    'release2024',
    'validate_login_v2',
    'internationalization',
    'undefined',
    '1771509600000',
    '2026-02-19T14:00:00Z',
    '[REDACTED]',
    'hunter2',
  ])('%s is a word', (value) => expect(looksLikeSecret(value)).toBe(false));
});
