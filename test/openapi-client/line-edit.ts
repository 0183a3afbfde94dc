/**
 * The line-edit flow as an API consumer writes it with a client generated from generated/openapi.json
 * (openapi-typescript writes .out/schema.d.ts; openapi-fetch calls the server). Typechecked with TypeScript 5 under
 * `strict` before it runs: every value read below has a type from the document, none is `any`.
 * Run by test/e2e/openapi-client.test.ts with STUDIO_URL and STUDIO_TOKEN; prints one JSON line per step.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './.out/schema.js';

type IsAny<T> = 0 extends 1 & T ? true : false;
/** Compiles only when T is not `any`. */
const typed = <T>(value: T, _proof: IsAny<T> extends false ? true : never): T => value;

const client = createClient<paths>({
  baseUrl: process.env.STUDIO_URL,
  headers: { Authorization: `Bearer ${process.env.STUDIO_TOKEN}` },
});
const report = (step: string, facts: Record<string, unknown>) => console.log(JSON.stringify({ step, ...facts }));
const fail = (why: string): never => {
  throw new Error(why);
};

// Find a project and its first section.
const projects = await client.GET('/v1/projects', { params: { query: { status: 'active' } } });
const project = typed(projects.data?.items[0] ?? fail('no project'), true);
const detail = await client.GET('/v1/projects/{projectId}', { params: { path: { projectId: project.id } } });
const sectionId: string = detail.data?.sections[0]?.id ?? fail('no section');

// Add a line (an Idempotency-Key is required by the type) and read it back from its Location.
const created = await client.POST('/v1/projects/{projectId}/items', {
  params: { path: { projectId: project.id }, header: { 'Idempotency-Key': crypto.randomUUID() } },
  body: { sectionId, heading: 'Linen sofa, three seater' },
});
const line = typed(created.data ?? fail(`create: ${created.response.status}`), true);
report('create', { status: created.response.status, location: created.response.headers.get('location'), id: line.id });

const read = await client.GET('/v1/projects/{projectId}/items/{itemId}', {
  params: { path: { projectId: project.id, itemId: line.id } },
});
const etag = read.response.headers.get('etag') ?? fail('no ETag');
const version: number = typed(read.data?.version ?? fail('no version'), true);
report('read', { status: read.response.status, etag, version });

// Change it: a JSON merge patch, guarded by the ETag. A priced field is one of the documented shapes.
const patchHeaders = { 'If-Match': etag, 'Content-Type': 'application/merge-patch+json' } as const;
const updated = await client.PATCH('/v1/projects/{projectId}/items/{itemId}', {
  params: { path: { projectId: project.id, itemId: line.id }, header: { 'If-Match': etag } },
  headers: patchHeaders,
  body: { finish: 'Natural oak', retailPrice: { state: 'set', amount4: '12500000' } },
});
const after = typed(updated.data ?? fail(`update: ${updated.response.status}`), true);
const retail: components['schemas']['PricedField'] = after.retailPrice;
report('update', {
  status: updated.response.status,
  finish: after.finish,
  retail: retail.price?.amount4 ?? null,
  version: after.version,
  etag: updated.response.headers.get('etag'),
});

// The same write again with the ETag it was made against: someone (we) changed the line since, so 409.
const stale = await client.PATCH('/v1/projects/{projectId}/items/{itemId}', {
  params: { path: { projectId: project.id, itemId: line.id }, header: { 'If-Match': etag } },
  headers: patchHeaders,
  body: { finish: 'Walnut' },
});
const problem = typed(stale.error ?? fail('the stale write was accepted'), true);
const current: number | undefined = problem.currentVersion;
report('stale', { status: stale.response.status, code: problem.code, currentVersion: current ?? null });

// What the document refuses, the compiler refuses: these never leave this file.
if (process.env.NEVER) {
  await client.PATCH('/v1/projects/{projectId}/items/{itemId}', {
    params: { path: { projectId: project.id, itemId: line.id }, header: { 'If-Match': etag } },
    // @ts-expect-error a "set" price needs its amount
    body: { retailPrice: { state: 'set' } },
  });
  await client.PATCH('/v1/projects/{projectId}/items/{itemId}', {
    params: { path: { projectId: project.id, itemId: line.id }, header: { 'If-Match': etag } },
    // @ts-expect-error only "set" carries an amount
    body: { retailPrice: { state: 'tbc', amount4: '100' } },
  });
  await client.PATCH('/v1/projects/{projectId}/items/{itemId}', {
    // @ts-expect-error If-Match is required on a write
    params: { path: { projectId: project.id, itemId: line.id } },
    body: { finish: 'Oak' },
  });
}
