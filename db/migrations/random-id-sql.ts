import type { Dialect } from '../store.js';

/**
 * An id drawn in SQL, for migrations that create records from existing rows: 26 characters of the alphabet `newId()`
 * uses, 5 random bits each (130 bits). SQLite's random() is a 64-bit integer; PostgreSQL's a float in [0, 1).
 */
export function randomIdSql(dialect: Dialect): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const index = dialect === 'sqlite' ? '1 + (random() & 31)' : '1 + floor(random() * 32)::int';
  return Array.from({ length: 26 }, () => `substr('${alphabet}', ${index}, 1)`).join(' || ');
}
