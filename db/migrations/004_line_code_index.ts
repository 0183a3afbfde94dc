/**
 * The next line code is one more than the highest numbered code of the project: this index answers that with one
 * seek (longest code first, then highest), instead of reading every code of the project on every create.
 */
export const name = 'line_code_index';
export const statements = [`CREATE INDEX lines_by_project_code ON lines (project_id, length(code), code)`];
/** PostgreSQL: an expression is parenthesised, and codes order by bytes (as in SQLite) whatever the database's locale. */
export const postgres = [`CREATE INDEX lines_by_project_code ON lines (project_id, (length(code)), code COLLATE "C")`];
