import type { LineRow } from '../domain/schedule/record.js';
import type { Db } from '../../db/store.js';
import { newId } from '../core/ids.js';
import { ENQUIRY_RECORD } from '../domain/enquiries/record.js';

/** The demo suppliers the open enquiry went to, with the addresses it went to (invented, like everything here). */
export const DEMO_SUPPLIER_EMAILS: Readonly<Record<string, string>> = {
  'Weft Rugs': 'trade@weftrugs.example',
  'Fold Workroom': 'orders@foldworkroom.example',
};

/** The lines the open enquiry asks about, by heading: the living room's rug and curtains. */
const ASKED = ['Hand-knotted wool rug', 'Curtains, full height'];

/**
 * One open enquiry on Harbour House: sent a day ago to the rug maker and the curtain workroom for prices and lead
 * times on the living room's rug and curtains, reply by a fortnight from now, no answer recorded yet. Rows as the
 * actions would leave them (the demo has no mail server to send through on its first start).
 */
export async function seedDemoEnquiry(
  tx: Db,
  at: {
    projectId: string;
    memberId: string;
    now: string;
    lines: readonly LineRow[];
    supplierIds: Map<string, string>;
    unitIds: Record<string, string>;
  },
) {
  const symbolOf = new Map(Object.entries(at.unitIds).map(([symbol, id]) => [id, symbol]));
  const asked = ASKED.map((heading) => at.lines.find((l) => l.heading === heading)!);
  const items = asked.map((l, i) => ({
    number: i + 1,
    lineId: l.id,
    code: l.code,
    description: l.heading,
    details: [l.brand, l.product_code, l.finish, l.dimensions].filter(Boolean).join(' · ') || null,
    quantity: { amount4: l.quantity4, unit: symbolOf.get(l.unit_id) ?? 'each' },
  }));
  const day = 24 * 60 * 60 * 1000;
  const sentAt = new Date(Date.parse(at.now) - day).toISOString();
  const row = ENQUIRY_RECORD.newRow(
    {
      title: 'Living room rug and curtains',
      message: 'We are finalising the living room scheme and would be grateful for your trade prices and lead times.',
      replyBy: new Date(Date.parse(at.now) + 14 * day).toISOString().slice(0, 10),
      state: 'sent',
      items,
      sentAt,
      createdBy: at.memberId,
    },
    { id: newId(), ownerId: at.projectId, now: sentAt },
  );
  await tx.insertInto('enquiries').values(row).execute();
  const suppliers = Object.entries(DEMO_SUPPLIER_EMAILS);
  await tx
    .insertInto('enquiry_recipients')
    .values(
      suppliers.map(([name, email], i) => ({
        enquiry_id: row.id,
        supplier_id: at.supplierIds.get(name)!,
        project_id: at.projectId,
        position: i + 1,
        email,
        mail_status: 'sent' as const,
        mail_error: null,
        message_id: `<${row.id}.${at.supplierIds.get(name)}@hartley-rowe.example>`,
        sent_at: sentAt,
      })),
    )
    .execute();
}
