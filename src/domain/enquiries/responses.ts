import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { LineRow } from '../schedule/record.js';
import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { inProject } from '../kit/in-project.js';
import { loadLine, writeLine } from '../schedule/lines.js';
import { getEnquiry, loadEnquiry, presentResponses, stateAfter, writeEnquiry } from './enquiries.js';
import { ENQUIRY_RESPONSE_RECORD, type EnquiryRow, itemsOf, linesOf, type ResponseLineValue } from './record.js';

/** One item as record_enquiry_response takes it. */
export interface ResponseLineRequest {
  item: number;
  tradePrice?: { amount4: string } | undefined;
  cannotSupply?: boolean | undefined;
  leadTimeDays?: number | null | undefined;
  validUntil?: string | null | undefined;
  note?: string | undefined;
}

export interface RecordResponseRequest {
  projectId: string;
  enquiryId: string;
  supplierId: string;
  lines: ResponseLineRequest[];
  note?: string | undefined;
}

const invalid = (path: string, sentence: string) =>
  new ServiceError('VALIDATION_FAILED', sentence, { errors: [{ path, message: sentence }] });

/** The response's lines, checked against the enquiry's items; each line's version kept to tell later changes. */
async function responseLines(
  ctx: Pick<ActionContext, 'db'>,
  enquiry: EnquiryRow,
  currency: Currency,
  sent: readonly ResponseLineRequest[],
): Promise<ResponseLineValue[]> {
  const seen = new Set<number>();
  const lines: ResponseLineValue[] = [];
  for (const [i, l] of sent.entries()) {
    const item = itemsOf(enquiry).find((it) => it.number === l.item);
    if (!item)
      throw invalid(
        `lines.${i}.item`,
        `The enquiry has no item ${l.item}; its items are numbered 1 to ${itemsOf(enquiry).length}.`,
      );
    if (seen.has(l.item)) throw invalid(`lines.${i}.item`, `Item ${l.item} is answered twice; give each item once.`);
    seen.add(l.item);
    if (!l.tradePrice === !l.cannotSupply) {
      throw invalid(
        `lines.${i}`,
        `Item ${l.item}: give either tradePrice or cannotSupply: true, not both and not neither.`,
      );
    }
    const line = item.lineId ? await inProject(ctx.db, 'lines', enquiry.project_id, item.lineId) : undefined;
    lines.push({
      item: l.item,
      lineId: item.lineId,
      cannotSupply: Boolean(l.cannotSupply),
      tradePrice: l.tradePrice ? { amount4: l.tradePrice.amount4, currency } : null,
      leadTimeDays: l.cannotSupply ? null : (l.leadTimeDays ?? null),
      validUntil: l.cannotSupply ? null : (l.validUntil ?? null),
      note: l.note ?? '',
      lineVersion: line?.version ?? null,
    });
  }
  return lines;
}

/** Whether every supplier the enquiry went to has answered at least once. */
async function allAnswered(db: Kysely<Database>, enquiryId: string, answering: string) {
  const waiting = await db
    .selectFrom('enquiry_recipients as r')
    .select('r.supplier_id')
    .where('r.enquiry_id', '=', enquiryId)
    .where('r.supplier_id', '!=', answering)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('enquiry_responses as x')
            .select('x.id')
            .whereRef('x.enquiry_id', '=', 'r.enquiry_id')
            .whereRef('x.supplier_id', '=', 'r.supplier_id'),
        ),
      ),
    )
    .execute();
  return waiting.length === 0;
}

/**
 * Appends a supplier's answer to a sent enquiry: per item a trade price or "cannot supply", a lead time, how long the
 * price holds, a note. The enquiry becomes partly_responded or, once every supplier has answered, responded.
 */
export async function recordResponse(ctx: ActionContext, req: RecordResponseRequest) {
  const before = await loadEnquiry(ctx, req.projectId, req.enquiryId);
  const asked = await ctx.db
    .selectFrom('enquiry_recipients')
    .select('supplier_id')
    .where('enquiry_id', '=', req.enquiryId)
    .where('supplier_id', '=', req.supplierId)
    .executeTakeFirst();
  if (!asked)
    throw invalid(
      'supplierId',
      'This supplier was not asked in this enquiry; get_enquiry lists the suppliers it went to.',
    );
  const state = stateAfter(before, {
    act: 'respond',
    allSuppliersAnswered: await allAnswered(ctx.db, before.id, req.supplierId),
  });
  const project = await ctx.queryRow<{ currency: Currency }>(
    'SELECT currency FROM projects WHERE id = ?',
    req.projectId,
  );
  const lines = await responseLines(ctx, before, project!.currency, req.lines);
  const row = ENQUIRY_RESPONSE_RECORD.newRow(
    { enquiryId: before.id, supplierId: req.supplierId, lines, note: req.note ?? '', recordedBy: ctx.caller!.memberId },
    { id: newId(), ownerId: req.projectId, now: ctx.now },
  );
  await ctx.db.insertInto('enquiry_responses').values(row).execute();
  const [response] = await presentResponses(ctx.db, [row]);
  ctx.audit({
    targetKind: 'enquiry_response',
    targetId: row.id,
    projectId: req.projectId,
    summary: `Recorded ${response!.supplierName}'s response to enquiry ${before.title} (${lines.length} item${lines.length === 1 ? '' : 's'})`,
    changes: { created: { from: null, to: { enquiryId: before.id, supplierId: req.supplierId } } },
  });
  const enquiry = await writeEnquiry(ctx, before, { state }, `Recorded a response to`);
  return { response: response!, enquiry };
}

