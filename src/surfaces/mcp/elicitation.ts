import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ElicitResultSchema,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { Confirmer, ConfirmerAnswer } from '../../core/confirmation.js';

/** How long the person has to answer: the act waits outside any transaction, and a key stays in flight meanwhile. */
export const CONFIRMATION_WAIT_MS = 10 * 60 * 1000;

/** The smallest form a client can show: one box the person ticks to go ahead. */
const REQUESTED_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    confirm: {
      type: 'boolean',
      title: 'Yes, go ahead',
      description: 'Tick to let this happen; nothing changes otherwise.',
      default: false,
    },
  },
  required: ['confirm'],
};

/** Whether the client declared at initialize that it can put a form question to its user (elicitation, form mode). */
export const canElicit = (capabilities: ClientCapabilities | undefined) => Boolean(capabilities?.elicitation?.form);

/**
 * Puts the question of a confirmed act to the person through their MCP client (`elicitation/create`, sent as part of
 * the tools/call it belongs to), so the agent cannot answer it for them. Only `accept` with the box ticked goes ahead;
 * a decline, a cancel, an error or no answer within CONFIRMATION_WAIT_MS does not.
 */
export function elicitationConfirmer(extra: RequestHandlerExtra<ServerRequest, ServerNotification>): Confirmer {
  return {
    async ask(question): Promise<ConfirmerAnswer> {
      try {
        const answer = await extra.sendRequest(
          { method: 'elicitation/create', params: { message: question, requestedSchema: REQUESTED_SCHEMA } },
          ElicitResultSchema,
          { timeout: CONFIRMATION_WAIT_MS, signal: extra.signal },
        );
        if (answer.action === 'accept') return answer.content?.confirm === true ? 'accepted' : 'declined';
        return answer.action === 'decline' ? 'declined' : 'cancelled';
      } catch {
        return 'failed';
      }
    },
  };
}
