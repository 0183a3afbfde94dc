import { z } from 'zod';
import type { ActionContext } from '../../core/context.js';
import type { PrepareEnv } from '../../core/define-action.js';
import { ServiceError } from '../../core/errors.js';
import { ACCOUNTING_BILLED_KINDS, type AccountingBilledKind } from '../../../db/vocabulary.js';
import { answerOf, openXero, providerFailure } from './xero-api.js';

export interface AccountingAccountMappingsTable {
  studio_id: string;
  charge_type: string;
  account_code: string;
  tax_type: string;
  updated_at: string;
}
declare module '../../../db/schema.js' {
  interface Database {
    accounting_account_mappings: AccountingAccountMappingsTable;
  }
}

/** The fields read from Xero's answers (its schemas make almost every field optional). */
const AccountsAnswer = z.looseObject({
  Accounts: z
    .array(
      z.looseObject({
        Code: z.string().optional(),
        Name: z.string().default(''),
        Type: z.string().default(''),
        TaxType: z.string().optional(),
        Status: z.string().default('ACTIVE'),
      }),
    )
    .default([]),
});
const TaxRatesAnswer = z.looseObject({
  TaxRates: z
    .array(
      z.looseObject({
        TaxType: z.string().optional(),
        Name: z.string().default(''),
        EffectiveRate: z.number().optional(),
        DisplayTaxRate: z.number().optional(),
        Status: z.string().default('ACTIVE'),
      }),
    )
    .default([]),
});

export interface ChartOfAccounts {
  organisationName: string;
  accounts: { code: string; name: string; type: string; taxType: string | null; status: string }[];
  taxRates: { taxType: string; name: string; ratePercent: string; status: string }[];
}

/** The chart of accounts (those with a code) and the tax rates, read from the studio's Xero organisation. */
export async function readChart(env: PrepareEnv): Promise<ChartOfAccounts> {
  const xero = await openXero(env.config, env.studioId!, env.store);
  try {
    const accounts = answerOf(AccountsAnswer, await xero.call({ method: 'GET', path: '/Accounts' }));
    const taxRates = answerOf(TaxRatesAnswer, await xero.call({ method: 'GET', path: '/TaxRates' }));
    return {
      organisationName: xero.tenantName,
      accounts: accounts.Accounts.flatMap((a) =>
        a.Code ? [{ code: a.Code, name: a.Name, type: a.Type, taxType: a.TaxType ?? null, status: a.Status }] : [],
      ),
      taxRates: taxRates.TaxRates.flatMap((t) =>
        t.TaxType
          ? [
              {
                taxType: t.TaxType,
                name: t.Name,
                // Xero answers the rate as a JSON number; it is passed on as the decimal text it wrote.
                ratePercent: String(t.EffectiveRate ?? t.DisplayTaxRate ?? 0),
                status: t.Status,
              },
            ]
          : [],
      ),
    };
  } catch (err) {
    return providerFailure(err);
  }
}

export interface Mapping {
  kind: AccountingBilledKind;
  accountCode: string;
  taxType: string;
}

export async function readMappings(ctx: Pick<ActionContext, 'db' | 'studioId'>) {
  const rows = await ctx.db
    .selectFrom('accounting_account_mappings')
    .selectAll()
    .where('studio_id', '=', ctx.studioId)
    .execute();
  const byKind = new Map(rows.map((r) => [r.charge_type, r]));
  return {
    mappings: ACCOUNTING_BILLED_KINDS.map((kind) => {
      const r = byKind.get(kind);
      return { kind, accountCode: r?.account_code ?? null, taxType: r?.tax_type ?? null };
    }),
  };
}

/**
 * Keeps which revenue account and tax type each kind goes to, after checking both against the organisation's chart
 * (read before the transaction): an unknown or archived code, or an account that is not revenue, is refused.
 */
export async function mapAccounts(ctx: ActionContext, mappings: Mapping[]) {
  const chart = ctx.prepared as ChartOfAccounts;
  for (const m of mappings) {
    const account = chart.accounts.find((a) => a.code === m.accountCode && a.status === 'ACTIVE');
    if (!account || !['REVENUE', 'SALES', 'OTHERINCOME'].includes(account.type)) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        `${m.accountCode} is not an active revenue account in ${chart.organisationName}; choose one from list_accounting_accounts.`,
      );
    }
    if (!chart.taxRates.some((t) => t.taxType === m.taxType && t.status === 'ACTIVE')) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        `${m.taxType} is not an active tax rate in ${chart.organisationName}; choose one from list_accounting_accounts.`,
      );
    }
  }
  for (const m of mappings) {
    await ctx.db
      .deleteFrom('accounting_account_mappings')
      .where('studio_id', '=', ctx.studioId)
      .where('charge_type', '=', m.kind)
      .execute();
    await ctx.db
      .insertInto('accounting_account_mappings')
      .values({
        studio_id: ctx.studioId,
        charge_type: m.kind,
        account_code: m.accountCode,
        tax_type: m.taxType,
        updated_at: ctx.now,
      })
      .execute();
  }
  ctx.audit({
    targetKind: 'accounting_connection',
    targetId: ctx.studioId,
    summary: `Mapped ${mappings.map((m) => `${m.kind} to ${m.accountCode} (${m.taxType})`).join(', ')}`,
  });
  return readMappings(ctx);
}
