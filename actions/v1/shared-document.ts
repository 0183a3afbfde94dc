import { z } from 'zod';
import type { ActionContext } from '../../src/core/context.js';
import { defineAction } from '../../src/core/define-action.js';
import { type LiveShare, resolveShareToken } from '../../src/domain/shares/resolve.js';
import { sharedDocument } from '../../src/domain/shares/shared-document.js';
import { SharedDocument } from '../shares/shared-document.js';

/** The share a token opened: `invoke` resolved it through the capability binding below before the handler runs. */
const shareOf = (ctx: ActionContext) => ctx.capability as LiveShare;

export const getSharedDocument = defineAction({
  name: 'get_shared_document',
  kind: 'resource',
  effect: 'query',
  domain: 'shares',
  summary: 'Read what a share link shows, by its token alone: no account or API token is needed.',
  description:
    "The document a share link opens, for whoever holds the link: the studio's client document (pieces as they are now, photographs as the studio last minted them, prices only when its settings show them), the link's intent and expiresAt, and for each photograph the URLs that serve it by the token alone (url: display size; thumbnailUrl). token is everything after /s/ in the link (share_…). A token that does not work, whether unknown, revoked, expired or malformed, answers FORBIDDEN with one sentence that never says which: ask the studio for a new link (they can reissue_share). Over MCP, call it with { token } as the arguments: the connection's own token is not used. Nothing records the read.",
  scope: 'capability',
  capability: { field: 'token', open: resolveShareToken },
  input: z.strictObject({
    token: z
      .string()
      .describe(
        'The share token: everything after /s/ in the link, e.g. share_Jk3…; shown once when the share is issued.',
      ),
  }),
  output: SharedDocument,
  errors: [],
  http: { method: 'GET', path: '/shares/{token}/document' },
  example: { token: 'share_q7BvJ1n0Xw2c9kLrT4yUo8ZpHs6dMe3aFgQiVbNlRxY' },
  handler: (ctx, input) => sharedDocument(ctx, shareOf(ctx), input.token),
});
