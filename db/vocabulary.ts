/**
 * The closed sets that text columns hold, each a list and its literal union. The table types use these unions, so a
 * row read from the database already carries them; nothing below or above has its own copy.
 */

export const CURRENCIES = [
  'AUD',
  'CAD',
  'CHF',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'JPY',
  'NOK',
  'NZD',
  'SEK',
  'SGD',
  'USD',
  'ZAR',
] as const;
export type Currency = (typeof CURRENCIES)[number];

/** A studio member's role; what each allows is in src/core/permissions.ts. */
export const ROLES = ['owner', 'admin', 'designer', 'assistant', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an invitation or a role change may give: everything but `owner`, which only a transfer hands on. */
export const ASSIGNABLE_ROLES = ['admin', 'designer', 'assistant', 'viewer'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

/** A member's access to one project. */
export const GRANT_LEVELS = ['view', 'edit'] as const;
export type GrantLevel = (typeof GRANT_LEVELS)[number];

export const PROJECT_STATUSES = ['active', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** Where a schedule line stands in its life. */
export const LINE_STATUSES = [
  'draft',
  'specified',
  'approved',
  'ordered',
  'delivered',
  'installed',
  'on_hold',
] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

/** The state of a priced field: only `set` carries an amount. */
export const VALUE_STATES = ['set', 'tbc', 'poa', 'included', 'by_others'] as const;
export type ValueState = (typeof VALUE_STATES)[number];

/** Who made an audited change. */
export const ACTOR_KINDS = ['member', 'share_client', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/**
 * How a member reached the server when they made a change: with an API token, through an OAuth grant, as the local
 * owner of a stdio server started without a token, or on this server's own web pages (an invitation's page). Null for
 * system changes and events recorded before it was kept.
 */
export const ACTOR_CHANNELS = ['api_token', 'oauth', 'local_owner', 'web'] as const;
export type ActorChannel = (typeof ACTOR_CHANNELS)[number];

/**
 * Why an OAuth connection (grant) ended: revoked through the revocation endpoint, a spent refresh token or
 * authorization code presented again (a sign that one was stolen: the whole connection goes), or its member left.
 */
export const OAUTH_REVOCATION_REASONS = ['revoked', 'refresh_token_reused', 'code_reused', 'member_removed'] as const;
export type OAuthRevocationReason = (typeof OAUTH_REVOCATION_REASONS)[number];

/**
 * The kind of record an audit event is about (`line`, `project` …), as the store keeps it: text. The kinds are a closed
 * set, but each domain declares its own beside its entities, so the closed union and the published enumeration are in
 * src/core/audit-kinds.ts, not here.
 */
export type AuditTargetKind = string;

/**
 * What a document of a project is: the client schedule (cover, sections of pieces, totals, removed pieces, then a
 * spec sheet per piece), the spec sheets alone, an export of the client schedule as a spreadsheet, or a package (a
 * ZIP of the project's documents, its export and its photographs), or an estimate revision as the client sees it.
 */
export const DOCUMENT_KINDS = [
  'client_schedule',
  'spec_sheets',
  'client_export',
  'project_package',
  'estimate',
  // A purchase order revision as the supplier reads it: trade prices, never a client price (generate_document).
  'purchase_order',
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** A document's file format. */
export const DOCUMENT_FORMATS = ['pdf', 'xlsx', 'csv', 'zip'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/**
 * What a document was made from: the live client document as it was then, a minted client document version, or what
 * a share link showed (retain_client_link_pdf). A package is made from the live project.
 */
export const DOCUMENT_SOURCE_KINDS = [
  'live',
  'version',
  'share',
  'estimate_revision',
  'purchase_order_revision',
] as const;
export type DocumentSourceKind = (typeof DOCUMENT_SOURCE_KINDS)[number];

/**
 * How an invitation's link reaches its person: by email from this server (when it sends email), or shown once to the
 * member who invited, to pass on.
 */
export const INVITATION_DELIVERIES = ['email', 'link'] as const;
export type InvitationDelivery = (typeof INVITATION_DELIVERIES)[number];

/** Where an invitation's email stands: being sent (an operation), taken by the mail server, or refused by it. */
export const INVITATION_EMAIL_STATUSES = ['sending', 'sent', 'failed'] as const;
export type InvitationEmailStatus = (typeof INVITATION_EMAIL_STATUSES)[number];

/** Where an email delivery of a document stands. */
export const DELIVERY_STATUSES = ['queued', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * What a custom property holds, on each line: text (short or long), a number or an amount of money (scale-4 integer
 * strings), a calendar date, yes or no, one or several choices among the property's options, or a web address.
 */
export const PROPERTY_KINDS = [
  'text',
  'long_text',
  'number',
  'money',
  'date',
  'yes_no',
  'single_choice',
  'multiple_choice',
  'url',
] as const;
export type PropertyKind = (typeof PROPERTY_KINDS)[number];

/** The photograph types kept, as their bytes say (never as the sender says). */
export const PHOTOGRAPH_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/avif'] as const;
export type PhotographType = (typeof PHOTOGRAPH_TYPES)[number];

/** The line fields a client document may show as columns beside each piece's heading, description and price. */
export const CLIENT_DOCUMENT_COLUMNS = [
  'supplier',
  'brand',
  'productCode',
  'finish',
  'dimensions',
  'leadTime',
] as const;
export type ClientDocumentColumn = (typeof CLIENT_DOCUMENT_COLUMNS)[number];

/**
 * What a share opens. For now only the project's live client document (its id is the project's id); an estimate
 * revision joins this list with estimates.
 */
export const SHARE_DOCUMENT_KINDS = ['client_document', 'estimate_revision'] as const;
export type ShareDocumentKind = (typeof SHARE_DOCUMENT_KINDS)[number];

/** What a share's holder may do with its document: view it. `decide` (an estimate revision) arrives with estimates. */
export const SHARE_INTENTS = ['view', 'decide'] as const;
export type ShareIntent = (typeof SHARE_INTENTS)[number];

/** Where an operation stands: waiting for a worker, being worked on, or finished one of three ways. */
export const OPERATION_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];
/**
 * Where a spreadsheet import stands: uploaded (read, not yet previewed), previewed (a mapping chosen and checked),
 * committing (accepted for applying; only while an operation applies it), committed (its lines are in the
 * schedule), canceled (before commit: nothing was applied) or failed (applying it failed: nothing was applied).
 */
export const IMPORT_STATUSES = ['uploaded', 'previewed', 'committing', 'committed', 'canceled', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** The file formats an import reads, as the file's bytes say: delimited text (CSV, TSV) or an Excel workbook. */
export const IMPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Where an import's column mapping came from: proposed from its headings, a saved mapping, or given by the caller. */
export const MAPPING_SOURCES = ['proposed', 'saved', 'given'] as const;
export type MappingSource = (typeof MAPPING_SOURCES)[number];

/**
 * The tables of the studio's screens that a member arranges (a table layout) and keeps saved views of. Each is the
 * list of one list action (list_schedule_lines, list_studio_projects, list_suppliers, list_clients), whose filters and
 * sorts a saved view names.
 */
export const INTERFACE_TABLES = ['schedule_lines', 'projects', 'suppliers', 'clients'] as const;
export type InterfaceTable = (typeof INTERFACE_TABLES)[number];

/** The kinds of record the inspector (the panel beside a table showing one record) shows, each with its own layout. */
export const INSPECTOR_RECORDS = ['schedule_line', 'project', 'supplier', 'client'] as const;
export type InspectorRecord = (typeof INSPECTOR_RECORDS)[number];

/** What an interface layout arranges: a table's columns, or the inspector's panels. */
export const LAYOUT_KINDS = ['table', 'inspector'] as const;
export type LayoutKind = (typeof LAYOUT_KINDS)[number];

/**
 * What a project charge bills besides goods, in the words studios use. Each type takes the figures of one basis:
 * `fixed` (an amount), `hourly` (hours × an hourly rate) or `cost` (a cost passed on, with or without a handling
 * markup). The sentences are what list_charge_types answers, for an agent choosing a type.
 */
export const CHARGE_TYPES = ['design_fee', 'time', 'reimbursable', 'disbursement', 'freight'] as const;
export type ChargeType = (typeof CHARGE_TYPES)[number];

/** How a charge's net is worked out from its figures. */
export const CHARGE_BASES = ['fixed', 'hourly', 'cost'] as const;
export type ChargeBasis = (typeof CHARGE_BASES)[number];

export const CHARGE_TYPE_GUIDE: Record<ChargeType, { label: string; basis: ChargeBasis; means: string }> = {
  design_fee: {
    label: 'Design fee',
    basis: 'fixed',
    means:
      "A fixed fee for the studio's design work (a concept stage, a scheme, a room): send fixedAmount, the net before tax.",
  },
  time: {
    label: 'Time',
    basis: 'hourly',
    means:
      'Hours worked billed at an hourly rate (extra design time, site visits, project management): send hours and hourlyRate; the net is hours × rate.',
  },
  reimbursable: {
    label: 'Reimbursable',
    basis: 'cost',
    means:
      'A cost the studio paid for the project and passes on (samples, printing, travel): send cost and, when the studio adds a handling charge, handlingMarkup; the net is cost × (1 + markup).',
  },
  disbursement: {
    label: 'Disbursement',
    basis: 'cost',
    means:
      "A payment made on the client's behalf to a third party (a planning fee, a contractor's invoice): send cost and, if any, handlingMarkup; the net is cost × (1 + markup).",
  },
  freight: {
    label: 'Freight',
    basis: 'cost',
    means:
      "Shipping, courier or carriage not on a line's delivery price: send cost and, if any, handlingMarkup; the net is cost × (1 + markup).",
  },
};

/**
 * Where a supplier enquiry stands: draft (being written), sent (emailed to its suppliers), partly_responded (some of
 * them answered), responded (all answered), applied (a response's prices were written onto the lines), closed (ended;
 * nothing more is recorded or applied).
 */
export const ENQUIRY_STATES = ['draft', 'sent', 'partly_responded', 'responded', 'applied', 'closed'] as const;
export type EnquiryState = (typeof ENQUIRY_STATES)[number];

/** Where an enquiry's email to one supplier stands: not sent yet, queued for the mail server, sent, or refused. */
export const ENQUIRY_MAIL_STATUSES = ['unsent', 'queued', 'sent', 'failed'] as const;
export type EnquiryMailStatus = (typeof ENQUIRY_MAIL_STATUSES)[number];

/** What kind of product a specification describes: the library's filter, and words its search matches. */
export const SPECIFICATION_CATEGORIES = [
  'seating',
  'tables',
  'storage',
  'beds',
  'lighting',
  'rugs',
  'textiles',
  'window_treatments',
  'wall_finishes',
  'flooring',
  'tiles',
  'joinery',
  'kitchen',
  'sanitaryware',
  'ironmongery',
  'appliances',
  'accessories',
  'artwork',
  'outdoor',
  'other',
] as const;
export type SpecificationCategory = (typeof SPECIFICATION_CATEGORIES)[number];

/** The units a specification's width, depth and height are given in. */
export const LENGTH_UNITS = ['mm', 'cm', 'm', 'in'] as const;
export type LengthUnit = (typeof LENGTH_UNITS)[number];

/**
 * The fields of a specification a studio may let its client see (its name always shows). Anything else a
 * specification holds (its notes, its SKU when not chosen) never reaches a client document, page or PDF.
 */
export const SPECIFICATION_CLIENT_FIELDS = [
  'category',
  'manufacturer',
  'model',
  'sku',
  'description',
  'dimensions',
  'materials',
  'finishes',
  'colours',
  'careNotes',
  'installationNotes',
  'leadTimeDays',
  'links',
] as const;
export type SpecificationClientField = (typeof SPECIFICATION_CLIENT_FIELDS)[number];

/**
 * Where an estimate stands: a draft (never issued), issued (a current revision awaits the client), decided on its
 * current revision (accepted, partly_accepted line by line, declined), or voided (withdrawn, with a reason). A decided
 * or voided estimate is closed: duplicate_estimate starts again from it.
 */
export const ESTIMATE_STATES = ['draft', 'issued', 'accepted', 'partly_accepted', 'declined', 'voided'] as const;
export type EstimateState = (typeof ESTIMATE_STATES)[number];

/**
 * Where an issued revision (of an estimate, later of a purchase order) stands, as stored: the current one, superseded
 * by a later issue, decided, or voided with its record. `expired` is shown, never stored: a current revision read after
 * its valid-until date (see src/domain/kit/revisions.ts).
 */
export const STORED_REVISION_STATES = ['current', 'superseded', 'decided', 'voided'] as const;
export type StoredRevisionState = (typeof STORED_REVISION_STATES)[number];
export const REVISION_STATES = [...STORED_REVISION_STATES, 'expired'] as const;
export type RevisionState = (typeof REVISION_STATES)[number];

/** What a decision on a whole estimate revision came to: every line accepted, some, or none. */
export const DECISION_OUTCOMES = ['accepted', 'partly_accepted', 'declined'] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/** A line's answer in a decision. */
export const LINE_OUTCOMES = ['accepted', 'declined'] as const;
export type LineOutcome = (typeof LINE_OUTCOMES)[number];

/** Who recorded a decision: the client through their share link (a verified mailbox), or the studio on their word. */
export const DECIDED_BY_KINDS = ['client', 'studio'] as const;
export type DecidedByKind = (typeof DECIDED_BY_KINDS)[number];

/** How the client told the studio, for a decision the studio recorded itself. */
export const DECISION_METHODS = ['in_person', 'phone', 'email', 'letter', 'other'] as const;
export type DecisionMethod = (typeof DECISION_METHODS)[number];

/**
 * Where a purchase order stands: a draft (never issued), issued (a current revision is with the supplier),
 * partly_delivered (some of it received), delivered (everything ordered received), or cancelled (with a reason).
 * Delivered and cancelled orders are closed.
 */
export const PURCHASE_ORDER_STATES = ['draft', 'issued', 'partly_delivered', 'delivered', 'cancelled'] as const;
export type PurchaseOrderState = (typeof PURCHASE_ORDER_STATES)[number];

/**
 * Where a schedule line stands with its suppliers, read from its purchase orders (never written on the line): not
 * ordered; on a draft order only; ordered (issued, nothing received yet); partly received; received (all it was
 * ordered in).
 */
export const LINE_ORDERING_STATES = ['not_ordered', 'on_draft', 'ordered', 'partly_received', 'received'] as const;
export type LineOrderingState = (typeof LINE_ORDERING_STATES)[number];

/** Why create_purchase_orders_by_supplier left a line out rather than guess. */
export const ORDER_SKIP_REASONS = ['no_supplier', 'no_trade_price', 'already_ordered', 'archived'] as const;
export type OrderSkipReason = (typeof ORDER_SKIP_REASONS)[number];

/** The kinds of thing billed that map_accounting_accounts sends to a revenue account and tax type: goods, then each charge type. */
export const ACCOUNTING_BILLED_KINDS = ['goods', ...CHARGE_TYPES] as const;
export type AccountingBilledKind = (typeof ACCOUNTING_BILLED_KINDS)[number];

/** What of a decided estimate revision an invoice bills: its deposit, or its accepted pieces. */
export const ACCOUNTING_REVISION_PARTS = ['deposit', 'accepted_pieces'] as const;
export type AccountingRevisionPart = (typeof ACCOUNTING_REVISION_PARTS)[number];

/** Where a push stands: sending (its operation runs), pushed (Xero holds the draft invoice), or failed. */
export const ACCOUNTING_PUSH_STATUSES = ['sending', 'pushed', 'failed'] as const;
export type AccountingPushStatus = (typeof ACCOUNTING_PUSH_STATUSES)[number];

/** How one attempt to push went: pushed, failed (with the reason), or retried (Xero asked to wait, and it was). */
export const ACCOUNTING_SYNC_OUTCOMES = ['pushed', 'failed', 'retried'] as const;
export type AccountingSyncOutcome = (typeof ACCOUNTING_SYNC_OUTCOMES)[number];
