/**
 * The demo studio's charges on Harbour House (made on a server's first start with the rest of the showcase): a design
 * fee, a month's hours and a recharged reimbursable, made through the real action, with their exact money.
 */
import { describe, expect, it } from 'vitest';
import { seedDemoCharges } from '../../src/seed/demo-charges.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';
import type { Trpc } from '../helpers/clients.js';

let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened));

describe('the demo charges', () => {
  it('bill Harbour House a design fee, hours and a reimbursable, each with 20 % VAT, audited', async () => {
    const ids = await seedDemoCharges(app.rt, app.token, app.projectId, new Date('2026-11-27T12:00:00Z'));
    const list = await owner.charges.listProjectCharges.query({ projectId: app.projectId });
    expect(list.items.map((c) => c.id).sort()).toEqual([...ids].sort());
    const shown = list.items.map((c) => [c.date, c.type, c.net!.amount4, c.tax!.amount4, c.gross!.amount4]);
    expect(shown).toEqual([
      ['2026-10-16', 'design_fee', '45000000', '9000000', '54000000'],
      // 186.40 × 1.125 = 209.70; VAT 41.94.
      ['2026-11-06', 'reimbursable', '2097000', '419400', '2516400'],
      // 7.5 h × 95.00 = 712.50; VAT 142.50.
      ['2026-11-20', 'time', '7125000', '1425000', '8550000'],
    ]);
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'project_charge' });
    expect(events.items.filter((e) => ids.includes(e.target.id!)).length).toBe(3);
  });
});
