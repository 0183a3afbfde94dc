import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type ReadResourceResult,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { AnyAction } from '../../core/define-action.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { documentBytes } from '../../domain/documents/package-stream.js';
import type { McpConnection } from './connection.js';

/**
 * A project's documents as MCP resources, so an agent whose client has no HTTP route to the server (stdio, with no
 * `studio serve` running) still reads the PDF it made: download_document's answer carries a resource_link, and
 * resources/read answers the bytes as a blob through the connection itself.
 */
export const DOCUMENT_URI_TEMPLATE = 'studio://projects/{projectId}/documents/{documentId}';
const DOCUMENT_URI = /^studio:\/\/projects\/([^/?#]{1,100})\/documents\/([^/?#]{1,100})$/;

/**
 * The largest document a resources/read carries: 4 MiB of file is about 5.6 MB of base64 in one JSON-RPC message, which
 * client and server each hold whole, under the message sizes MCP clients accept in practice (HTTP proxies and desktop
 * clients cap single messages at a few megabytes). A larger document is refused with the download link to use instead.
 */
export const MCP_DOCUMENT_LIMIT = 4 * 1024 * 1024;

/** MCP's "resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

export const documentUri = (projectId: string, documentId: string) =>
  `studio://projects/${encodeURIComponent(projectId)}/documents/${encodeURIComponent(documentId)}`;

export const DOCUMENT_RESOURCE_TEMPLATE: ResourceTemplate = {
  uriTemplate: DOCUMENT_URI_TEMPLATE,
  name: 'document',
  title: 'A project document',
  description: `The file of one document of your studio (a PDF, XLSX, CSV or ZIP) as a base64 blob, up to ${MCP_DOCUMENT_LIMIT / 1024 / 1024} MiB; larger ones through download_document's link. download_document answers with a resource_link to it.`,
};

/** Whether a URI names a document resource (anything else is the catalog's). */
export const isDocumentUri = (uri: string) => uri.startsWith('studio://projects/');

interface DocumentRecord {
  id: string;
  kind: string;
  filename: string;
  mediaType: string;
  byteSize: number;
  sha256: string;
  createdAt: string;
}

/**
 * resources/read of a document: allowed as download_document allows the file (the connection's member, their scope
 * and what the document's kind needs beyond it: a purchase order needs pricing:read; a project of their own studio:
 * any other answers not found, whoever owns it), read as get_project_document reads it, then its bytes.
 */
export async function readDocumentResource(connection: McpConnection, uri: string): Promise<ReadResourceResult> {
  const [, projectId, documentId] = DOCUMENT_URI.exec(uri) ?? [];
  const allowed = connection.view.byName.get('download_document');
  const read = connection.view.byName.get('get_project_document');
  if (!projectId || !documentId || !read || !allowed) throw notFound(uri);
  const input = { projectId: decodeURIComponent(projectId), documentId: decodeURIComponent(documentId) };
  let doc: DocumentRecord;
  try {
    await connection.run(allowed, input, newId());
    doc = (await connection.run(read, input, newId())) as DocumentRecord;
  } catch (err) {
    if (err instanceof ServiceError && (err.code === 'NOT_FOUND' || err.code === 'VALIDATION_FAILED'))
      throw notFound(uri);
    if (err instanceof ServiceError)
      throw new McpError(ErrorCode.InvalidRequest, `${err.code}: ${err.detail}`, { uri });
    throw err;
  }
  if (doc.byteSize > MCP_DOCUMENT_LIMIT) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      `${doc.filename} is ${doc.byteSize} bytes, over the ${MCP_DOCUMENT_LIMIT} bytes (4 MiB) a resource read carries. Download it over HTTP instead: call_action download_document with { projectId, documentId } gives a link (it needs \`studio serve\` running).`,
      { uri, byteSize: doc.byteSize, limit: MCP_DOCUMENT_LIMIT },
    );
  }
  const { rt } = connection;
  const bytes = await rt.store.readSnapshot(async (db) => {
    const chunks: Buffer[] = [];
    for await (const chunk of await documentBytes(db, rt.files, doc)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  });
  return { contents: [{ uri, mimeType: doc.mediaType, blob: bytes.toString('base64') }] };
}

const notFound = (uri: string) =>
  new McpError(
    RESOURCE_NOT_FOUND,
    `No document resource ${uri.slice(0, 200)}: list_project_documents lists the documents of a project of your studio, and download_document answers the resource_link of one.`,
    { uri: uri.slice(0, 200) },
  );

/** An answer naming a document (documentLink) also carries a resource_link to it, after its text. */
export function withDocumentLink(
  action: AnyAction,
  input: unknown,
  output: unknown,
  result: CallToolResult,
): CallToolResult {
  if (!action.documentLink || result.isError) return result;
  const projectId = (input as { projectId?: unknown }).projectId;
  const doc = output as { documentId?: unknown; filename?: unknown; mediaType?: unknown; byteSize?: unknown };
  if (typeof projectId !== 'string' || typeof doc.documentId !== 'string') return result;
  const fits = typeof doc.byteSize === 'number' && doc.byteSize <= MCP_DOCUMENT_LIMIT;
  return {
    ...result,
    content: [
      ...result.content,
      {
        type: 'resource_link',
        uri: documentUri(projectId, doc.documentId),
        name: String(doc.filename ?? doc.documentId),
        ...(typeof doc.mediaType === 'string' ? { mimeType: doc.mediaType } : {}),
        ...(typeof doc.byteSize === 'number' ? { size: doc.byteSize } : {}),
        description: fits
          ? 'The file itself, through this connection: resources/read this uri (a base64 blob); no HTTP server needed.'
          : `Over the ${MCP_DOCUMENT_LIMIT} bytes a resource read carries: use the url instead.`,
      },
    ],
  };
}
