/** `/projects/{projectId}` → `/v1/projects/:projectId` (fastify's route syntax). */
export const fastifyPath = (path: string) => `/v1${path.replace(/\{(\w+)\}/g, ':$1')}`;

/** The parameter names of an OpenAPI-style path template, in order. */
export const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
