import { z } from 'zod';
import { PROJECT_STATUSES } from '../../../db/vocabulary.js';
import { priced, refTo } from '../../core/schema-marks.js';
import { Currency, Id, Markup, Ratio } from '../../core/values.js';
import { CLIENT } from '../clients/entity.js';
import { defineRecord, field, type TableOf } from '../kit/record.js';

/** A project row with its linked client's current name beside it (null when none is linked), as a read joins it. */
type ClientNameColumns = { client_id: string | null; client_name: string | null; linked_client_name?: string | null };

/**
 * A job. Its client is named two ways: clientId links a client record, whose current name the project shows as
 * clientName (so renaming a client shows on its projects at once); without one, clientName is the plain label the
 * project was given (older callers' way). The presenter reads the linked name from `linked_client_name`, beside the
 * row, when the read joined it.
 */
export const PROJECT_RECORD = defineRecord({
  name: 'Project',
  description: 'A job.',
  table: 'projects',
  owner: 'studio',
  archivable: true,
  fields: {
    // Names and references are stored as sent; a duplicate's "(copy)" may pass the input bound, so the output has none.
    name: field(z.string().trim().min(1).max(200), { write: 'always', required: true, output: z.string() }),
    reference: field(z.string().max(60).nullable(), {
      write: 'always',
      output: z.string().nullable().describe("The studio's job reference."),
    }),
    clientId: field(refTo(Id, CLIENT).nullable().describe("One of the studio's clients (list_clients); null: none."), {
      write: 'always',
      output: Id.nullable().describe('The client record the project is for (get_client); null when none is linked.'),
    }),
    clientName: field(
      z
        .string()
        .max(200)
        .nullable()
        .describe("Older callers' way: a plain label when no client is linked. Prefer clientId."),
      {
        write: 'always',
        output: z
          .string()
          .nullable()
          .describe(
            "The linked client's current name; without a linked client, the plain label the project was given.",
          ),
        columns: {
          toColumns: (name: string | null) => ({ client_name: name }),
          fromRow: (row: ClientNameColumns) =>
            row.client_id ? (row.linked_client_name ?? row.client_name) : row.client_name,
        },
      },
    ),
    currency: field(Currency, { write: 'always' }),
    defaultMarkup: field(priced(Markup).nullable().describe('Needs pricing:write. Null: the studio default applies.'), {
      write: 'always',
      column: 'default_markup4',
      output: priced(Ratio).nullable().optional().describe('Needs pricing:read. Null: the studio default applies.'),
      codec: {
        toColumn: (m: { ratio4: string } | null) => m?.ratio4 ?? null,
        fromColumn: (c: unknown) => (c === null ? null : { ratio4: c as string }),
      },
    }),
    status: field(z.enum(PROJECT_STATUSES), { default: 'active' }),
    createdBy: field(Id, { hidden: true }),
  },
});

export type ProjectRow = TableOf<typeof PROJECT_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    projects: ProjectRow;
  }
}
