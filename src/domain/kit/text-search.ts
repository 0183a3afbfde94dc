import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * "Any of these columns contains this text", case-insensitively, with the text taken literally: `%`, `_` and `\` in
 * what a person typed are escaped, and the ESCAPE clause makes SQLite and PostgreSQL honour that (without it SQLite
 * would look for the backslashes themselves). lower() on both sides keeps PostgreSQL's case-sensitive LIKE in line.
 */
export function containsText(columns: readonly string[], text: string): Expression<SqlBool>[] {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return columns.map((c) => sql<SqlBool>`lower(${sql.ref(c)}) LIKE lower(${pattern}) ESCAPE '\\'`);
}
