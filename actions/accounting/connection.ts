import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as accounting from '../../src/domain/accounting/connection.js';
import '../../src/domain/accounting/entity.js';
import { CONFIRMED } from '../shared/confirmation.js';

const ConnectionState = z
  .strictObject({
    status: z
      .enum(['not_connected', 'connected', 'needs_reconnect'])
      .describe('needs_reconnect: Xero refused the kept tokens; connect_accounting again.'),
    provider: z.enum(['xero']).nullable(),
    organisationName: z.string().nullable().describe("The Xero organisation's name; null when not connected."),
    connectedAt: z.string().nullable(),
  })
  .describe("The studio's accounting connection. Tokens are kept encrypted on the server and never shown.");

export const getAccountingConnection = defineAction({
  name: 'get_accounting_connection',
  kind: 'procedure',
  effect: 'query',
  domain: 'accounting',
  summary: 'Whether the studio is connected to Xero, and to which organisation.',
  description:
    "Answers not_connected, connected (with the Xero organisation's name and when it was connected) or needs_reconnect (Xero refused the kept tokens, e.g. access was removed in Xero: call connect_accounting again). Read it before pushing an invoice.",
  intents: ['are we connected to xero', 'which xero organisation are we linked to', 'check the accounting connection'],
  scope: 'accounting:manage',
  input: z.strictObject({}),
  output: ConnectionState,
  errors: [],
  example: {},
  handler: (ctx) => accounting.getConnection(ctx),
});

export const connectAccounting = defineAction({
  name: 'connect_accounting',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'accounting',
  summary: 'Start connecting the studio to Xero: answers the link the person opens to agree in Xero.',
  description: `Answers authorizationUrl, a Xero page (valid ten minutes, one use) where the person signs in and chooses the organisation; when they agree, Xero sends them back to this server, which keeps the connection (get_accounting_connection then answers connected). Connecting again replaces the current connection. Needs workspace:manage (owners and admins): it decides where the studio's invoices go. ${CONFIRMED} ACCOUNTING_NOT_CONFIGURED: the server has no Xero app registration.`,
  intents: ['connect xero', 'link our accounting software', 'set up xero for invoicing'],
  scope: 'workspace:manage',
  keyed: true,
  input: z.strictObject({}),
  output: z.strictObject({
    provider: z.enum(['xero']),
    authorizationUrl: z.string().describe('Give it to the person to open in their browser.'),
    expiresAt: z.string(),
  }),
  errors: ['ACCOUNTING_NOT_CONFIGURED'],
  confirmation: { ask: (ctx) => accounting.connectQuestion(ctx) },
  example: { commandKey: '00000000-0000-4000-8000-000000000000', confirm: true },
  handler: (ctx) => accounting.connectAccounting(ctx),
});

export const disconnectAccounting = defineAction({
  name: 'disconnect_accounting',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'accounting',
  summary: 'Disconnect the studio from Xero: revokes access at Xero and forgets the tokens.',
  description: `Ends the connection: the tokens kept for Xero are deleted here and revoked at Xero; invoices already pushed stay in Xero. Disconnecting when not connected changes nothing and asks nothing. Needs workspace:manage (owners and admins). ${CONFIRMED}`,
  intents: [
    'disconnect xero',
    'stop syncing with our accounts',
    'remove the link between the studio and our accounting software',
  ],
  scope: 'workspace:manage',
  input: z.strictObject({}),
  output: ConnectionState,
  errors: [],
  confirmation: { ask: (ctx) => accounting.disconnectQuestion(ctx) },
  example: { confirm: true },
  handler: (ctx) => accounting.disconnectAccounting(ctx),
});
