/**
 * `npx tsx bench/present-line.ts`: presentLine over a 450-line project, the mapping a list of 450 and GET one line
 * run (no store, no HTTP), so a change to how a row becomes a record is measured on its own. The rows are the demo
 * schedule's (src/seed/demo-lines.ts) repeated to 450, each as its columns; names, values and ordering come from a
 * presentation that has them at hand, as `know` leaves it. Prints µs per 450-line list (median of rounds) and the
 * digest of the presented JSON, which a change to the mapping must leave as it was.
 */
import { createHash } from 'node:crypto';
import { DEMO_LINES } from '../src/seed/demo-lines.js';
import { type LinePresentation, presentLine } from '../src/domain/schedule/line-record.js';
import { NOT_ORDERED } from '../src/domain/purchase-orders/on-lines.js';
import { SUPPLIER_RECORD } from '../src/domain/suppliers/record.js';

const LINES = 450;
const ROUNDS = Number(process.env.ROUNDS ?? 400);
const state = (v: string | undefined) => (v === undefined ? 'tbc' : /^\d+$/.test(v) ? 'set' : v) as 'set' | 'tbc';
const amount = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? v : null);

const rows = Array.from({ length: LINES }, (_, i) => {
  const d = DEMO_LINES[i % DEMO_LINES.length]!;
  const id = `01J${String(i).padStart(23, '0')}`;
  return {
    id,
    project_id: '01JPROJECT0000000000000000',
    section_id: `01JSECTION${String(i % 7).padStart(16, '0')}`,
    position: i + 1,
    code: i % 5 === 0 ? null : `FF-${String(i + 1).padStart(3, '0')}`,
    heading: d.heading,
    description: d.description,
    status: d.status,
    supplier_id: i % 9 === 0 ? null : `01JSUPPLIER${String(i % 6).padStart(15, '0')}`,
    brand: d.brand,
    product_code: d.productCode ?? null,
    url: i % 3 === 0 ? `https://example.com/p/${i}` : null,
    finish: d.finish ?? null,
    dimensions: d.dimensions ?? null,
    lead_time_days: d.leadTimeDays ?? null,
    quantity4: d.quantity,
    unit_id: `01JUNIT${d.unit.length}`.padEnd(26, '0'),
    markup4: d.markup ?? null,
    trade_state: state(d.trade),
    trade4: amount(d.trade),
    retail_state: state(d.retail),
    retail4: amount(d.retail),
    client_state: d.client === undefined ? null : state(d.client),
    client4: amount(d.client),
    delivery_state: state(d.delivery),
    delivery4: amount(d.delivery),
    created_at: '2026-11-01T09:00:00.000Z',
    updated_at: '2026-11-02T10:30:00.000Z',
    archived_at: null,
    version: 1 + (i % 4),
  };
});

const values = [{ propertyId: '01JPROPERTY000000000000000', name: 'Fire rating', value: 'BS 5852' }];
const presentation: LinePresentation = {
  currency: 'GBP',
  defaultMarkup4: '3500',
  know: async () => {},
  supplierName: (id) => `Supplier ${id.slice(-1)}`,
  unitName: (id) => (id.endsWith('0') ? 'each' : 'm²'),
  propertiesOf: (id) => (id.endsWith('3') ? values : []),
  specificationsOf: () => [],
  orderingOf: () => NOT_ORDERED,
};

// A record presented by the kit alone (a supplier), to see what the kit's presenter costs every other record.
const suppliers = rows.map((r) => ({
  id: r.id,
  studio_id: '01JSTUDIO00000000000000000',
  name: r.brand,
  email: null,
  phone: null,
  website: r.url,
  account_reference: r.code,
  notes: r.description,
  version: r.version,
  created_at: r.created_at,
  updated_at: r.updated_at,
  archived_at: null,
}));

function measure(what: string, presentAll: () => unknown[]) {
  const digest = createHash('sha256').update(JSON.stringify(presentAll())).digest('hex').slice(0, 16);
  for (let i = 0; i < 200; i++) presentAll();
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    presentAll();
    times.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.floor(q * (times.length - 1))]!.toFixed(1);
  console.log(`${what} × ${LINES}: p50 ${at(0.5)} µs, p90 ${at(0.9)} µs (${ROUNDS} rounds); JSON ${digest}`);
}

measure('presentLine', () => rows.map((r) => presentLine(r as never, presentation)));
measure('SUPPLIER_RECORD.present', () => suppliers.map((r) => SUPPLIER_RECORD.present(r, { lineCount: 3 })));
