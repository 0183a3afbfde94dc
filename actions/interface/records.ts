import { z } from 'zod';
import { INSPECTOR_RECORDS, INTERFACE_TABLES } from '../../db/vocabulary.js';
import {
  ALL_INSPECTOR_PANELS,
  ALL_TABLE_FIELDS,
  ALL_TABLE_SORTS,
  ALL_TABLE_STATUSES,
  LIMITS,
  SIDEBAR_GROUPS,
} from '../../src/domain/interface/vocabulary.js';
import { DENSITIES } from '../../src/domain/interface/table-layouts.js';
import { ClientId, CustomPropertyId, SupplierId } from '../shared/refs.js';
import { Id, named, Timestamp, ValueState } from '../../src/core/values.js';

/** The shapes of interface state: saved views, table and inspector layouts, the sidebar. */

export const InterfaceTable = z
  .enum(INTERFACE_TABLES)
  .describe(
    "A table of the studio's screens, named after its list action: schedule_lines (list_schedule_lines, one project's schedule), projects (list_studio_projects), suppliers (list_suppliers), clients (list_clients).",
  );
named(InterfaceTable, 'InterfaceTable');

export const InspectorRecord = z
  .enum(INSPECTOR_RECORDS)
  .describe('The kind of record the inspector shows: schedule_line, project, supplier or client.');
named(InspectorRecord, 'InspectorRecord');

export const TableField = z
  .enum(ALL_TABLE_FIELDS)
  .describe(
    "A built-in column, by the record's field name. schedule_lines: code, heading, description, section, status, supplier, brand, productCode, url, finish, dimensions, leadTimeDays, quantity, unit, markup, tradePrice, retailPrice, clientPrice, deliveryPrice, margin, clientTotal, photographs, createdAt, updatedAt; projects: name, reference, client, status, currency, createdAt, updatedAt; suppliers: name, email, phone, website, accountReference, lineCount, createdAt, updatedAt; clients: name, email, phone, billingAddress, createdAt, updatedAt.",
  );

const Name = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.viewName)
  .describe('How the view is listed, e.g. "Prices to confirm"; unique among your views of the table, any case.');

const filterFields = {
  status: z
    .enum(ALL_TABLE_STATUSES)
    .optional()
    .describe(
      'schedule_lines: draft, specified, approved, ordered, delivered, installed, on_hold; projects: active, archived.',
    ),
  priceState: ValueState.optional().describe('schedule_lines: lines with a price in this state.'),
  archived: z.enum(['exclude', 'include', 'only']).optional().describe('schedule_lines, suppliers, clients.'),
  q: z.string().trim().min(1).max(200).optional().describe('Text to find, as the list action finds it.'),
};

/** Filters as a view is saved with them: each is a filter of the view's table's list action, under the same name. */
export const ViewFilters = z
  .strictObject({
    ...filterFields,
    supplierId: SupplierId.optional().describe('schedule_lines: lines of this supplier.'),
    clientId: ClientId.optional().describe("projects: this client's projects."),
  })
  .describe(
    "The table's list filters to keep, as its list action takes them: schedule_lines: status, supplierId, priceState, archived, q; projects: status, clientId, q; suppliers and clients: archived, q.",
  );

const ShownFilters = z
  .strictObject({ ...filterFields, supplierId: Id.optional(), clientId: Id.optional() })
  .describe("The table's list filters, to pass to its list action as they are.");

export const ViewSort = z
  .enum(ALL_TABLE_SORTS)
  .describe(
    "One of the table's list sorts, '-' for descending: schedule_lines: code, heading, createdAt, updatedAt; projects: name, createdAt, updatedAt; suppliers and clients: name, createdAt.",
  );

export const ViewColumns = z
  .array(TableField)
  .max(LIMITS.columns)
  .describe("The built-in columns to show, in order; null: the table layout's.");

