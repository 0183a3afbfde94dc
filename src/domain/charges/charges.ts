import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { whereArchived } from '../kit/filters.js';
import { inProject } from '../kit/in-project.js';
import { namedSorts } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, projectScope } from '../kit/listing.js';
import { z } from 'zod';
import { figuresOf } from '../kit/line-money.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { assertFiguresFit, chargeMoney } from './figures.js';
import { CalendarDate, ChargeType, PROJECT_CHARGE_RECORD, type ProjectChargeRow } from './record.js';

type Fields = typeof PROJECT_CHARGE_RECORD.spec.fields;

/** A charge as the API shows it: its figures, and its net, tax and gross worked out from them. */
export const presentCharge = (row: ProjectChargeRow) =>
  PROJECT_CHARGE_RECORD.present(row, figuresOf(chargeMoney(row), row.currency));

export const CHARGE_SORTS = namedSorts(
  {
    date: { column: 'project_charges.charge_date' },
    createdAt: { column: 'project_charges.created_at' },
  },
  { column: 'project_charges.id' },
);

export const CHARGE_LISTING = defineListing({
  filters: {
    ...projectScope,
    type: ChargeType.optional(),
    invoiced: z.boolean().optional().describe('true: only invoiced charges; false: only those not invoiced yet.'),
    dateFrom: CalendarDate.optional().describe('Charges dated on or after this day, YYYY-MM-DD.'),
    dateTo: CalendarDate.optional().describe('Charges dated on or before this day, YYYY-MM-DD.'),
    archived: archivedFilter('charges'),
  },
  sorts: CHARGE_SORTS,
  defaultSort: 'date',
});

/** A project's charges by date (or as `sort` says), filtered; archived ones only when asked. */
export async function listCharges(ctx: ActionContext, query: ListingQuery<typeof CHARGE_LISTING>) {
  let qb = ctx.db.selectFrom('project_charges').selectAll().where('project_id', '=', query.projectId);
  qb = whereArchived(qb, 'project_charges.archived_at', query.archived);
  if (query.type) qb = qb.where('type', '=', query.type);
  if (query.invoiced !== undefined) qb = qb.where('invoiced_at', query.invoiced ? 'is not' : 'is', null);
  if (query.dateFrom) qb = qb.where('charge_date', '>=', query.dateFrom);
  if (query.dateTo) qb = qb.where('charge_date', '<=', query.dateTo);
  const { rows, nextCursor } = await CHARGE_LISTING.page(qb, query);
  return { items: rows.map(presentCharge), nextCursor };
}

async function loadCharge(ctx: Pick<ActionContext, 'db'>, projectId: string, chargeId: string) {
  const row = await inProject(ctx.db, 'project_charges', projectId, chargeId);
  if (!row) throw new ServiceError('NOT_FOUND', `No charge ${chargeId} exists in this project.`);
  return row;
}

export async function getCharge(ctx: ActionContext, projectId: string, chargeId: string) {
  return presentCharge(await loadCharge(ctx, projectId, chargeId));
}

export type CreateChargeInput = CreateFields<Fields> & { projectId: string };

/** A new charge in its project's currency, its tax rate the studio's unless one is sent, dated today unless sent. */
export async function createCharge(ctx: ActionContext, { projectId, ...sent }: CreateChargeInput) {
  const project = await ctx.db
    .selectFrom('projects')
    .innerJoin('studios', 'studios.id', 'projects.studio_id')
    .select(['projects.currency', 'studios.tax_rate4'])
    .where('projects.id', '=', projectId)
    .executeTakeFirstOrThrow();
  const row = PROJECT_CHARGE_RECORD.newRow(
    {
      ...sent,
      date: sent.date ?? ctx.now.slice(0, 10),
      taxRate: sent.taxRate ?? { ratio4: project.tax_rate4 },
      currency: project.currency,
    },
    { id: newId(), ownerId: projectId, now: ctx.now },
  );
  assertFiguresFit(row);
  await ctx.db.insertInto('project_charges').values(row).execute();
  ctx.audit({
    targetKind: 'project_charge',
    targetId: row.id,
    projectId,
    summary: `Added charge ${row.description}`,
    changes: { created: { from: null, to: row.description } },
  });
  return presentCharge(row);
}

/** An invoiced charge is on a document the client holds: it never changes again, whatever is asked. */
function assertNotInvoiced(row: ProjectChargeRow) {
  if (row.invoiced_at) {
    const on = row.invoice_reference ? ` (invoice ${row.invoice_reference})` : '';
    throw new ServiceError(
      'CHARGE_INVOICED',
      `The charge "${row.description}" was invoiced${on} on ${row.invoiced_at.slice(0, 10)}, so it cannot change or be archived; raise a new charge (create_project_charge) to bill more, or a credit note in the accounting system to bill less.`,
    );
  }
}

/** Writes a charge's columns through the one version-checked update, auditing what changed in API terms. */
function writeCharge(ctx: ActionContext, before: ProjectChargeRow, cols: Partial<ProjectChargeRow>, verb: string) {
  return versionedUpdate(ctx, 'project_charges', before, cols, {
    present: presentCharge,
    audit: (after) => ({
      targetKind: 'project_charge',
      projectId: after.project_id,
      summary: `${verb} charge ${after.description}`,
    }),
  });
}

export async function updateCharge(
  ctx: ActionContext,
  projectId: string,
  chargeId: string,
  patch: PatchFields<Fields>,
) {
  const before = await loadCharge(ctx, projectId, chargeId);
  assertNotInvoiced(before);
  if (before.archived_at) {
    throw new ServiceError(
      'ARCHIVED',
      'This charge is archived and no longer billed, so it does not change; create a new charge instead.',
    );
  }
  const cols = PROJECT_CHARGE_RECORD.patchColumns(patch);
  if (!Object.keys(cols).length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change.', {
      errors: [{ path: '(input)', message: 'Nothing to change.' }],
    });
  }
  assertFiguresFit({ ...before, ...cols });
  return writeCharge(ctx, before, cols, 'Updated');
}

/** Archives a charge: it is no longer billed, and stays readable (archived: include or only). */
export async function archiveCharge(ctx: ActionContext, projectId: string, chargeId: string) {
  const before = await loadCharge(ctx, projectId, chargeId);
  assertNotInvoiced(before);
  if (before.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This charge is already archived.');
  return writeCharge(ctx, before, { archived_at: ctx.now }, 'Archived');
}
