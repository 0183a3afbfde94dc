/**
 * The one error catalog (src/core/errors.ts), checked against its machine-readable copy (openapi.json
 * `x-service-error-map`) in both directions, and its documentation (docs/errors.md) against what the builder writes,
 * with the number of codes pinned.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../actions/index.js';
import { allErrorsOf } from '../../src/core/action-errors.js';
import { ERROR_CATALOG, ERROR_CODES, problemBody, ServiceError, type ErrorCode } from '../../src/core/errors.js';
import { buildErrorsDoc } from '../../src/contract/errors-doc.js';
import { restErrorsOf } from '../../src/contract/rest-shape.js';
import { ROOT } from '../helpers/server.js';

type MapEntry = { status: number; title: string; sentence: string };
type Operation = {
  operationId: string;
  responses: Record<string, { description: string; content?: Record<string, unknown> }>;
};

const openapi = JSON.parse(readFileSync(join(ROOT, 'generated/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: { Problem: { properties: { code: { enum: string[] } } } } };
  'x-service-error-map': Record<string, MapEntry>;
};
const errorMap = openapi['x-service-error-map'];

describe('the error catalog', () => {
  it('has a pinned number of codes', () => {
    // Adding (or removing) a code is a deliberate act: update this number and run `npm run generate`.
    expect(ERROR_CODES.length).toBe(53);
  });

  it.each(ERROR_CODES)('%s has an error status, a title and an actionable sentence', (code) => {
    const e = ERROR_CATALOG[code];
    expect(code).toMatch(/^[A-Z]+(_[A-Z0-9]+)*$/);
    expect(e.status).toBeGreaterThanOrEqual(400);
    expect(e.status).toBeLessThan(600);
    expect(e.title.length).toBeGreaterThan(0);
    expect(e.sentence.length).toBeGreaterThanOrEqual(20);
    expect(e.sentence.endsWith('.')).toBe(true);
    // Conflicts are 409, never 412 (the specification says so).
    expect(e.status).not.toBe(412);
  });

  it('is kept in status order', () => {
    const statuses = ERROR_CODES.map((c) => ERROR_CATALOG[c].status);
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
  });

  it('answers as a problem body with its own status and code', () => {
    for (const code of ERROR_CODES) {
      const body = problemBody(new ServiceError(code), 'req');
      expect(body).toMatchObject({
        code,
        status: ERROR_CATALOG[code].status,
        detail: ERROR_CATALOG[code].sentence,
        title: ERROR_CATALOG[code].title,
      });
    }
  });
});

describe('catalog ⇄ tRPC status codes', () => {
  it.each(ERROR_CODES)('%s names the tRPC code whose HTTP status (tRPC 11 own table) is its status', (code) => {
    const { trpc, status } = ERROR_CATALOG[code];
    expect(getHTTPStatusCodeFromError(new TRPCError({ code: trpc }))).toBe(status);
  });
});

describe('catalog ⇄ openapi.json x-service-error-map', () => {
  it('every catalog code is in the map with the same status, title and sentence', () => {
    for (const code of ERROR_CODES) {
      expect(errorMap[code], `${code} missing from x-service-error-map; run npm run generate`).toEqual({
        status: ERROR_CATALOG[code].status,
        title: ERROR_CATALOG[code].title,
        sentence: ERROR_CATALOG[code].sentence,
      });
    }
  });

  it('every code in the map is in the catalog', () => {
    expect(Object.keys(errorMap).filter((c) => !(c in ERROR_CATALOG))).toEqual([]);
  });

  it('the Problem schema enumerates exactly the catalog codes', () => {
    expect([...openapi.components.schemas.Problem.properties.code.enum].sort()).toEqual([...ERROR_CODES].sort());
  });
});

describe('docs/errors.md', () => {
  it('is what the builder writes from the catalog (run npm run generate when it is not)', () => {
    expect(readFileSync(join(ROOT, 'docs/errors.md'), 'utf8')).toBe(buildErrorsDoc());
  });

  it('has a row for every catalog code', () => {
    const doc = buildErrorsDoc();
    for (const code of ERROR_CODES) expect(doc).toContain(`| \`${code}\` `);
  });
});

describe('problem responses per operation in openapi.json', () => {
  const operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
  );

  it('lists at least one operation', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  it.each(operations)(
    '%s names only catalog codes, each under its own status, and exactly the codes it can raise',
    (_route, op) => {
      const named: string[] = [];
      for (const [status, response] of Object.entries(op.responses)) {
        if (!response.content?.['application/problem+json']) continue;
        for (const code of response.description.split(',').map((s) => s.trim())) {
          expect(code in ERROR_CATALOG, `${code} (under ${status}) is not in the catalog`).toBe(true);
          expect(String(ERROR_CATALOG[code as ErrorCode].status), `${code} documented under ${status}`).toBe(status);
          named.push(code);
        }
      }
      const action = ACTIONS.find((a) => a.name === op.operationId);
      expect(action, `operationId ${op.operationId} is not an action`).toBeDefined();
      expect(named.sort()).toEqual([...restErrorsOf(action!)].sort());
      // REST names no code invoke could not raise, but for the refusals of the transport itself.
      const transport = new Set(['METHOD_NOT_ALLOWED', 'SERVER_BUSY', 'UNSUPPORTED_MEDIA_TYPE']);
      for (const code of named)
        if (!transport.has(code)) expect(allErrorsOf(action!).has(code as ErrorCode), code).toBe(true);
    },
  );
});
