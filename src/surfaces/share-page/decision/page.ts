import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/schema.js';
import type { RowReader } from '../../../../db/store.js';
import type { Config } from '../../../config.js';
import { deliveryConfigured } from '../../../domain/documents/mail-config.js';
import { openDecisionShare } from '../../../domain/share-decisions/resolve.js';
import { sharedRevision } from '../../../domain/share-decisions/shared-revision.js';
import { maskEmail } from '../../../domain/share-verification/codes.js';
import { liveSession } from '../../../domain/share-verification/sessions.js';
import type { LiveShare } from '../../../domain/shares/resolve.js';
import { accentStyle, styleHash } from '../style.js';
import { csp, layout, SHARE_PAGE_HEADERS } from '../page.js';
import { STYLE_HASH } from '../style.js';
import { DECISION_STYLE } from './style.js';
import { type DecisionView, decisionBody, type Step } from './render.js';

/** What a decide link's page knows on a request: the share, what it shows, whether the holder is verified now. */
export interface DecisionState {
  share: LiveShare;
  view: Omit<DecisionView, 'step'>;
  sentTo: string;
  verified: boolean;
  mail: boolean;
}

/**
 * Reads a decide link's state in one snapshot: the share (or the one FORBIDDEN refusal), its revision and decision,
 * its recipient (masked), and whether `secret` (the page's cookie) is a live verified session of this share.
 */
export async function decisionState(
  db: Kysely<Database>,
  queryRow: RowReader,
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>,
  token: string,
  secret: string | undefined,
  now: string,
): Promise<DecisionState> {
  const share = await openDecisionShare(queryRow, token, now);
  const shared = await sharedRevision({ db, now }, share);
  const studio = await db
    .selectFrom('studios')
    .select(['brand_accent_colour', 'brand_logo_text'])
    .where('id', '=', share.studioId)
    .executeTakeFirstOrThrow();
  // The project's client document settings may give their own accent, as on the share page of its schedule.
  const settings = await db
    .selectFrom('client_document_settings')
    .select('accent_colour')
    .where('project_id', '=', share.projectId)
    .executeTakeFirst();
  const branding = {
    accentColour: settings?.accent_colour ?? studio.brand_accent_colour,
    logoText: studio.brand_logo_text,
  };
  const recipient = await db
    .selectFrom('shares')
    .select('recipient_email')
    .where('id', '=', share.shareId)
    .executeTakeFirstOrThrow();
  return {
    share,
    view: { token, expiresAt: share.expiresAt, shared, branding },
    sentTo: maskEmail(recipient.recipient_email ?? ''),
    verified: (await liveSession(db, share.shareId, secret, now)) !== undefined,
    mail: deliveryConfigured(config),
  };
}

/** The step a plain visit shows: the decision, a closed revision, no mail, the code step, or the answers. */
export function visitStep(state: DecisionState): Step {
  const { shared } = state.view;
  if (shared.decision) return { kind: 'decided' };
  if (shared.revision.state !== 'current') return { kind: 'closed' };
  if (!state.mail) return { kind: 'no_mail' };
  if (!state.verified) return { kind: 'verify', sentTo: state.sentTo, codeSent: false };
  const answers = new Map(shared.revision.pieces.map((p) => [p.pieceId, 'accepted' as const]));
  return { kind: 'choose', answers, name: '', comment: '' };
}

/** The page for a step, with its headers: the CSP allows its two stylesheets and forms posted to this server. */
export function decisionPage(view: DecisionView): { body: string; headers: Record<string, string> } {
  const style = `${accentStyle(view.branding.accentColour)}\n${DECISION_STYLE}`;
  const revision = view.shared.revision;
  return {
    body: layout(`${revision.title} · ${revision.studioName}`, decisionBody(view), style),
    headers: { ...SHARE_PAGE_HEADERS, 'content-security-policy': csp(`${STYLE_HASH} ${styleHash(style)}`, "'self'") },
  };
}
