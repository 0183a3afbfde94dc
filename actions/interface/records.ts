import { z } from 'zod';
import { INSPECTOR_RECORDS } from '../../db/vocabulary.js';
import { ALL_INSPECTOR_PANELS, LIMITS, SIDEBAR_GROUPS } from '../../src/domain/interface/vocabulary.js';
import { DENSITIES } from '../../src/domain/interface/table-layouts.js';
import { CustomPropertyId } from '../shared/refs.js';
import { Id, named, Timestamp } from '../../src/core/values.js';
import { InterfaceTable, SAVED_VIEW_RECORD, TableField } from '../../src/domain/interface/record.js';

export { InterfaceTable, TableField } from '../../src/domain/interface/record.js';

/** The shapes of interface state: saved views, table and inspector layouts, the sidebar. */

export const InspectorRecord = z
  .enum(INSPECTOR_RECORDS)
  .describe('The kind of record the inspector shows: schedule_line, project, supplier or client.');
named(InspectorRecord, 'InspectorRecord');

/** A saved view as the API answers it (declared once, in src/domain/interface/record.ts). */
export const SavedView = SAVED_VIEW_RECORD.output;

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
