import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { inProject } from '../kit/in-project.js';
import type { EnquiryItemValue } from './record.js';

/** An item as create_enquiry takes it: a schedule line (its quantity unless another is given), or a free-text item. */
export type ItemRequest =
  | { lineId: string; quantity?: { amount4: string } | undefined }
  | { description: string; details?: string | undefined; quantity: { amount4: string; unit?: string | undefined } };

/** The words a supplier needs to identify a line's product: brand, product code, finish, dimensions. */
function detailsOf(line: {
  brand: string | null;
  product_code: string | null;
  finish: string | null;
  dimensions: string | null;
}) {
  const parts = [line.brand, line.product_code, line.finish, line.dimensions].filter((p): p is string => !!p?.trim());
  return parts.length ? parts.join(' · ') : null;
}

/**
 * The enquiry's items, numbered from 1, each line's words and unit read as they are now (the enquiry says what was
 * asked, whatever the line becomes). A line of another project is NOT_FOUND; an archived line, or one named twice,
 * is refused.
 */
export async function itemsFrom(
  ctx: Pick<ActionContext, 'db' | 'queryRow'>,
  projectId: string,
  requests: readonly ItemRequest[],
): Promise<EnquiryItemValue[]> {
  const seen = new Set<string>();
  const items: EnquiryItemValue[] = [];
  for (const [i, req] of requests.entries()) {
    const number = i + 1;
    if (!('lineId' in req)) {
      items.push({
        number,
        lineId: null,
        code: null,
        description: req.description,
        details: req.details?.trim() || null,
        quantity: { amount4: req.quantity.amount4, unit: req.quantity.unit ?? 'each' },
      });
      continue;
    }
    if (seen.has(req.lineId)) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        `Item ${number} names a line already on the enquiry; name each line once.`,
        {
          errors: [{ path: `items.${i}.lineId`, message: 'Named twice.' }],
        },
      );
    }
    seen.add(req.lineId);
    const line = await inProject(ctx.db, 'lines', projectId, req.lineId);
    if (!line) throw new ServiceError('NOT_FOUND', `No line ${req.lineId} exists in this project.`);
    if (line.archived_at) {
      throw new ServiceError(
        'ARCHIVED',
        `Line ${line.code ?? line.heading} is archived; restore it (restore_schedule_line) or leave it out.`,
      );
    }
    const unit = await ctx.queryRow<{ symbol: string }>('SELECT symbol FROM units WHERE id = ?', line.unit_id);
    items.push({
      number,
      lineId: line.id,
      code: line.code,
      description: line.heading,
      details: detailsOf(line),
      quantity: { amount4: req.quantity?.amount4 ?? line.quantity4, unit: unit?.symbol ?? 'each' },
    });
  }
  return items;
}
