import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import { linkSecret } from '../../files/server-secret.js';

/**
 * Provider tokens at rest: AES-256-GCM under a key derived with HKDF-SHA256 from the server's secret (STUDIO_SECRET,
 * or the generated `link-secret`), so a copy of the database alone opens nothing. Sealed text is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; changing the secret makes every sealed token unreadable, which the
 * connection then reports as needing a reconnect.
 */
const INFO = 'studio accounting tokens v1';

async function key(config: Pick<Config, 'secret' | 'databasePath'>): Promise<Buffer> {
  return Buffer.from(hkdfSync('sha256', await linkSecret(config), Buffer.alloc(0), INFO, 32));
}

export async function seal(config: Pick<Config, 'secret' | 'databasePath'>, plain: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await key(config), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The plain text, or undefined when it was sealed under another key or altered. */
export async function unseal(
  config: Pick<Config, 'secret' | 'databasePath'>,
  sealed: string,
): Promise<string | undefined> {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await key(config), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
