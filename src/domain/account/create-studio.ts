import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { appendAuditEvents } from '../../core/audit.js';
import { createStudioWithOwner } from '../studio/onboarding.js';
import { loadStudio, presentStudio } from '../studio/studio.js';
import { issueToken, presentToken } from './api-tokens.js';

export interface CreateStudioInput {
  name: string;
  currency: Currency;
  codePrefix?: string;
  taxRate?: { ratio4: string };
}

/**
 * Onboarding: a new tenant with its default units, owned by the caller's user. A token acts in one studio, so the new
 * owner membership gets its own token, returned once: it is how the caller reaches the new studio.
 */
export async function createStudio(ctx: ActionContext, input: CreateStudioInput) {
  const caller = ctx.caller!;
  const user = await ctx.db
    .selectFrom('users')
    .select(['email', 'name'])
    .where('id', '=', caller.userId)
    .executeTakeFirstOrThrow();
  // The user is found by email (stored lowercase), so the new membership is the caller's own user, never a new one.
  const created = await createStudioWithOwner(
    ctx.db,
    { name: input.name, currency: input.currency, codePrefix: input.codePrefix, taxRate4: input.taxRate?.ratio4 },
    user,
    ctx.now,
  );
  const { row, secret } = await issueToken(ctx.db, created.memberId, `Created with ${input.name}`, ctx.now);
  // The new studio's own hash chain starts with its creation; the caller's current studio records the act too.
  await appendAuditEvents(
    { db: ctx.db },
    {
      studioId: created.studioId,
      actor: { kind: 'member', id: created.memberId, via: caller.via },
      action: 'create_studio',
      at: ctx.now,
      events: [{ targetKind: 'studio', targetId: created.studioId, summary: `Created studio ${input.name}` }],
    },
  );
  ctx.audit({ targetKind: 'studio', targetId: created.studioId, summary: `Created a new studio, ${input.name}` });
  return {
    studio: await presentStudio(ctx.db, await loadStudio(ctx.db, created.studioId)),
    membership: { memberId: created.memberId, role: 'owner' as const },
    ownerToken: presentToken(row, caller.tokenId, ctx.now),
    ownerTokenSecret: secret,
  };
}
