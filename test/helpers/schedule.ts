import { expect } from 'vitest';
import { http, type Trpc } from './clients.js';
import { idempotencyKey, uuid } from './ids.js';

/**
 * Making and reading schedule lines in a test, the same way in every suite: through the typed tRPC client as an
 * application does, or through the resource API as an HTTP client does.
 */

type LineInput = Parameters<Trpc['schedule']['createScheduleLine']['mutate']>[0];

/** A new line made by `client` over tRPC, with a fresh command key. */
export function createLine(client: Trpc, fields: Omit<LineInput, 'commandKey'>) {
  return client.schedule.createScheduleLine.mutate({ commandKey: uuid(), ...fields });
}

/** A line (an item) as POST /v1/projects/{projectId}/items answers it (the fields tests read). */
export interface PostedLine {
  id: string;
  code: string;
  version: number;
  sectionId: string;
  supplierId: string | null;
  clientTotal: { amount4: string } | null;
}

/**
 * A new line made through POST /v1/projects/{projectId}/items with a fresh Idempotency-Key, as a client of the
 * resource API makes it; the test fails unless it answers 201.
 */
export async function postItem(
  app: { url: string; token: string },
  projectId: string,
  body: { sectionId: string } & Record<string, unknown>,
): Promise<PostedLine> {
  const res = await http(app.url, 'POST', `/v1/projects/${projectId}/items`, {
    token: app.token,
    body,
    headers: idempotencyKey(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as PostedLine;
}

/** The first line GET /v1/projects/{projectId}/items lists (the app's demo project unless named), as JSON. */
export async function firstItem(
  app: { url: string; token: string; projectId?: string },
  projectId: string = app.projectId!,
): Promise<any> {
  return (await http(app.url, 'GET', `/v1/projects/${projectId}/items?limit=1`, { token: app.token })).body.items[0];
}

/** A project made by `client` (named `name`, one section) holding one line (`heading`): what another studio's tests name. */
export async function projectWithLine(client: Trpc, name = 'Their job', heading = 'Their chair') {
  const project = await client.projects.createStudioProject.mutate({ name, commandKey: uuid() });
  const line = await createLine(client, { projectId: project.id, sectionId: project.sections[0]!.id, heading });
  return { project, line };
}
