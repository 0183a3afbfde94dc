import { LINE_RECORD, type LineRow } from '../domain/schedule/record.js';
import { newLineRow } from '../domain/schedule/line-record.js';
import type { Db } from '../../db/store.js';
import { CLIENT_RECORD } from '../domain/clients/record.js';
import { CODE_SCHEME_RECORD } from '../domain/codes/record.js';
import { SUPPLIER_RECORD } from '../domain/suppliers/record.js';
import { PROJECT_GRANT_RECORD } from '../domain/projects/grant-record.js';
import { DEMO_SUPPLIER_EMAILS, seedDemoEnquiry } from './demo-enquiry.js';
import type { Store } from '../../db/sqlite.js';
import { VALUE_STATES, type ValueState } from '../../db/vocabulary.js';
import { newId, nowIso } from '../core/ids.js';
import { hashPassword, madeUpPassword } from '../domain/people/passwords.js';
import { createStudioWithOwner, mintToken, type NewStudio } from '../domain/studio/onboarding.js';
import { DEMO_LINES, DEMO_SECTIONS, type DemoLine } from './demo-lines.js';
import { seedDemoLibraryAndTemplate } from './demo-library-template.js';
import { seedDemoSpecifications } from './demo-specifications.js';

export const DEMO_OWNER = { email: 'alex@hartley-rowe.example', name: 'Alex Hartley' };
export const DEMO_STUDIO: NewStudio = {
  name: 'Hartley & Rowe Interiors',
  currency: 'GBP',
  codePrefix: 'FF',
  defaultMarkup4: '3500',
};

/** The Harbour House client (invented, like everything in the demo). */
export const DEMO_CLIENT = {
  name: 'The Marsden family',
  email: 'marsden.family@example.com',
  phone: '+44 1548 000000',
  billingAddress: 'Harbour House\nCliff Road\nSalcombe TQ8 8JQ',
  notes: 'Prefer email; weekly site meetings on Thursdays.',
};

/** The demo studio's code schemes beside its default FF. */
export const DEMO_CODE_SCHEMES = [
  { prefix: 'LT', name: 'Lighting', keywords: ['Lighting'] },
  { prefix: 'UP', name: 'Upholstery', keywords: ['Upholstery'] },
] as const;

const isValueState = (v: string): v is ValueState => (VALUE_STATES as readonly string[]).includes(v);

/** A demo price: digits are a set amount, anything else names its value state. */
function priced(v: string | undefined): { state: ValueState; amount: string | null } {
  if (v === undefined) return { state: 'tbc', amount: null };
  if (/^\d+$/.test(v)) return { state: 'set', amount: v };
  if (isValueState(v)) return { state: v, amount: null };
  throw new Error(`The demo price ${v} is neither an amount nor a value state.`);
}

/**
 * Seeds the demo studio on an empty database: the owner (with a password for the sign-in page), their API token, the
 * client, the Harbour House project with its sections and lines (and one open supplier enquiry), a product library, a
 * project template and a few specifications on its lines. Returns the owner's token and password (each shown once) or
 * null when the database already had a studio.
 */
export async function seedDemo(
  store: Store,
): Promise<{ token: string; password: string; studioId: string; projectId: string } | null> {
  if (await store.readRow('SELECT id FROM studios LIMIT 1')) return null;
  // Hashed before the write transaction opens (scrypt takes a tenth of a second); the transaction checks again.
  const password = madeUpPassword();
  const passwordHash = await hashPassword(password);
  return store.write(async (tx) => {
    const any = await tx.selectFrom('studios').select('id').limit(1).executeTakeFirst();
    if (any) return null;
    const now = nowIso();
    const { studioId, userId, memberId, unitIds } = await createStudioWithOwner(tx, DEMO_STUDIO, DEMO_OWNER, now);
    await tx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: now })
      .where('id', '=', userId)
      .execute();
    const studio = { studioId, memberId, now };
    const clientId = await seedClientAndSchemes(tx, studio);
    const projectId = await seedProject(tx, studio, clientId);
    const sectionIds = await seedSections(tx, projectId, now);
    const supplierIds = await seedSuppliers(tx, studio);
    const lines = demoLineRows({ projectId, now, sectionIds, supplierIds, unitIds });
    await tx.insertInto('lines').values(lines).execute();
    await seedDemoEnquiry(tx, { projectId, memberId, now, lines, supplierIds, unitIds });
    await seedDemoLibraryAndTemplate(tx, { studioId, now, unitIds, supplierIds });
    await seedDemoSpecifications(tx, { studioId, projectId, now, lines });
    const { token } = await mintToken(tx, memberId, 'Demo owner token', now);
    return { token, password, studioId, projectId };
  });
}

