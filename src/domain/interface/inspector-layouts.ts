import type { RowReader } from '../../../db/store.js';
import type { InspectorRecord } from '../../../db/vocabulary.js';
import type { ActionContext, Caller } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { listed, refuse, refuseEmptyPatch, refuseRepeats } from './checks.js';
import { getLayout, type LayoutKey, type LayoutMeta, type LayoutSpec, layoutVersion, updateLayout } from './layouts.js';
import { INSPECTORS, LIMITS } from './vocabulary.js';

/**
 * A member's layout of the inspector (the panel beside a table that shows one record): its panels in order, each open
 * or collapsed (a panel left out is hidden), its width, and for a schedule line the project's custom properties to
 * show first in the properties panel, in order (the others follow in the project's own order).
 */

export interface InspectorPanel {
  panel: string;
  collapsed: boolean;
}

export interface InspectorLayoutBody {
  panels: InspectorPanel[];
  width: number;
  propertyOrder: string[];
}

export interface InspectorLayoutPatch {
  panels?: readonly InspectorPanel[] | undefined;
  width?: number | undefined;
  propertyOrder?: readonly string[] | undefined;
}

function checkedPanels(record: InspectorRecord, panels: readonly InspectorPanel[]): InspectorPanel[] {
  const known = INSPECTORS[record].panels;
  for (const [i, p] of panels.entries()) {
    if (!known.includes(p.panel)) {
      refuse(
        `panels.${i}.panel`,
        `${p.panel} is not a panel of the ${record} inspector; its panels are ${listed(known)}.`,
        'Not a panel of this inspector.',
      );
    }
  }
  refuseRepeats(
    panels.map((p) => p.panel),
    'panels',
    'The panel',
  );
  return panels.map((p) => ({ panel: p.panel, collapsed: p.collapsed }));
}

function checkedPropertyOrder(ids: readonly string[], active: ReadonlySet<string>): string[] {
  refuseRepeats(ids, 'propertyOrder', 'The property');
  for (const id of ids) {
    // Its project was proved by invoke (a property of another project or studio is 404); here only its state.
    if (!active.has(id)) {
      throw new ServiceError(
        'ARCHIVED',
        `Custom property ${id} is archived, so the inspector no longer shows it; leave it out.`,
      );
    }
  }
  return [...ids];
}

export const INSPECTOR_LAYOUTS: LayoutSpec<InspectorLayoutBody, InspectorLayoutPatch> = {
  kind: 'inspector',
  subjectField: 'record',
  auditKind: 'inspector_layout',
  what: 'inspector',
  perProject: (record) => INSPECTORS[record as InspectorRecord].perProject,
  defaults: (record) => ({
    // Every panel, open, but the history, which is long and read less often.
    panels: INSPECTORS[record as InspectorRecord].panels.map((panel) => ({ panel, collapsed: panel === 'history' })),
    width: LIMITS.inspectorWidth.default,
    propertyOrder: [],
  }),
  show: (body, active) => ({ ...body, propertyOrder: body.propertyOrder.filter((id) => active.has(id)) }),
  merge: (shown, patch, record, active) => {
    refuseEmptyPatch(patch as Record<string, unknown>, ['panels', 'width', 'propertyOrder']);
    return {
      panels: patch.panels ? checkedPanels(record as InspectorRecord, patch.panels) : shown.panels,
      width: patch.width ?? shown.width,
      propertyOrder: patch.propertyOrder ? checkedPropertyOrder(patch.propertyOrder, active) : shown.propertyOrder,
    };
  },
};

const keyOf = (record: InspectorRecord, projectId: string | undefined): LayoutKey => ({
  kind: 'inspector',
  subject: record,
  projectId: projectId ?? null,
});

export type PresentedInspectorLayout = InspectorLayoutBody & LayoutMeta & { record: InspectorRecord };

export function getInspectorLayout(ctx: ActionContext, record: InspectorRecord, projectId?: string) {
  return getLayout(ctx, INSPECTOR_LAYOUTS, keyOf(record, projectId)) as Promise<PresentedInspectorLayout>;
}

export function updateInspectorLayout(
  ctx: ActionContext,
  record: InspectorRecord,
  projectId: string | undefined,
  patch: InspectorLayoutPatch,
) {
  return updateLayout(ctx, INSPECTOR_LAYOUTS, keyOf(record, projectId), patch) as Promise<PresentedInspectorLayout>;
}

/**
 * The layout's version for update_inspector_layout's check: found by the caller, the record kind and (for a project's
 * records) the project. A project sent with another kind is refused by the update itself, not as a conflict.
 */
export function inspectorLayoutVersion(read: RowReader, input: Record<string, unknown>, caller: Caller) {
  const record = input.record as InspectorRecord;
  const projectId = INSPECTORS[record].perProject ? (input.projectId as string | undefined) : undefined;
  return layoutVersion(read, caller.memberId, keyOf(record, projectId));
}
