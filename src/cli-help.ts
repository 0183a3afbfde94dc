/**
 * What `studio --help` and each command's --help print, apart from the command that prints them so that a test can
 * read them (test/unit/configuration-docs.test.ts: every STUDIO_* variable the server reads is named in HELP.main).
 */
export const HELP: Record<string, string> = {
  main: `studio: the studio server (schedules, client documents, imports, procurement) for people and agents.

Usage: studio <command> [options]   (studio --version prints the version)

Commands:
  serve          Start the HTTP server (REST /v1, tRPC /api/trpc, docs). Seeds a demo studio on first start.
  mcp            Run an MCP server on stdin/stdout (for Claude Desktop and other MCP clients).
  migrate        Create or upgrade the database, then exit.
  token create   Mint an API token for a member and print it once.
  password set   Give a person a password (from standard input) for signing in.
  password reset Give a person a new random password for signing in and print it once.
  migrate-data   Copy a whole SQLite database into an empty PostgreSQL database, verified.
  sweep          Remove stored files nothing refers to any more (the server also does, every STUDIO_SWEEP_HOURS).

Run "studio <command> --help" for a command's options. Configuration comes from the environment (the README's
Configuration table says what each does):
  Serving: STUDIO_PORT (3000), STUDIO_HOST (127.0.0.1), STUDIO_BASE_URL, STUDIO_DOCS_URL, STUDIO_ALLOWED_ORIGINS,
    STUDIO_NO_DEMO=1, STUDIO_HEAP_GROWTH_PERCENT (50; 0: V8's own heap growth).
  Storage: STUDIO_DATABASE (data/studio.sqlite), STUDIO_DATABASE_URL (postgres://…, instead of the file),
    STUDIO_BLOB_DIR (blobs/ beside the database), STUDIO_STORAGE_QUOTA_BYTES (0: none), STUDIO_SWEEP_HOURS (24).
  Requests: STUDIO_BODY_LIMIT (bytes, 1048576), STUDIO_UPLOAD_LIMIT, STUDIO_MCP_BODY_LIMIT,
    STUDIO_HEADERS_TIMEOUT_MS, STUDIO_REQUEST_TIMEOUT_MS, STUDIO_KEEP_ALIVE_TIMEOUT_MS, STUDIO_IDLE_TIMEOUT_MS,
    STUDIO_MAX_INFLIGHT_BODIES, STUDIO_MAX_INFLIGHT_BODY_BYTES.
  Operations: STUDIO_WORKERS (1; 0: leave them to other processes), STUDIO_OPERATION_LEASE_SECONDS (30).
  Mail and links: STUDIO_SMTP_URL, STUDIO_MAIL_FROM, STUDIO_SECRET (32+ characters).
  Xero: STUDIO_XERO_CLIENT_ID, STUDIO_XERO_CLIENT_SECRET.
  Logs: STUDIO_LOG_LEVEL (silent, error, warn, info, debug), STUDIO_LOG_FORMAT (json, text).
  studio mcp: STUDIO_TOKEN.`,
  serve: `studio serve: start the HTTP server.

  Listens on STUDIO_HOST:STUDIO_PORT (127.0.0.1:3000). On an empty database it creates the demo studio
  "Hartley & Rowe Interiors" with the project Harbour House, and prints the owner's API token that once; it is
  kept in data/owner-token next to the database, and later starts print where. The owner's password for /login is
  printed that once too and kept nowhere (studio password reset gives a new one). Set STUDIO_NO_DEMO=1 to start empty.`,
  mcp: `studio mcp: serve MCP over stdio.

  Acts for the member whose API token is in STUDIO_TOKEN. Without it, acts for the owner of the database's only
  studio (anyone who can start the server can read the database file anyway) and says so on stderr.`,
  migrate: `studio migrate: apply pending database migrations to STUDIO_DATABASE_URL (PostgreSQL) or STUDIO_DATABASE and exit.`,
  'migrate-data': `studio migrate-data --from sqlite:PATH --to postgres://USER:PASSWORD@HOST:5432/DB

  Copies every table of the SQLite database into the PostgreSQL database (migrated to the same schema first, and
  holding no studio yet) in one transaction, then verifies it: the same row count in every table, and every studio's
  audit hash chain recomputed on PostgreSQL. On any failure the target is left empty. Stop the server first.`,
  sweep: `studio sweep [--grace-minutes N]

  Removes the files in STUDIO_BLOB_DIR that no photograph, document, package or import refers to any more (uploads
  refused after checking, canceled imports, renders never recorded, a turned photograph's earlier sizes) and that are
  older than N minutes (60), so an upload still on its way is left; then staged uploads a crash left behind. Prints
  what it removed. Safe while the server runs; a server running workers does the same every STUDIO_SWEEP_HOURS (24).`,
  token: `studio token create [--email EMAIL] [--name NAME] [--studio STUDIO_ID]

  Mints an API token for the member with that email (default: the owner of the only studio) and prints it.
  The token is shown once and stored only as a hash.`,
  password: `studio password set --email EMAIL [--generate]
studio password reset [--email EMAIL]

  Gives a person a password for signing in (/login, invitations, and the page where an MCP client connects over
  OAuth), stored only as a scrypt digest; at least 10 characters. "set" reads it from standard input (at a terminal
  it is asked for and not shown), or with --generate makes one up and prints it once. "reset" makes one up and prints
  it once, for the owner of the only studio unless --email names someone (the demo owner's is printed on the first
  start only). Either ends the person's sessions and lifts a sign-in lock.`,
};
