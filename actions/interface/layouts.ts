import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { INSPECTOR_LAYOUT, TABLE_LAYOUT } from '../../src/domain/interface/entity.js';
import * as inspector from '../../src/domain/interface/inspector-layouts.js';
import * as tables from '../../src/domain/interface/table-layouts.js';
import { EXAMPLE } from '../projects/shapes.js';
import { EX } from '../properties/properties.js';
import { ReadProjectId } from '../shared/refs.js';
import {
  InspectorLayout,
  InspectorLayoutFields,
  InspectorRecord,
  InterfaceTable,
  TableLayout,
  TableLayoutFields,
} from './records.js';

const LayoutProject = ReadProjectId.optional().describe(
  'schedule_lines or schedule_line only: the project whose layout this is (a view grant is enough). Without it, your layout for every project that has none of its own.',
);

export const getTableLayout = defineAction({
  name: 'get_table_layout',
  kind: 'procedure',
  effect: 'query',
  domain: 'interface',
  summary: 'Read your layout of a table: its columns and widths, the columns kept in view, the density.',
  description:
    "Your own layout of one table in this studio. A project's schedule (schedule_lines with projectId) shows that project's layout, else your layout for every project, else the built-in one; source says which. Its columns are built-in columns by field and the project's custom properties by propertyId (a property archived since is left out). Keep version for update_table_layout.",
  scope: 'self',
  input: z.strictObject({ table: InterfaceTable, projectId: LayoutProject }),
  output: TableLayout,
  errors: ['NOT_FOUND'],
  example: { table: 'projects' },
  handler: (ctx, input) => tables.getTableLayout(ctx, input.table, input.projectId),
});

export const updateTableLayout = defineAction({
  name: 'update_table_layout',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'interface',
  summary: 'Arrange a table for yourself: which columns, in what order and width, and the row density.',
  description:
    "Your own arrangement of one table: columns replaces the whole list, left to right, each { field, width } for a built-in column or { propertyId, width } for a custom property of the project (schedule_lines with projectId only; an archived property answers ARCHIVED, another project's NOT_FOUND); widths are 40 to 1200 pixels; frozenColumns (the columns kept in view, at most as many as there are) and density. Nobody else's layout changes, and nothing in the project does. A merge patch: send expectedVersion from get_table_layout (1 until first saved).",
  scope: 'self',
  versioned: { entity: TABLE_LAYOUT, versionOf: tables.tableLayoutVersion },
  input: z.strictObject({
    table: InterfaceTable,
    projectId: LayoutProject,
    columns: TableLayoutFields.columns.optional(),
    frozenColumns: TableLayoutFields.frozenColumns.optional(),
    density: TableLayoutFields.density.optional(),
  }),
  output: TableLayout,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    table: 'schedule_lines',
    projectId: EXAMPLE.projectId,
    expectedVersion: 1,
    columns: [
      { field: 'code', width: 96 },
      { field: 'heading', width: 320 },
      { propertyId: EX.propertyId, width: 140 },
      { field: 'clientPrice', width: 128 },
    ],
    frozenColumns: 2,
  },
  handler: (ctx, { table, projectId, ...patch }) => tables.updateTableLayout(ctx, table, projectId, patch),
});

export const getInspectorLayout = defineAction({
  name: 'get_inspector_layout',
  kind: 'procedure',
  effect: 'query',
  domain: 'interface',
  summary: 'Read your layout of the inspector for one kind of record: panels, width, properties first.',
  description:
    "Your own layout of the inspector (the panel showing one record beside a table) for schedule lines, projects, suppliers or clients. For a project's schedule lines (schedule_line with projectId) it is that project's layout, else your layout for every project, else the built-in one; source says which. Keep version for update_inspector_layout.",
  scope: 'self',
  input: z.strictObject({ record: InspectorRecord, projectId: LayoutProject }),
  output: InspectorLayout,
  errors: ['NOT_FOUND'],
  example: { record: 'schedule_line' },
  handler: (ctx, input) => inspector.getInspectorLayout(ctx, input.record, input.projectId),
});

export const updateInspectorLayout = defineAction({
  name: 'update_inspector_layout',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'interface',
  summary: 'Arrange the inspector for yourself: which panels, in what order, open or collapsed, and its width.',
  description:
    "Your own arrangement of the inspector: panels replaces the whole list, top to bottom, each open or collapsed (a panel left out is hidden); width is 280 to 960 pixels; propertyOrder (schedule_line with projectId only) names the project's custom properties to show first (an archived one answers ARCHIVED, another project's NOT_FOUND). A merge patch: send expectedVersion from get_inspector_layout (1 until first saved).",
  scope: 'self',
  versioned: { entity: INSPECTOR_LAYOUT, versionOf: inspector.inspectorLayoutVersion },
  input: z.strictObject({
    record: InspectorRecord,
    projectId: LayoutProject,
    panels: InspectorLayoutFields.panels.optional(),
    width: InspectorLayoutFields.width.optional(),
    propertyOrder: InspectorLayoutFields.propertyOrder.optional(),
  }),
  output: InspectorLayout,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    record: 'schedule_line',
    expectedVersion: 1,
    panels: [
      { panel: 'details', collapsed: false },
      { panel: 'pricing', collapsed: false },
      { panel: 'photographs', collapsed: true },
    ],
    width: 440,
  },
  handler: (ctx, { record, projectId, ...patch }) => inspector.updateInspectorLayout(ctx, record, projectId, patch),
});
