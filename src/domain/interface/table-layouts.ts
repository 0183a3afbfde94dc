import type { RowReader } from '../../../db/store.js';
import type { InterfaceTable } from '../../../db/vocabulary.js';
import type { ActionContext, Caller } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { listed, refuse, refuseEmptyPatch, refuseRepeats } from './checks.js';
import { getLayout, type LayoutKey, type LayoutMeta, type LayoutSpec, layoutVersion, updateLayout } from './layouts.js';
import { TABLES } from './vocabulary.js';

/**
 * A member's layout of one table: its columns left to right with their widths (built-in columns by name, a project's
 * custom properties by id), how many leftmost columns stay in view when scrolling sideways, and the row density.
 */

export const DENSITIES = ['comfortable', 'compact'] as const;
export type Density = (typeof DENSITIES)[number];

/** A column: a built-in one by name, or a custom property of the project by id. */
export type LayoutColumn = { field: string; width: number } | { propertyId: string; width: number };

export interface TableLayoutBody {
  columns: LayoutColumn[];
  frozenColumns: number;
  density: Density;
}

export interface TableLayoutPatch {
  columns?: ReadonlyArray<{ field?: string | undefined; propertyId?: string | undefined; width: number }> | undefined;
  frozenColumns?: number | undefined;
  density?: Density | undefined;
}

function checkedColumns(
  table: InterfaceTable,
  columns: NonNullable<TableLayoutPatch['columns']>,
  active: ReadonlySet<string>,
): LayoutColumn[] {
  const { fields } = TABLES[table];
  const out = columns.map((c, i): LayoutColumn => {
    if ((c.field === undefined) === (c.propertyId === undefined)) {
      refuse(
        `columns.${i}`,
        'Each column names either a built-in column (field) or a custom property (propertyId), exactly one of them.',
        'Give field or propertyId.',
      );
    }
    if (c.field !== undefined) {
      if (!fields.includes(c.field)) {
        refuse(
          `columns.${i}.field`,
          `${c.field} is not a column of the ${table} table; its columns are ${listed(fields)}.`,
          'Not a column of this table.',
        );
      }
      return { field: c.field, width: c.width };
    }
    // Its project was proved by invoke (a property of another project or studio is 404); here only its state.
    if (!active.has(c.propertyId!)) {
      throw new ServiceError(
        'ARCHIVED',
        `Custom property ${c.propertyId} is archived, so it no longer shows as a column; leave it out.`,
      );
    }
    return { propertyId: c.propertyId!, width: c.width };
  });
  refuseRepeats(
    out.map((c) => ('field' in c ? c.field : `property ${c.propertyId}`)),
    'columns',
    'The column',
  );
  return out;
}

export const TABLE_LAYOUTS: LayoutSpec<TableLayoutBody, TableLayoutPatch> = {
  kind: 'table',
  subjectField: 'table',
  auditKind: 'table_layout',
  what: 'table',
  perProject: (table) => TABLES[table as InterfaceTable].perProject,
  defaults: (table) => ({
    columns: TABLES[table as InterfaceTable].defaultColumns.map((c) => ({ ...c })),
    frozenColumns: 1,
    density: 'comfortable',
  }),
  show: (body, active) => {
    const columns = body.columns.filter((c) => !('propertyId' in c) || active.has(c.propertyId));
    return { ...body, columns, frozenColumns: Math.min(body.frozenColumns, columns.length) };
  },
  merge: (shown, patch, table, active) => {
    refuseEmptyPatch(patch as Record<string, unknown>, ['columns', 'frozenColumns', 'density']);
    const columns = patch.columns ? checkedColumns(table as InterfaceTable, patch.columns, active) : shown.columns;
    const frozenColumns = patch.frozenColumns ?? shown.frozenColumns;
    if (frozenColumns > columns.length) {
      refuse(
        'frozenColumns',
        `frozenColumns is ${frozenColumns}, but the layout has ${columns.length} column(s); keep at most that many in view.`,
        'More than the columns.',
      );
    }
    return { columns, frozenColumns, density: patch.density ?? shown.density };
  },
};

const keyOf = (table: InterfaceTable, projectId: string | undefined): LayoutKey => ({
  kind: 'table',
  subject: table,
  projectId: projectId ?? null,
});

export type PresentedTableLayout = TableLayoutBody & LayoutMeta & { table: InterfaceTable };

export function getTableLayout(ctx: ActionContext, table: InterfaceTable, projectId?: string) {
  return getLayout(ctx, TABLE_LAYOUTS, keyOf(table, projectId)) as Promise<PresentedTableLayout>;
}

export function updateTableLayout(
  ctx: ActionContext,
  table: InterfaceTable,
  projectId: string | undefined,
  patch: TableLayoutPatch,
) {
  return updateLayout(ctx, TABLE_LAYOUTS, keyOf(table, projectId), patch) as Promise<PresentedTableLayout>;
}

/**
 * The layout's version for update_table_layout's check: found by the caller, the table and (for a project's table)
 * the project. A project sent with another table is refused by the update itself, with its reason, not as a conflict.
 */
export function tableLayoutVersion(read: RowReader, input: Record<string, unknown>, caller: Caller) {
  const table = input.table as InterfaceTable;
  const projectId = TABLES[table].perProject ? (input.projectId as string | undefined) : undefined;
  return layoutVersion(read, caller.memberId, keyOf(table, projectId));
}
