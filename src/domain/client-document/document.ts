import type { ActionContext } from '../../core/context.js';
import { livePhotographs } from './photographs.js';
import { projectDocument } from './projection.js';
import { frozenPhotographs } from './versions.js';

/**
 * The live client document: pieces as they are now; photographs as the latest minted version froze them (none before
 * the first mint). Photographs are frozen by minting so that what a client was shown stays what they were shown.
 */
export async function liveDocument(ctx: Pick<ActionContext, 'db' | 'queryRow' | 'now'>, projectId: string) {
  const { document } = await projectDocument(ctx, projectId, ctx.now, await frozenPhotographs(ctx, projectId));
  return document;
}

/** What minting now would keep: pieces and photographs as they are now. Nothing is kept. */
export async function previewDocument(ctx: Pick<ActionContext, 'db' | 'queryRow' | 'now'>, projectId: string) {
  const photographs = { byLine: await livePhotographs(ctx.db, projectId), asOf: ctx.now };
  const { document } = await projectDocument(ctx, projectId, ctx.now, photographs);
  return document;
}
