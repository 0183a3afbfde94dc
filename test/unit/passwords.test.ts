import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyPassword } from '../../src/domain/people/passwords.js';

describe('password digests', () => {
  it('verify the right password only, and never keep it in the clear', async () => {
    const digest = await hashPassword('correct horse battery');
    expect(digest).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(digest).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', digest)).toBe(true);
    expect(await verifyPassword('correct horse batterY', digest)).toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(digest);
  });

  it('never match a malformed or absurdly costly digest', async () => {
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1$2')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1073741824$8$1$AAAA$AAAA')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$2$8$1$AAAA$AAAA')).toBe(false);
  });

  it('compose the same password however its accents are encoded', async () => {
    const digest = await hashPassword('caf\u00e9 au lait!');
    expect(await verifyPassword('cafe\u0301 au lait!', digest)).toBe(true);
  });

  it('say why a proposed password is refused', () => {
    expect(passwordProblem('short')).toMatch(/at least 10/);
    expect(passwordProblem('x'.repeat(257))).toMatch(/at most 256/);
    expect(passwordProblem('a long enough one')).toBeUndefined();
  });
});
