import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import type { PhotographSources } from '../client-document/photographs.js';
import { projectDocument } from '../client-document/projection.js';
import { frozenPhotographs } from '../client-document/versions.js';
import { loadShare, shareState } from '../shares/shares.js';
import type { DocumentSource } from './documents.js';

/** The client document, in its own schema: the only thing any document of a project is ever made from. */
export type ClientDocumentView = Awaited<ReturnType<typeof projectDocument>>['document'];

/** A client document to render, with where its photographs' bytes are (never part of the document itself). */
export interface RenderSource {
  document: ClientDocumentView;
  photographs: PhotographSources;
  /** Whom the document is for, for its cover: the project's client now (its linked client's name, or its label). */
  clientName?: string | null;
  /** When it is made (RFC 3339): the date a cover gives the document. */
  dated?: string;
}

/** The project's client as its record names it now: the linked client's current name, or the plain label. */
async function clientNameOf(ctx: Reader, projectId: string): Promise<string | null> {
  const row = await ctx.db
    .selectFrom('projects')
    .leftJoin('clients', 'clients.id', 'projects.client_id')
    .select(['projects.client_id', 'projects.client_name', 'clients.name as linked_client_name'])
    .where('projects.id', '=', projectId)
    .executeTakeFirst();
  if (!row) return null;
  return (row.client_id ? (row.linked_client_name ?? row.client_name) : row.client_name) ?? null;
}

type Reader = Pick<ActionContext, 'db' | 'queryRow' | 'now'>;

/**
 * The client document a source names, as the client would see it: live (exactly what get_project_client_document
 * answers now: pieces as they are, photographs as the latest mint froze them), a minted version (exactly as kept), or
 * what a share's link shows now (the live document, while the share works). Built by the client document's own
 * projection, so no trade price, markup or margin can reach a document: there is none in what it returns.
 */
export async function loadRenderSource(ctx: Reader, projectId: string, source: DocumentSource): Promise<RenderSource> {
  const about = { clientName: await clientNameOf(ctx, projectId), dated: ctx.now };
  return { ...(await documentOf(ctx, projectId, source)), ...about };
}

async function documentOf(ctx: Reader, projectId: string, source: DocumentSource): Promise<RenderSource> {
  if (source.kind === 'version') {
    const row = await ctx.db
      .selectFrom('client_document_versions')
      .select(['document', 'photograph_sources'])
      .where('project_id', '=', projectId)
      .where('number', '=', source.number)
      .executeTakeFirst();
    if (!row) {
      throw new ServiceError(
        'NOT_FOUND',
        `This project has no client document version ${source.number}; list_client_document_versions lists the minted ones.`,
      );
    }
    return {
      document: JSON.parse(row.document) as ClientDocumentView,
      photographs: JSON.parse(row.photograph_sources) as PhotographSources,
    };
  }
  if (source.kind === 'share') {
    const share = await loadShare(ctx, projectId, source.shareId);
    const state = shareState(share, ctx.now);
    if (state !== 'live') {
      throw new ServiceError(
        'NOT_FOUND',
        `Share ${share.id} is ${state}: its link shows nothing now, so there is nothing to keep. Issue a new share with issue_project_share if the client should see the schedule.`,
      );
    }
  }
  const { document, sources } = await projectDocument(ctx, projectId, ctx.now, await frozenPhotographs(ctx, projectId));
  return { document, photographs: sources };
}
