/** `/files/{projectId}` → `/files/:projectId` (fastify's route syntax), as the path stands. */
export const fastifyRoute = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** `/projects/{projectId}` → `/v1/projects/:projectId`: a resource operation's route under /v1. */
export const fastifyPath = (path: string) => `/v1${fastifyRoute(path)}`;

/** The parameter names of an OpenAPI-style path template, in order. */
export const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
