/** pg's value serialisation for bound parameters (module `pg/lib/utils`, exported by pg's package.json, untyped). */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
