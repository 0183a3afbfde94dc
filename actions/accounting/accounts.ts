import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as accounts from '../../src/domain/accounting/accounts.js';
import { ACCOUNTING_BILLED_KINDS } from '../../db/vocabulary.js';

const Kind = z
  .enum(ACCOUNTING_BILLED_KINDS)
  .describe(
    'What is billed: goods (schedule lines), or a charge type (design_fee, time, reimbursable, disbursement, freight).',
  );

const Mappings = z.strictObject({
  mappings: z.array(z.strictObject({ kind: Kind, accountCode: z.string().nullable(), taxType: z.string().nullable() })),
});

export const listAccountingAccounts = defineAction({
  name: 'list_accounting_accounts',
  kind: 'procedure',
  effect: 'query',
  domain: 'accounting',
  summary: "Read the Xero organisation's chart of accounts and tax rates, and the studio's current mapping.",
  description:
    'Reads from Xero now (needs a connection: ACCOUNTING_NOT_CONNECTED otherwise): every account with a code (code, name, type such as REVENUE, its default tax type, status) and every tax rate (taxType, name, ratePercent as decimal text), both whole, plus which account and tax type each kind of thing billed goes to so far (null: not mapped). Choose revenue accounts from here for map_accounting_accounts.',
  intents: [
    'show our chart of accounts',
    'which xero accounts and tax rates do we have',
    'what account codes can invoices use',
  ],
  scope: 'accounting:manage',
  input: z.strictObject({}),
  output: z.strictObject({
    organisationName: z.string(),
    accounts: z.array(
      z.strictObject({
        code: z.string(),
        name: z.string(),
        type: z.string(),
        taxType: z.string().nullable(),
        status: z.string(),
      }),
    ),
    taxRates: z.array(
      z.strictObject({ taxType: z.string(), name: z.string(), ratePercent: z.string(), status: z.string() }),
    ),
    mappings: Mappings.shape.mappings,
  }),
  errors: ['ACCOUNTING_NOT_CONNECTED', 'ACCOUNTING_NOT_CONFIGURED', 'ACCOUNTING_PROVIDER_FAILED'],
  example: {},
  // Xero is asked before the read snapshot opens (a reader's connection never waits on the network).
  prepare: (env) => accounts.readChart(env),
  handler: async (ctx) => ({ ...(ctx.prepared as accounts.ChartOfAccounts), ...(await accounts.readMappings(ctx)) }),
});

export const mapAccountingAccounts = defineAction({
  name: 'map_accounting_accounts',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'accounting',
  summary: 'Say which Xero revenue account and tax type each kind of thing billed goes to.',
  description:
    "Sets, for the kinds you send (goods, design_fee, time, reimbursable, disbursement, freight), the revenue account code and tax type invoice lines of that kind are pushed with; kinds you leave out keep theirs. Both are checked against the organisation's chart read from Xero now (list_accounting_accounts shows it): an unknown, archived or non-revenue account, or an unknown tax type, is refused and nothing changes. Answers the whole mapping. push_invoice_to_accounting needs every kind it bills mapped.",
  intents: [
    'which account do design fees go to',
    'set the revenue accounts for invoices',
    'map freight to an account code',
  ],
  scope: 'accounting:manage',
  input: z.strictObject({
    mappings: z
      .array(
        z.strictObject({
          kind: Kind,
          accountCode: z.string().trim().min(1).max(10),
          taxType: z.string().trim().min(1).max(50),
        }),
      )
      .min(1)
      .max(ACCOUNTING_BILLED_KINDS.length)
      .refine((ms) => new Set(ms.map((m) => m.kind)).size === ms.length, 'Each kind at most once.'),
  }),
  output: Mappings,
  errors: ['ACCOUNTING_NOT_CONNECTED', 'ACCOUNTING_NOT_CONFIGURED', 'ACCOUNTING_PROVIDER_FAILED'],
  prepare: (env) => accounts.readChart(env),
  example: { mappings: [{ kind: 'design_fee', accountCode: '200', taxType: 'OUTPUT2' }] },
  handler: (ctx, input) => accounts.mapAccounts(ctx, input.mappings),
});
