import type { Trpc } from '../helpers/clients.js';
import { settledOperation } from '../helpers/calls.js';
import { uuid } from '../helpers/ids.js';

/**
 * What the enquiry suites start from: suppliers of their own (two with addresses, one without) and a few of the demo
 * project's priced lines, so each suite asks about real schedule lines through the API.
 */
export async function enquirySetting(owner: Trpc, projectId: string, tag: string) {
  const supplier = (name: string, email?: string) =>
    owner.suppliers.createSupplier.mutate({ name: `${tag} ${name}`, ...(email ? { email } : {}), commandKey: uuid() });
  const fabrics = await supplier('Fabrics', `fabrics@${tag.toLowerCase()}.example`);
  const frames = await supplier('Frames', `frames@${tag.toLowerCase()}.example`);
  const unaddressed = await supplier('Unaddressed');
  const lines = (await owner.schedule.listScheduleLines.query({ projectId })).items;
  return { fabrics, frames, unaddressed, lines };
}

/** A draft enquiry about the given lines (and one free-text item) to the given suppliers. */
export function draftEnquiry(
  owner: Trpc,
  projectId: string,
  supplierIds: string[],
  lineIds: string[],
  extra: { title?: string; message?: string } = {},
) {
  return owner.enquiries.createEnquiry.mutate({
    projectId,
    title: extra.title ?? 'Living room upholstery',
    message: extra.message ?? 'We would be grateful for your best trade prices.',
    replyBy: '2026-12-04',
    supplierIds,
    items: [
      ...lineIds.map((lineId) => ({ lineId })),
      { description: 'Linen cushion, 50 × 50 cm', details: 'Natural', quantity: { amount4: '40000' } },
    ],
    commandKey: uuid(),
  });
}

/** Sends an enquiry and follows its operation to the end; answers the operation and the enquiry as it then is. */
export async function sendAndSettle(owner: Trpc, projectId: string, enquiryId: string) {
  const { version } = await owner.enquiries.getEnquiry.query({ projectId, enquiryId });
  const op = await owner.enquiries.sendEnquiry.mutate({ projectId, enquiryId, expectedVersion: version });
  const settled = await settledOperation(owner, op.id);
  return { op: settled, enquiry: await owner.enquiries.getEnquiry.query({ projectId, enquiryId }) };
}

/** Records a supplier's answer: a price for each line item, cannot supply for the free-text one. */
export function answer(owner: Trpc, projectId: string, enquiryId: string, supplierId: string, prices: string[]) {
  return owner.enquiries.recordEnquiryResponse.mutate({
    projectId,
    enquiryId,
    supplierId,
    lines: [
      ...prices.map((amount4, i) => ({
        item: i + 1,
        tradePrice: { amount4 },
        leadTimeDays: 21 + i,
        validUntil: '2027-01-31',
      })),
      { item: prices.length + 1, cannotSupply: true, note: 'Not a line we carry.' },
    ],
    note: 'Carriage paid over £500.',
    commandKey: uuid(),
  });
}
