/**
 * What the server sends to `PUT /Invoices`, checked against Xero's own schema with ajv. Prism in mock mode passes any
 * body there, even `{"Invoices":"nope"}`: Xero's Invoice schema is recursive through Payments and Prism gives up on it
 * without a word (test/contracts/xero/README.md). Every other path is validated by Prism itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import YAML from 'yaml';
import { CONTRACT_DIR } from './xero-world.js';

let validate: ValidateFunction | undefined;

function invoicesSchema(): ValidateFunction {
  const doc = YAML.parse(readFileSync(join(CONTRACT_DIR, 'xero_accounting.yaml'), 'utf8'));
  // OpenAPI 3.0 schemas: its own keywords (nullable, x-…) are not JSON Schema's, hence strict: false.
  const ajv = new Ajv({ strict: false, allErrors: true });
  (ajvFormats.default as unknown as (a: Ajv) => void)(ajv);
  // OpenAPI's numeric formats say how a number is stored, not a constraint on it.
  ajv.addFormat('double', true);
  ajv.addFormat('int32', true);
  ajv.addSchema({ $id: 'xero', components: doc.components });
  return ajv.getSchema('xero#/components/schemas/Invoices')!;
}

/** The ways `body` breaks Xero's `Invoices` schema, one line each; empty when it keeps to it. */
export function invoiceViolations(body: unknown): string[] {
  validate ??= invoicesSchema();
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`);
}