export const SavedView = z
  .strictObject({
    id: Id,
    name: z.string(),
    table: InterfaceTable,
    filters: ShownFilters,
    sort: ViewSort.nullable().describe("null: the list's own order."),
    columns: z.array(TableField).nullable().describe("null: the table layout's columns."),
    version: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe(
    "One of your saved views of a table: apply it by calling the table's list action with its filters and sort.",
  );
named(SavedView, 'SavedView');

export const ViewFields = { name: Name, filters: ViewFilters, sort: ViewSort, columns: ViewColumns };

const Width = z.int().min(LIMITS.width.min).max(LIMITS.width.max).describe('In CSS pixels.');
const Density = z.enum(DENSITIES).describe('Row spacing: comfortable or compact.');
const FrozenColumns = z
  .int()
  .min(0)
  .max(LIMITS.frozenColumns)
  .describe('How many leftmost columns stay in view when the table scrolls sideways.');

export const LayoutColumnInput = z
  .strictObject({
    field: TableField.optional().describe('A built-in column of the table (give this or propertyId).'),
    propertyId: CustomPropertyId.optional().describe(
      'A custom property of the project (schedule_lines with projectId only; give this or field).',
    ),
    width: Width,
  })
  .describe('One column, left to right: a built-in one by field, or a custom property by propertyId.');

export const TableLayoutFields = {
  columns: z.array(LayoutColumnInput).min(1).max(LIMITS.columns).describe('The whole list, left to right.'),
  frozenColumns: FrozenColumns,
  density: Density,
};

const Source = z
  .enum(['saved', 'all_projects', 'built_in'])
  .describe(
    'saved: this layout as you saved it; all_projects: your layout for every project, as this project has none of its own; built_in: the default, as you have saved none.',
  );

export const TableLayout = z
  .strictObject({
    table: InterfaceTable,
    projectId: Id.nullable().describe("The project this layout is for; null: every project's, or a studio table's."),
    columns: z
      .array(z.strictObject({ field: TableField.optional(), propertyId: Id.optional(), width: z.int() }))
      .describe('Left to right; custom properties archived since are left out.'),
    frozenColumns: z.int().min(0),
    density: Density,
    source: Source,
    version: z.int().min(1).describe('Send it back as expectedVersion to update_table_layout; 1 until first saved.'),
    updatedAt: Timestamp.nullable().describe('When it was last saved; null until then.'),
  })
  .describe('Your layout of one table: its columns and their widths, the columns kept in view, the row density.');
named(TableLayout, 'TableLayout');

const Panel = z
  .strictObject({
    panel: z
      .enum(ALL_INSPECTOR_PANELS)
      .describe(
        'schedule_line: details, pricing, supplier, specification, properties, photographs, history; project: details, client, sections, documents, shares, history; supplier and client: details, contact, lines (supplier) or projects (client), history.',
      ),
    collapsed: z.boolean(),
  })
  .describe('A panel of the inspector, open or collapsed.');

export const InspectorLayoutFields = {
  panels: z.array(Panel).min(1).max(20).describe('The panels to show, top to bottom; a panel left out is hidden.'),
  width: z
    .int()
    .min(LIMITS.inspectorWidth.min)
    .max(LIMITS.inspectorWidth.max)
    .describe("The inspector's width in CSS pixels."),
  propertyOrder: z
    .array(CustomPropertyId)
    .max(LIMITS.propertyOrder)
    .describe(
      "schedule_line with projectId: the project's custom properties to show first in the properties panel, in order; the rest follow in the project's order.",
    ),
};

export const InspectorLayout = z
  .strictObject({
    record: InspectorRecord,
    projectId: Id.nullable().describe("The project this layout is for; null: every project's, or a studio record's."),
    panels: z.array(Panel),
    width: z.int(),
    propertyOrder: z.array(Id).describe('Custom properties archived since are left out.'),
    source: Source,
    version: z
      .int()
      .min(1)
      .describe('Send it back as expectedVersion to update_inspector_layout; 1 until first saved.'),
    updatedAt: Timestamp.nullable().describe('When it was last saved; null until then.'),
  })
  .describe('Your layout of the inspector for one kind of record: its panels, its width, the properties shown first.');
named(InspectorLayout, 'InspectorLayout');

export const SidebarFields = {
  collapsed: z.boolean().describe('Folded to icons.'),
  width: z
    .int()
    .min(LIMITS.sidebarWidth.min)
    .max(LIMITS.sidebarWidth.max)
    .describe('In CSS pixels, when not collapsed.'),
  collapsedGroups: z
    .array(z.enum(SIDEBAR_GROUPS))
    .max(SIDEBAR_GROUPS.length)
    .describe('The groups folded shut: pinned_projects, all_projects, reference_data, studio_settings.'),
};

export const SidebarState = z
  .strictObject({
    ...SidebarFields,
    pinnedProjectIds: z
      .array(Id)
      .describe('Projects pinned to the top, in order; one you can no longer reach is left out.'),
    version: z.int().min(1).describe('Send it back as expectedVersion to update_sidebar_state; 1 until first saved.'),
    updatedAt: Timestamp.nullable().describe('When it was last saved; null until then.'),
  })
  .describe('Your sidebar in this studio.');
named(SidebarState, 'SidebarState');
