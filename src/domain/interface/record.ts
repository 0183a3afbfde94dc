import { z } from 'zod';
import { INTERFACE_TABLES } from '../../../db/vocabulary.js';
import { refTo } from '../../core/schema-marks.js';
import { Id, named, ValueState } from '../../core/values.js';
import { CLIENT } from '../clients/entity.js';
import { asJson, defineRecord, field, orNull, type TableOf } from '../kit/record.js';
import { SUPPLIER } from '../suppliers/entity.js';
import { ALL_TABLE_FIELDS, ALL_TABLE_SORTS, ALL_TABLE_STATUSES, LIMITS } from './vocabulary.js';

export const InterfaceTable = z
  .enum(INTERFACE_TABLES)
  .describe(
    "A table of the studio's screens, named after its list action: schedule_lines (list_schedule_lines, one project's schedule), projects (list_studio_projects), suppliers (list_suppliers), clients (list_clients).",
  );
named(InterfaceTable, 'InterfaceTable');

export const TableField = z
  .enum(ALL_TABLE_FIELDS)
  .describe(
    "A built-in column, by the record's field name. schedule_lines: code, heading, description, section, status, supplier, brand, productCode, url, finish, dimensions, leadTimeDays, quantity, unit, markup, tradePrice, retailPrice, clientPrice, deliveryPrice, margin, clientTotal, photographs, createdAt, updatedAt; projects: name, reference, client, status, currency, createdAt, updatedAt; suppliers: name, email, phone, website, accountReference, lineCount, createdAt, updatedAt; clients: name, email, phone, billingAddress, createdAt, updatedAt.",
  );

/**
 * Filters as a view keeps them: each is a filter of the view's table's list action, under the same name. The ids in
 * them name records, so they are references (as actions/shared/refs.ts declares them): invoke proves them the caller's.
 */
export const ViewFilters = z
  .strictObject({
    status: z
      .enum(ALL_TABLE_STATUSES)
      .optional()
      .describe(
        'schedule_lines: draft, specified, approved, ordered, delivered, installed, on_hold; projects: active, archived.',
      ),
    priceState: ValueState.optional().describe('schedule_lines: lines with a price in this state.'),
    archived: z.enum(['exclude', 'include', 'only']).optional().describe('schedule_lines, suppliers, clients.'),
    q: z.string().trim().min(1).max(200).optional().describe('Text to find, as the list action finds it.'),
    supplierId: refTo(Id, SUPPLIER).optional().describe('schedule_lines: lines of this supplier.'),
    clientId: refTo(Id, CLIENT).optional().describe("projects: this client's projects."),
  })
  .describe(
    "The table's list filters, as its list action takes them (pass them on as they are): schedule_lines: status, supplierId, priceState, archived, q; projects: status, clientId, q; suppliers and clients: archived, q. The whole set: {} (the default) keeps none.",
  );
export type ViewFilterValues = z.output<typeof ViewFilters>;

export const ViewSort = z
  .enum(ALL_TABLE_SORTS)
  .describe(
    "One of the table's list sorts, '-' for descending: schedule_lines: code, heading, createdAt, updatedAt; projects: name, createdAt, updatedAt; suppliers and clients: name, createdAt.",
  );

export const ViewColumns = z
  .array(TableField)
  .max(LIMITS.columns)
  .describe("The built-in columns to show, in order; null: the table layout's.");

/**
 * A member's saved view of one table: its list filters, sort and columns, by name. Personal (owned by the member) and
 * deleted outright, so not archivable; its table is chosen once; its name also keeps a lower-cased key, unique among
 * the member's views of the table.
 */
export const SAVED_VIEW_RECORD = defineRecord({
  name: 'SavedView',
  description:
    "One of your saved views of a table: apply it by calling the table's list action with its filters and sort.",
  table: 'saved_views',
  owner: 'member',
  archivable: false,
  fields: {
    name: field(
      z
        .string()
        .trim()
        .min(1)
        .max(LIMITS.viewName)
        .describe('How the view is listed, e.g. "Prices to confirm"; unique among your views of the table, any case.'),
      {
        write: 'always',
        required: true,
        // Kept lower-cased beside the name too, for the unique index that makes names distinct whatever their case.
        columns: {
          toColumns: (name: string) => ({ name, name_key: name.toLowerCase() }),
          fromRow: (row: { name: string }) => row.name,
        },
      },
    ),
    table: field(InterfaceTable, { column: 'table_name', write: 'create', required: true }),
    filters: field(ViewFilters, { write: 'always', default: {}, codec: asJson<ViewFilterValues>() }),
    sort: field(ViewSort.nullable().describe("null (the default): the list's own order."), {
      write: 'always',
      default: null,
    }),
    columns: field(ViewColumns.nullable().describe("null (the default): the table layout's columns."), {
      write: 'always',
      default: null,
      codec: orNull(asJson<z.output<typeof ViewColumns>>()),
    }),
  },
});

export type SavedViewRow = TableOf<typeof SAVED_VIEW_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    saved_views: SavedViewRow;
  }
}
