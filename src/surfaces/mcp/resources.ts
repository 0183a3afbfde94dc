import { McpError, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { AnyAction } from '../../core/define-action.js';
import { buildActionsDocument } from '../../contract/actions-json.js';
import { canonicalJson } from '../../core/canonical-json.js';

export const CATALOG_URI = 'service://actions';
/** MCP's "resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

export const RESOURCES: Resource[] = [
  {
    uri: CATALOG_URI,
    name: 'actions',
    title: 'Action catalog',
    description:
      'Every action with kind, scope, input and output JSON Schema and errors; the same document as /docs/api/actions.json.',
    mimeType: 'application/json',
  },
];

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: `${CATALOG_URI}/{name}`,
    name: 'action',
    title: 'One action',
    description: 'One catalog entry with the shared definitions it refers to.',
    mimeType: 'application/json',
  },
];

type ActionsDocument = ReturnType<typeof buildActionsDocument>;
const documents = new WeakMap<readonly AnyAction[], { doc: ActionsDocument; text: string }>();

/** The catalog document, built once per catalog; the text is byte for byte what /docs/api/actions.json serves. */
function catalogOf(actions: readonly AnyAction[]) {
  let c = documents.get(actions);
  if (!c) {
    const doc = buildActionsDocument(actions);
    c = { doc, text: `${canonicalJson(doc, 2)}\n` };
    documents.set(actions, c);
  }
  return c;
}

/** Names of the `$defs` a value refers to, followed through the definitions themselves. */
function referencedDefs(value: unknown, defs: Record<string, unknown>, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) referencedDefs(v, defs, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
        const name = v.slice('#/$defs/'.length);
        if (!out.has(name)) {
          out.add(name);
          referencedDefs(defs[name], defs, out);
        }
      } else referencedDefs(v, defs, out);
    }
  }
  return out;
}

export function readCatalogResource(actions: readonly AnyAction[], uri: string) {
  const { doc, text } = catalogOf(actions);
  if (uri === CATALOG_URI) return { contents: [{ uri, mimeType: 'application/json', text }] };
  const prefix = `${CATALOG_URI}/`;
  const name = uri.startsWith(prefix) ? decodeURIComponent(uri.slice(prefix.length)) : undefined;
  const entry = name ? doc.actions.find((a) => a.name === name) : undefined;
  if (!entry)
    throw new McpError(RESOURCE_NOT_FOUND, `No resource ${uri}; read ${CATALOG_URI} for the action names.`, { uri });
  const defs = doc.$defs as Record<string, unknown>;
  const used = [...referencedDefs(entry, defs)].sort();
  const one = { ...entry, ...(used.length ? { $defs: Object.fromEntries(used.map((n) => [n, defs[n]])) } : {}) };
  return { contents: [{ uri, mimeType: 'application/json', text: `${canonicalJson(one, 2)}\n` }] };
}
