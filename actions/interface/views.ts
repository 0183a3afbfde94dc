import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { SAVED_VIEW } from '../../src/domain/interface/entity.js';
import * as views from '../../src/domain/interface/saved-views.js';
import { SavedViewId } from '../shared/refs.js';
import { Id, page, Timestamp } from '../../src/core/values.js';
import { SAVED_VIEW_RECORD } from '../../src/domain/interface/record.js';
import { InterfaceTable, SavedView } from './records.js';

/** A fake id for examples: the shape the API mints, no meaning. */
export const EX_VIEW_ID = '0000000000000000000000000v';

export const listSavedViews = defineAction({
  name: 'list_saved_views',
  kind: 'procedure',
  effect: 'query',
  domain: 'interface',
  summary: 'List your saved views (named filters, sort and columns) of a table, or of every table.',
  description:
    "Your own saved views in this studio (nobody else's: views are personal), of one table or all, by name (or sort by createdAt or updatedAt; '-' for descending). Each has the filters and sort to pass to its table's list action (list_schedule_lines, list_studio_projects, list_suppliers, list_clients) and the columns to show, or null for the table layout's.",
  scope: 'self',
  input: views.SAVED_VIEW_LISTING.input,
  output: page(SavedView),
  errors: [],
  example: { table: 'schedule_lines' },
  handler: (ctx, input) => views.listViews(ctx, input),
});

export const createSavedView = defineAction({
  name: 'create_saved_view',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'interface',
  summary: 'Save a named view of a table: its list filters, sort and columns, for you alone.',
  description:
    "Keeps filters and a sort exactly as the table's list action takes them (schedule_lines: status, supplierId, priceState, archived, q and list_schedule_lines's sorts; projects: status, clientId, q; suppliers and clients: archived, q), and optionally the built-in columns to show (custom-property columns belong to a project's table layout: update_table_layout). A schedule_lines view applies to every project's schedule. Names are unique among your views of a table, whatever their case; at most 50 views per table. Send a fresh commandKey so a retry never saves it twice.",
  scope: 'self',
  keyed: true,
  input: SAVED_VIEW_RECORD.createInput,
  output: SavedView,
  errors: [],
  example: {
    name: 'Prices to confirm',
    table: 'schedule_lines',
    filters: { priceState: 'tbc', archived: 'exclude' },
    sort: 'code',
    columns: ['code', 'heading', 'supplier', 'clientPrice'],
    commandKey: '2a7c9e41-5b3d-4f6a-8c1e-9d0f2b4a6c8e',
  },
  handler: (ctx, input) => views.createView(ctx, input),
});

export const updateSavedView = defineAction({
  name: 'update_saved_view',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'interface',
  summary: 'Rename a saved view or change its filters, sort or columns; its table never changes.',
  description:
    "Send name, filters, sort or columns: filters and columns replace the whole set; sort or columns null return to the list's own order and the table layout's columns. The table is fixed: save another view for another table. A merge patch: send expectedVersion from your last read.",
  scope: 'self',
  versioned: { entity: SAVED_VIEW, idField: 'viewId' },
  input: z.strictObject({
    viewId: SavedViewId.describe('From list_saved_views.'),
    ...SAVED_VIEW_RECORD.patchInput.shape,
  }),
  output: SavedView,
  errors: [],
  example: { viewId: EX_VIEW_ID, expectedVersion: 1, name: 'TBC prices', filters: { priceState: 'tbc' } },
  handler: (ctx, { viewId, ...patch }) => views.updateView(ctx, viewId, patch),
});

export const deleteSavedView = defineAction({
  name: 'delete_saved_view',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'interface',
  summary: 'Delete one of your saved views; the records it showed are untouched.',
  description:
    'Deletes the view outright: views are your own preferences, so unlike lines they are deleted rather than archived (the audit feed keeps that it was). Only the view goes: nothing it listed changes. Send expectedVersion from your last read; deleting it again answers NOT_FOUND.',
  intents: ['get rid of a view I saved', 'delete a saved filter', 'remove a saved view'],
  scope: 'self',
  versioned: { entity: SAVED_VIEW, idField: 'viewId' },
  input: z.strictObject({ viewId: SavedViewId.describe('From list_saved_views.') }),
  output: z
    .strictObject({ id: Id, name: z.string(), table: InterfaceTable, deletedAt: Timestamp })
    .describe('The view that was deleted.'),
  errors: [],
  example: { viewId: EX_VIEW_ID, expectedVersion: 2 },
  handler: (ctx, input) => views.deleteView(ctx, input.viewId),
});
