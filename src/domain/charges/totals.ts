import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Currency } from '../../../db/vocabulary.js';
import { sumTaxed } from '../../core/taxed-lines.js';
import { chargeMoney } from './figures.js';

/**
 * A project's active charges summed as an invoice sums its lines: each charge's rounded net and tax, added. Charges
 * kept in another currency (made before the project's currency changed) cannot be added to these and are counted
 * apart.
 */
export async function chargeTotals(db: Kysely<Database>, projectId: string, currency: Currency) {
  const rows = await db
    .selectFrom('project_charges')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .execute();
  const same = rows.filter((r) => r.currency === currency);
  const sums = sumTaxed(same.map(chargeMoney));
  const money = (n: bigint) => ({ amount4: n.toString(), currency });
  return {
    count: same.length,
    net: money(sums.net4),
    tax: money(sums.tax4),
    gross: money(sums.gross4),
    otherCurrencyCount: rows.length - same.length,
  };
}
