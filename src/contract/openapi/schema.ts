/** Where the document's shared schemas live: every $ref of an operation points here. */
export const COMPONENTS = '#/components/schemas/';

/** A JSON Schema as the builder reads it: its properties and required fields, the rest passed through. */
export type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] };
