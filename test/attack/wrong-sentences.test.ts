/**
 * Refusals that said something untrue to the person reading them (issue 29, item 8): each answer keeps its status and
 * catalog code, and its sentence now states what the server really does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import { expectCatalogProblem, rawRequest } from '../helpers/raw-http.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => app?.close());

describe('a path ending in a slash', () => {
  it.each(['/v1/projects/', '/v1/projects//'])(
    '%s is 404 NOT_FOUND naming the path without the slash',
    async (path) => {
      for (const auth of [[['Authorization', `Bearer ${app.token}`]] as Array<[string, string]>, []]) {
        const res = await rawRequest(app.url, { method: 'GET', path, headers: auth });
        expect(res.status, res.body).toBe(404);
        expectCatalogProblem(res, path);
        expect(res.json.code).toBe('NOT_FOUND');
        expect(res.json.detail).toContain('use /v1/projects.');
        expect(res.json.detail).not.toMatch(/never empty/);
      }
    },
  );

  it('a member path with a slash still names its own path without it', async () => {
    const path = `/v1/projects/${app.projectId}/`;
    const res = await rawRequest(app.url, { method: 'GET', path, headers: [['Authorization', `Bearer ${app.token}`]] });
    expect(res.status, res.body).toBe(404);
    expect(res.json.detail).toContain(`use /v1/projects/${app.projectId}.`);
  });
});