/** The demo studio as each step sees it: its id, its owner's membership, the seeding's one timestamp. */
interface SeedingStudio {
  studioId: string;
  memberId: string;
  now: string;
}

/** The client, and the code schemes beside the default FF onboarding made. */
async function seedClientAndSchemes(tx: Db, { studioId, now }: SeedingStudio): Promise<string> {
  const clientId = newId();
  await tx
    .insertInto('clients')
    .values(CLIENT_RECORD.newRow(DEMO_CLIENT, { id: clientId, ownerId: studioId, now }))
    .execute();
  // Lighting and upholstery sections number apart. No demo section's title holds either keyword, so every demo line
  // keeps its FF code.
  await tx
    .insertInto('code_schemes')
    .values(
      DEMO_CODE_SCHEMES.map((c) =>
        CODE_SCHEME_RECORD.newRow({ ...c, keywords: [...c.keywords] }, { id: newId(), ownerId: studioId, now }),
      ),
    )
    .execute();
  return clientId;
}

/** Harbour House, for the client, granted to the owner as its creator. */
async function seedProject(tx: Db, { studioId, memberId, now }: SeedingStudio, clientId: string): Promise<string> {
  const projectId = newId();
  await tx
    .insertInto('projects')
    .values({
      id: projectId,
      studio_id: studioId,
      name: 'Harbour House',
      reference: 'HH-2026',
      client_id: clientId,
      client_name: DEMO_CLIENT.name,
      currency: 'GBP',
      default_markup4: null,
      status: 'active',
      archived_at: null,
      created_by: memberId,
      created_at: now,
      updated_at: now,
      version: 1,
    })
    .execute();
  await tx
    .insertInto('project_grants')
    .values(PROJECT_GRANT_RECORD.newRow({ memberId, level: 'edit' }, { ownerId: projectId, now }))
    .execute();
  return projectId;
}

/** The project's sections (rooms) in order; their ids by title. */
async function seedSections(tx: Db, projectId: string, now: string): Promise<Map<string, string>> {
  const sectionIds = new Map<string, string>();
  for (const [i, title] of DEMO_SECTIONS.entries()) {
    const id = newId();
    sectionIds.set(title, id);
    await tx
      .insertInto('sections')
      .values({
        id,
        project_id: projectId,
        title,
        position: i + 1,
        archived_at: null,
        created_at: now,
        updated_at: now,
        version: 1,
      })
      .execute();
  }
  return sectionIds;
}

/** One supplier per name the demo lines give; their ids by name. */
async function seedSuppliers(tx: Db, { studioId, now }: SeedingStudio): Promise<Map<string, string>> {
  const supplierIds = new Map<string, string>();
  for (const name of [...new Set(DEMO_LINES.map((l) => l.supplier))].sort()) {
    const id = newId();
    supplierIds.set(name, id);
    await tx
      .insertInto('suppliers')
      .values(
        SUPPLIER_RECORD.newRow({ name, email: DEMO_SUPPLIER_EMAILS[name] ?? null }, { id, ownerId: studioId, now }),
      )
      .execute();
  }
  return supplierIds;
}

/** The demo lines as rows: placed in their sections in order, coded FF-001 on, naming their supplier and unit. */
function demoLineRows(at: {
  projectId: string;
  now: string;
  sectionIds: Map<string, string>;
  supplierIds: Map<string, string>;
  unitIds: Record<string, string>;
}): LineRow[] {
  const { projectId, now, sectionIds, supplierIds, unitIds } = at;
  const positions = new Map<string, number>();
  return DEMO_LINES.map((l: DemoLine, i): LineRow => {
    const sectionId = sectionIds.get(l.section)!;
    const position = (positions.get(sectionId) ?? 0) + 1;
    positions.set(sectionId, position);
    const price = (v: string | undefined) => {
      const { state, amount } = priced(v);
      return { state, amount4: amount };
    };
    const cols = LINE_RECORD.patchColumns({
      description: l.description,
      status: l.status,
      supplierId: supplierIds.get(l.supplier)!,
      brand: l.brand,
      productCode: l.productCode ?? null,
      finish: l.finish ?? null,
      dimensions: l.dimensions ?? null,
      leadTimeDays: l.leadTimeDays ?? null,
      quantity: { amount4: l.quantity, unitId: unitIds[l.unit]! },
      markup: l.markup === undefined ? null : { ratio4: l.markup },
      tradePrice: price(l.trade),
      retailPrice: price(l.retail),
      clientPrice: l.client ? price(l.client) : null,
      deliveryPrice: price(l.delivery),
    });
    const place = {
      project_id: projectId,
      section_id: sectionId,
      position,
      code: `FF-${String(i + 1).padStart(3, '0')}`,
    };
    return newLineRow(place, { ...cols, heading: l.heading }, unitIds[l.unit]!, now);
  });
}
