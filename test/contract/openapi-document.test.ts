/**
 * What generated/openapi.json promises beyond what a linter checks: an example on every JSON body, the headers the
 * server sends declared where it sends them, and the conditional-request parameters on the operations that honour them.
 * test/e2e/openapi-prism.test.ts then proves each promise against the running server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Operation } from '../../actions/operations/records.js';
import { ProjectId } from '../../actions/shared/refs.js';
import { buildOpenApiDocument } from '../../src/contract/openapi.js';
import { defineAction } from '../../src/core/define-action.js';
import { ROOT } from '../helpers/server.js';

type Any = Record<string, any>;
const doc = JSON.parse(readFileSync(join(ROOT, 'generated/openapi.json'), 'utf8')) as Any;
const operations = Object.entries(doc.paths as Record<string, Any>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, method, op as Any] as const),
);

describe.each(operations)('%s', (_name, method, op) => {
  const responses = Object.entries(op.responses as Record<string, Any>);

  it('has an example on every JSON body, request and response, and a description on every parameter', () => {
    for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Record<string, Any>))
      if (/json/.test(type)) expect(media.example, `request ${type}`).toBeDefined();
    for (const [status, r] of responses)
      for (const [type, media] of Object.entries((r.content ?? {}) as Record<string, Any>))
        if (/json/.test(type)) expect(media.example, `${status} ${type}`).toBeDefined();
    for (const p of op.parameters ?? []) expect(p.description, p.name).toBeTruthy();
  });

  it('declares the headers the server sends, and 405 with Allow', () => {
    for (const [status, r] of responses) {
      if (status === '201') expect(r.headers?.Location?.required, 'Location on 201').toBe(true);
      if (status === '202') {
        expect(r.headers?.Location?.required, 'Location on 202: where to poll').toBe(true);
        expect(r.headers?.['Retry-After'], 'Retry-After on 202').toBeDefined();
      }
      if (status === '304') expect(r.headers?.ETag?.required, 'ETag on 304').toBe(true);
      if (status === '401') expect(r.headers?.['WWW-Authenticate']?.required).toBe(true);
      if (status === '405') expect(r.headers?.Allow?.required).toBe(true);
      if (status === '503') expect(r.headers?.['Retry-After']?.required).toBe(true);
    }
    expect(op.responses['405'], 'every path answers other methods with 405').toBeDefined();
    if (op.responses['304']) {
      expect(op.responses['200'].headers.ETag.required).toBe(true);
      expect((op.parameters as Any[]).some((p) => p.name === 'If-None-Match')).toBe(true);
    }
    if (op.responses['409']?.description.includes('VERSION_CONFLICT'))
      expect(doc.components.schemas.Problem.properties.currentVersion).toBeDefined();
  });

  it('requires a PATCH body with at least one field, as a merge patch only', () => {
    if (method !== 'patch') return;
    expect(op.requestBody.required).toBe(true);
    expect(Object.keys(op.requestBody.content)).toEqual(['application/merge-patch+json']);
    expect(op.requestBody.content['application/merge-patch+json'].schema.minProperties).toBe(1);
  });
});

it('says what invoke refuses by shape: priced fields as a oneOf, amounts as bounded digits, times and keys formatted', () => {
  const s = doc.components.schemas as Any;
  expect(s.PricedFieldInput.oneOf).toHaveLength(2);
  for (const bad of ['12.50', '-5', '01', '1000000000000000'])
    expect(new RegExp(s.PriceAmount4.pattern).test(bad), bad).toBe(false);
  expect(s.Timestamp.format).toBe('date-time');
  const keys = operations.flatMap(([, , op]) => (op.parameters as Any[]).filter((p) => p.name === 'Idempotency-Key'));
  expect(keys.length).toBeGreaterThan(0);
  for (const k of keys) expect(k.schema.format).toBe('uuid');
  expect(doc.info.contact).toBeDefined();
});

it('documents operations: Retry-After while one works, and an act answered 202 says where to poll', () => {
  const poll = doc.paths['/v1/operations/{opId}'].get.responses['200'];
  expect(poll.headers['Retry-After']).toMatchObject({ required: false, schema: { pattern: '^[0-9]+$' } });
  // No /v1 act starts an operation yet (the file tools are MCP's): one declared like them answers 202 as documented.
  const act = defineAction({
    name: 'export_example',
    kind: 'resource',
    effect: 'mutation',
    domain: 'files',
    summary: 'Export a project (a test declaration).',
    description: 'Accepted as an operation.',
    scope: 'documents:write',
    keyed: true,
    startsOperation: true,
    input: z.strictObject({ projectId: ProjectId }),
    output: Operation,
    errors: ['NOT_FOUND'],
    http: { method: 'POST', path: '/projects/{projectId}/exports', status: 202 },
    example: { projectId: '0000000000000000000000000a' },
    handler: async () => {
      throw new Error('never run');
    },
  });
  const accepted = (buildOpenApiDocument([act]).paths as Any)['/v1/projects/{projectId}/exports'].post.responses['202'];
  expect(accepted.headers.Location).toMatchObject({ required: true });
  expect(accepted.headers.Location.description).toContain('/v1/operations/');
  expect(accepted.headers['Retry-After']).toMatchObject({ required: false });
});
