import { expect } from 'vitest';
import { http, type Trpc } from './clients.js';
import { idempotencyKey, uuid } from './ids.js';

/**
 * Making projects in a test, the same way in every suite: through the typed tRPC client as an application does, or
 * through the resource API as an HTTP client does.
 */

type ProjectInput = Parameters<Trpc['projects']['createStudioProject']['mutate']>[0];

/** A new project made by `client` over tRPC, with a fresh command key. */
export function createProject(client: Trpc, fields: Omit<ProjectInput, 'commandKey'>) {
  return client.projects.createStudioProject.mutate({ ...fields, commandKey: uuid() });
}

/** A project as POST /v1/projects answers it. */
export interface PostedProject {
  id: string;
  version: number;
  sections: Array<{ id: string; title: string }>;
}

/** A new project made through POST /v1/projects with a fresh Idempotency-Key; the test fails unless it answers 201. */
export async function postProject(
  app: { url: string; token: string },
  body: { name: string; sections?: string[]; currency?: string } & Record<string, unknown>,
): Promise<PostedProject> {
  const res = await http(app.url, 'POST', '/v1/projects', { token: app.token, headers: idempotencyKey(), body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as PostedProject;
}
