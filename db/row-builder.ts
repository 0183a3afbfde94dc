/**
 * Rows as objects, built by a function made for their columns: one object literal, the shape V8 expects, instead of a
 * property set by name for each column (what both drivers do, and what dominates reading a few hundred rows).
 * Names come from the database (the schema's columns and the SQL's aliases); they are quoted as JSON string literals,
 * so any name is a property name and none is code. A repeated name keeps its last column, as the drivers do.
 * `__proto__` in an object literal would set the prototype, so a row with such a column is built by assignment.
 */
export type RowBuilder = (values: ArrayLike<unknown>) => Record<string, unknown>;
export type ValueParser = (text: string) => unknown;

export function rowBuilder(names: readonly string[], parsers?: readonly ValueParser[]): RowBuilder {
  const value = (i: number) => (parsers ? `v[${i}] === null ? null : p[${i}](v[${i}])` : `v[${i}]`);
  if (names.includes('__proto__')) {
    return (values) => {
      const row: Record<string, unknown> = Object.create(null);
      for (let i = 0; i < names.length; i++) {
        const v = values[i];
        row[names[i]!] = parsers && v !== null ? parsers[i]!(v as string) : v;
      }
      return row;
    };
  }
  const body = names.map((n, i) => `${JSON.stringify(n)}: ${value(i)}`).join(',\n');
  const build = new Function('p', 'v', `return {\n${body}\n};`) as (
    p: readonly ValueParser[] | undefined,
    v: ArrayLike<unknown>,
  ) => Record<string, unknown>;
  return (values) => build(parsers, values);
}
