import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import type { RowReader } from '../../db/store.js';
import type { Caller } from './context.js';
import { ServiceError } from './errors.js';

/**
 * Acts the person must agree to themselves (handing the studio on, removing a member, sharing the schedule; financial
 * acts to come): declared once on the action (`confirmation` on its ActionSpec) and enforced by `invoke` alone, before
 * the write transaction opens. Where the surface can ask the person directly (an MCP client that declared elicitation)
 * it does, and an agent's `confirm: true` is not enough; elsewhere the caller sends `confirm: true` once the person
 * has agreed. Handlers never see `confirm`.
 */
export interface Confirmation<In = Record<string, unknown>> {
  /**
   * The question put to the person, naming exactly what will happen ("Remove Jo Baker (jo@…) from Hartley & Rowe?
   * Their API tokens … stop working at once."), or null when the act would change nothing and so needs no agreement.
   * It throws the act's own refusals (the owner cannot be removed), so a person is only asked about an act that would
   * happen. Runs on a read snapshot after ownership, guards, a keyed replay and the version were checked; the handler
   * checks its rules again inside the transaction.
   */
  ask(ctx: ConfirmationContext, input: In): Promise<string | null>;
}

/** What `ask` reads through: the request's read snapshot, before any write. */
export interface ConfirmationContext {
  db: Kysely<Database>;
  queryRow: RowReader;
  caller: Caller;
  studioId: string;
  /** The project the input names, when it names one (resolved by ownership). */
  project?: Database['projects'];
}

/**
 * A surface's way of putting the question to the person themselves (MCP `elicitation/create`): resolves to their
 * answer; it never resolves `accepted` unless the person accepted with the box ticked.
 */
export interface Confirmer {
  ask(question: string): Promise<ConfirmerAnswer>;
}

/** accepted: go ahead; declined or cancelled: the person said no or dismissed it; failed: they could not be asked. */
export type ConfirmerAnswer = 'accepted' | 'declined' | 'cancelled' | 'failed';

/**
 * How an act was confirmed, recorded as `confirmedBy` in the changes of its audit events: `elicitation` when the
 * server asked the person and they accepted, `confirm_flag` when the caller sent `confirm: true`.
 */
export const CONFIRMED_BY = ['elicitation', 'confirm_flag'] as const;
export type ConfirmedBy = (typeof CONFIRMED_BY)[number];

/** The input field a confirmed action takes (added by defineAction, like a version or key field). */
export const CONFIRM_FIELD = 'confirm';

export const confirmSchema = z
  .boolean()
  .optional()
  .describe(
    'true once the person has agreed to exactly this act; without it nothing changes (CONFIRMATION_REQUIRED). An MCP client that supports elicitation is asked to show the person the question instead, and this field is then not enough.',
  );

/**
 * The person's agreement to `question`: asked through `confirmer` when the surface has one (whatever `confirm` says),
 * else the caller's `confirm: true`. Throws CONFIRMATION_REQUIRED or CONFIRMATION_DECLINED, and nothing has changed.
 */
export async function obtainConfirmation(
  question: string,
  confirm: unknown,
  confirmer: Confirmer | undefined,
): Promise<ConfirmedBy> {
  if (!confirmer) {
    if (confirm === true) return 'confirm_flag';
    throw new ServiceError(
      'CONFIRMATION_REQUIRED',
      `This needs the person's own agreement: "${question}" Ask them in these words; only once they agree, repeat the same call with confirm: true.`,
    );
  }
  const answer = await confirmer.ask(question);
  if (answer === 'accepted') return 'elicitation';
  throw new ServiceError('CONFIRMATION_DECLINED', DECLINED[answer]);
}

const DECLINED: Record<Exclude<ConfirmerAnswer, 'accepted'>, string> = {
  declined:
    'The person declined when asked to confirm this, so nothing changed. Do not repeat it (confirm: true does not replace their answer); ask them what they want instead.',
  cancelled:
    'The person closed the confirmation without agreeing, so nothing changed. Repeat the call only if they tell you they want it after all.',
  failed:
    'The person could not be asked to confirm this (their client did not answer the question in time), so nothing changed. Repeat the call only once they are there to answer it.',
};