/** What applying a response would write: the enquiry, the response, and each line it prices, as they are now. */
async function applicable(
  ctx: Pick<ActionContext, 'db' | 'queryRow'>,
  projectId: string,
  enquiryId: string,
  responseId: string,
) {
  const enquiry = await loadEnquiry(ctx, projectId, enquiryId);
  const response = await inProject(ctx.db, 'enquiry_responses', projectId, responseId);
  if (response?.enquiry_id !== enquiryId) {
    throw new ServiceError(
      'NOT_FOUND',
      `No response ${responseId} was recorded against this enquiry; get_enquiry lists its responses.`,
    );
  }
  if (response.applied_at) {
    throw new ServiceError(
      'ENQUIRY_WRONG_STATE',
      `Response ${responseId} was already applied (${response.applied_at}); a response is applied once. Record the supplier's new answer (record_enquiry_response) to apply it.`,
    );
  }
  const state = stateAfter(enquiry, { act: 'apply' });
  const [shown] = await presentResponses(ctx.db, [response]);
  const priced = linesOf(response).filter(
    (l) => l.lineId && !l.cannotSupply && (l.tradePrice || l.leadTimeDays !== null),
  );
  if (!priced.length) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'This response prices no schedule line (its items are free text or cannot be supplied), so there is nothing to apply.',
    );
  }
  const writes: Array<{ line: LineRow; answer: ResponseLineValue }> = [];
  for (const answer of priced) writes.push({ line: await loadLine(ctx, projectId, answer.lineId!), answer });
  const moved = writes.filter((w) => w.line.version !== w.answer.lineVersion || w.line.archived_at);
  if (moved.length) {
    const names = moved.map((w) => `${w.line.code ?? ''} ${w.line.heading}`.trim()).join(', ');
    throw new ServiceError(
      'VERSION_CONFLICT',
      `${moved.length === 1 ? 'Line' : 'Lines'} ${names} changed since this response was recorded, so nothing was applied: read ${moved.length === 1 ? 'it' : 'them'} (get_schedule_line), then record the supplier's answer again (record_enquiry_response) and apply that.`,
      { extra: { lineIds: moved.map((w) => w.line.id).join(',') } },
    );
  }
  return { enquiry, response, supplierName: shown!.supplierName, state, writes };
}

/** The question put to the person: which supplier's prices go onto which lines, and what follows from it. */
export async function applyQuestion(
  ctx: Pick<ActionContext, 'db' | 'queryRow'>,
  input: { projectId: string; enquiryId: string; responseId: string },
) {
  const { supplierName, writes } = await applicable(ctx, input.projectId, input.enquiryId, input.responseId);
  const names = writes.map((w) => `${w.line.code ?? ''} ${w.line.heading}`.trim());
  const shown = names.length > 6 ? `${names.slice(0, 6).join(', ')} and ${names.length - 6} more` : names.join(', ');
  return `Write ${supplierName}'s trade prices and lead times onto ${writes.length} schedule line${writes.length === 1 ? '' : 's'} (${shown})? Client prices derived from trade prices change with them.`;
}

/**
 * Writes the chosen response's trade prices and lead times onto its lines in this one transaction: each line through
 * the schedule's own versioned, audited write (so pricing derivation and the line's history stay one piece), its
 * history naming the enquiry and the response. The response is then applied (once) and the enquiry applied.
 */
export async function applyResponse(ctx: ActionContext, projectId: string, enquiryId: string, responseId: string) {
  const { enquiry, response, supplierName, state, writes } = await applicable(ctx, projectId, enquiryId, responseId);
  const from = `From enquiry "${enquiry.title}" (${enquiry.id}), response ${response.id} by ${supplierName}:`;
  const lines = [];
  for (const { line, answer } of writes) {
    const cols = {
      ...(answer.tradePrice ? { trade_state: 'set' as const, trade4: answer.tradePrice.amount4 } : {}),
      ...(answer.leadTimeDays !== null ? { lead_time_days: answer.leadTimeDays } : {}),
    };
    lines.push(await writeLine(ctx, line, cols, `${from} updated`));
  }
  await ctx.db
    .updateTable('enquiry_responses')
    .set({ applied_at: ctx.now, applied_by: ctx.caller!.memberId, version: response.version + 1, updated_at: ctx.now })
    .where('id', '=', response.id)
    .where('applied_at', 'is', null)
    .execute();
  ctx.audit({
    targetKind: 'enquiry_response',
    targetId: response.id,
    projectId,
    summary: `Applied ${supplierName}'s response to enquiry ${enquiry.title} onto ${lines.length} line${lines.length === 1 ? '' : 's'}`,
    changes: { appliedTo: { from: null, to: lines.map((l) => l.id) } },
  });
  await writeEnquiry(ctx, enquiry, { state }, 'Applied a response of');
  const { responses, ...after } = await getEnquiry(ctx, projectId, enquiryId);
  return { enquiry: after, response: responses.find((r) => r.id === responseId)!, lines };
}
