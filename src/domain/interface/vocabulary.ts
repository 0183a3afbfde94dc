import {
  INSPECTOR_RECORDS,
  INTERFACE_TABLES,
  LINE_STATUSES,
  PROJECT_STATUSES,
  type InspectorRecord,
  type InterfaceTable,
} from '../../../db/vocabulary.js';
import { CLIENT_SORT_NAMES } from '../clients/clients.js';
import { PROJECT_SORT_NAMES } from '../projects/projects.js';
import { LINE_SORTS } from '../schedule/lines.js';
import { SUPPLIER_SORT_NAMES } from '../suppliers/suppliers.js';

/**
 * The closed vocabularies of interface state: each table's built-in columns, the list filters and sorts its saved views
 * may keep (exactly the names its list action takes, so a view is applied by passing them on), its built-in layout;
 * each inspector's panels. Column names are the record's own field names where it has one (`leadTimeDays`,
 * `clientTotal`) and the thing shown otherwise (`section`, `supplier`, `photographs`).
 */
export interface TableVocabulary {
  /** The list action a saved view's filters and sort are passed to. */
  listAction: string;
  /** One project's table: its layout may be kept per project and show that project's custom properties. */
  perProject: boolean;
  fields: readonly string[];
  /** The built-in layout's columns, left to right. */
  defaultColumns: ReadonlyArray<{ field: string; width: number }>;
  /** The list action's filters a saved view may keep. */
  filters: readonly string[];
  /** What its `status` filter takes, when it has one. */
  statuses: readonly string[];
  sorts: readonly string[];
}

export const TABLES: Record<InterfaceTable, TableVocabulary> = {
  schedule_lines: {
    listAction: 'list_schedule_lines',
    perProject: true,
    fields: [
      'code',
      'heading',
      'description',
      'section',
      'status',
      'supplier',
      'brand',
      'productCode',
      'url',
      'finish',
      'dimensions',
      'leadTimeDays',
      'quantity',
      'unit',
      'markup',
      'tradePrice',
      'retailPrice',
      'clientPrice',
      'deliveryPrice',
      'margin',
      'clientTotal',
      'photographs',
      'createdAt',
      'updatedAt',
    ],
    defaultColumns: [
      { field: 'code', width: 96 },
      { field: 'heading', width: 280 },
      { field: 'section', width: 160 },
      { field: 'status', width: 120 },
      { field: 'supplier', width: 180 },
      { field: 'quantity', width: 96 },
      { field: 'clientPrice', width: 128 },
      { field: 'clientTotal', width: 128 },
    ],
    filters: ['status', 'supplierId', 'priceState', 'archived', 'q'],
    statuses: LINE_STATUSES,
    sorts: LINE_SORTS,
  },
  projects: {
    listAction: 'list_studio_projects',
    perProject: false,
    fields: ['name', 'reference', 'client', 'status', 'currency', 'createdAt', 'updatedAt'],
    defaultColumns: [
      { field: 'name', width: 280 },
      { field: 'reference', width: 120 },
      { field: 'client', width: 200 },
      { field: 'status', width: 110 },
      { field: 'updatedAt', width: 160 },
    ],
    filters: ['status', 'clientId', 'q'],
    statuses: PROJECT_STATUSES,
    sorts: PROJECT_SORT_NAMES,
  },
  suppliers: {
    listAction: 'list_suppliers',
    perProject: false,
    fields: ['name', 'email', 'phone', 'website', 'accountReference', 'lineCount', 'createdAt', 'updatedAt'],
    defaultColumns: [
      { field: 'name', width: 260 },
      { field: 'email', width: 220 },
      { field: 'phone', width: 150 },
      { field: 'lineCount', width: 100 },
    ],
    filters: ['archived', 'q'],
    statuses: [],
    sorts: SUPPLIER_SORT_NAMES,
  },
  clients: {
    listAction: 'list_clients',
    perProject: false,
    fields: ['name', 'email', 'phone', 'billingAddress', 'createdAt', 'updatedAt'],
    defaultColumns: [
      { field: 'name', width: 260 },
      { field: 'email', width: 220 },
      { field: 'phone', width: 150 },
      { field: 'updatedAt', width: 160 },
    ],
    filters: ['archived', 'q'],
    statuses: [],
    sorts: CLIENT_SORT_NAMES,
  },
};

export interface InspectorVocabulary {
  /** One project's records: the layout may be kept per project and order that project's custom properties. */
  perProject: boolean;
  panels: readonly string[];
}

export const INSPECTORS: Record<InspectorRecord, InspectorVocabulary> = {
  schedule_line: {
    perProject: true,
    panels: ['details', 'pricing', 'supplier', 'specification', 'properties', 'photographs', 'history'],
  },
  project: { perProject: false, panels: ['details', 'client', 'sections', 'documents', 'shares', 'history'] },
  supplier: { perProject: false, panels: ['details', 'contact', 'lines', 'history'] },
  client: { perProject: false, panels: ['details', 'contact', 'projects', 'history'] },
};

const union = (lists: ReadonlyArray<readonly string[]>) => [...new Set(lists.flat())] as [string, ...string[]];

/** Every table's columns, statuses and sorts together: what input schemas take before the table's own are checked. */
export const ALL_TABLE_FIELDS = union(INTERFACE_TABLES.map((t) => TABLES[t].fields));
export const ALL_TABLE_STATUSES = union(INTERFACE_TABLES.map((t) => TABLES[t].statuses));
export const ALL_TABLE_SORTS = union(INTERFACE_TABLES.map((t) => TABLES[t].sorts));
export const ALL_INSPECTOR_PANELS = union(INSPECTOR_RECORDS.map((r) => INSPECTORS[r].panels));

/** The sidebar's collapsible groups. */
export const SIDEBAR_GROUPS = ['pinned_projects', 'all_projects', 'reference_data', 'studio_settings'] as const;
export type SidebarGroup = (typeof SIDEBAR_GROUPS)[number];

/** Bounds, so that no member's state grows without limit. */
export const LIMITS = {
  viewsPerTable: 50,
  viewName: 100,
  columns: 100,
  width: { min: 40, max: 1200 },
  frozenColumns: 5,
  inspectorWidth: { min: 280, max: 960, default: 400 },
  propertyOrder: 100,
  sidebarWidth: { min: 180, max: 480, default: 256 },
  pinnedProjects: 20,
} as const;
