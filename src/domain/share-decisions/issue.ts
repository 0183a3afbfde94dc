import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ShareIntent } from '../../../db/vocabulary.js';
import { ServiceError } from '../../core/errors.js';
import { displayAmount, minorUnits, parseAmount4 } from '../../core/money.js';
import { type ClientEstimateRevision, readClientRevision } from '../estimates/client-revision.js';

/** The one document a new share opens: the project's client document, or an estimate revision to decide. */
export type ShareDocumentChoice =
  | { kind: 'client_document'; id: string }
  | { kind: 'estimate_revision'; id: string; revision: ClientEstimateRevision };

interface Asked {
  projectId: string;
  intent?: ShareIntent | undefined;
  estimateRevisionId?: string | undefined;
  recipientEmail?: string | undefined;
}

const invalid = (path: string, message: string, detail: string) =>
  new ServiceError('VALIDATION_FAILED', detail, { errors: [{ path, message }] });

/**
 * What issue_project_share shares: with intent decide (or an estimateRevisionId), the one revision named, which must be
 * the estimate's current one, still open to a decision, and a recipient to verify (the client proves control of that
 * mailbox with a code before deciding); otherwise the project's client document, to view.
 */
export async function sharedDocumentOf(ctx: { db: Kysely<Database> }, input: Asked): Promise<ShareDocumentChoice> {
  const revisionId = input.estimateRevisionId;
  if (input.intent !== 'decide' && revisionId === undefined) return { kind: 'client_document', id: input.projectId };
  if (input.intent === 'view')
    throw invalid('intent', 'A revision is shared to decide.', 'An estimate revision is shared with intent decide.');
  if (revisionId === undefined)
    throw invalid(
      'estimateRevisionId',
      'Required with intent decide.',
      'A decide link names the estimate revision it decides: send estimateRevisionId (list_estimate_revisions).',
    );
  if (!input.recipientEmail)
    throw invalid(
      'recipientEmail',
      'Required with intent decide.',
      'A decide link needs recipientEmail: before deciding, the client proves control of that mailbox with a code sent to it.',
    );
  const revision = await readClientRevision(ctx.db, revisionId);
  if (!revision) throw new ServiceError('NOT_FOUND', `No estimate revision ${revisionId} exists in this project.`);
  refuseClosed(revision);
  return { kind: 'estimate_revision', id: revisionId, revision };
}

/** A revision no decision can be made on is not shared to decide: the refusal a decision on it would get. */
function refuseClosed(revision: ClientEstimateRevision) {
  const which = `Revision ${revision.revisionNumber} of "${revision.title}"`;
  switch (revision.state) {
    case 'current':
      return;
    case 'decided':
      throw new ServiceError('REVISION_ALREADY_DECIDED', `${which} is already decided; nothing is left to decide.`);
    case 'expired':
      throw new ServiceError(
        'REVISION_EXPIRED',
        `${which} was valid until ${revision.validUntil}; issue a new revision (issue_estimate_revision) and share that.`,
      );
    default:
      throw new ServiceError(
        'REVISION_SUPERSEDED',
        `${which} is ${revision.state}; share the estimate's current revision (list_estimate_revisions).`,
      );
  }
}

/** The question before a decide link is issued: what the client will be able to accept, and who may. */
export function decideQuestion(revision: ClientEstimateRevision, recipient: string | null, expiresAt: string | null) {
  const gross = revision.totals.gross;
  const total = `${gross.currency} ${displayAmount(parseAmount4(gross.amount4), minorUnits(gross.currency))}`;
  const until = expiresAt === null ? 'until it is revoked' : `until ${expiresAt.slice(0, 10)}`;
  return `Send ${recipient} a link to accept or decline revision ${revision.revisionNumber} of "${revision.title}" (${total} including tax)? Whoever holds the link must also enter a code emailed to ${recipient} before deciding; the link works ${until}.`;
}
