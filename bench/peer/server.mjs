/**
 * The hand-written peer of issue 27: what a competent developer would write for the three benchmarked requests alone,
 * on fastify and better-sqlite3, over the studio server's own database file. No framework of ours, no zod, no generic
 * pipeline; each request is a few prepared statements and a hand-built object, and the answer is byte for byte the
 * studio server's (bench/lib/peer.ts asserts it before anything is measured).
 *
 *   GET   /v1/projects/:projectId/items/:lineId  the line, a strong ETag
 *   PATCH /v1/projects/:projectId/items/:lineId  merge patch of `finish`, If-Match compared whole, version check,
 *                                                update and hash-chained audit row in one transaction (FULL)
 *   GET   /v1/projects/:projectId/items          the project's lines in document order (one page of up to 500)
 *
 * It does the same checks the studio server does for these requests (bearer token by SHA-256 digest, revoked or
 * expired token and removed member refused, the line's project in the caller's studio, project grants for roles that
 * need them, a write refused on an archived project or line) and no more: a caller without pricing:read, a project with
 * custom properties, a line on a purchase order, a longer list or another patch field answer 501, since the bench never sends them.
 */
import { createHash, randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const db = new Database(process.env.STUDIO_DATABASE);
db.pragma('journal_mode = WAL');
db.pragma(`synchronous = ${process.env.STUDIO_SYNCHRONOUS ?? 'FULL'}`);
db.pragma('busy_timeout = 5000');

const sha256 = (text) => createHash('sha256').update(text).digest('hex');
// The roles that read prices (the only ones the peer serves); each of them may also write projects.
const PRICED_ROLES = new Set(['owner', 'admin', 'designer']);
const ALL_PROJECT_ROLES = new Set(['owner', 'admin']);

const tokenQuery = db.prepare(`
  SELECT m.id AS member_id, m.studio_id, m.role, t.expires_at
  FROM api_tokens t JOIN members m ON m.id = t.member_id
  WHERE t.token_hash = ? AND t.revoked_at IS NULL AND m.removed_at IS NULL`);

// Ownership and everything the line is shown with, in one statement: line → project → studio, the caller's grant.
const lineQuery = db.prepare(`
  SELECT l.*, p.currency AS p_currency, COALESCE(p.default_markup4, s.default_markup4) AS p_markup,
    p.archived_at AS p_archived_at, sup.name AS supplier_name, u.name AS unit_name, g.level AS grant_level,
    (SELECT count(*) FROM custom_properties cp WHERE cp.project_id = p.id AND cp.archived_at IS NULL) AS property_count
  FROM lines l
  JOIN projects p ON p.id = l.project_id AND p.id = ? AND p.studio_id = ?
  JOIN studios s ON s.id = p.studio_id
  LEFT JOIN suppliers sup ON sup.id = l.supplier_id
  LEFT JOIN units u ON u.id = l.unit_id
  LEFT JOIN project_grants g ON g.project_id = p.id AND g.member_id = ?
  WHERE l.id = ?`);

const specificationsQuery = db.prepare(`
  SELECT ls.line_id, ls.specification_id, ls.position, s.name, s.archived_at
  FROM line_specifications ls JOIN specifications s ON s.id = ls.specification_id
  WHERE ls.line_id = ? ORDER BY ls.position`);

// A line's ordering is read from the purchase orders that name it (one indexed lookup); the bench's lines have none.
const orderedQuery = db.prepare('SELECT 1 FROM purchase_order_lines WHERE line_id = ? LIMIT 1');
const projectOrderedQuery = db.prepare('SELECT 1 FROM purchase_order_lines WHERE project_id = ? LIMIT 1');
const NOT_ORDERED = {
  state: 'not_ordered',
  ordered: { amount4: '0' },
  received: { amount4: '0' },
  purchaseOrder: null,
};

const projectQuery = db.prepare(`
  SELECT p.currency, COALESCE(p.default_markup4, s.default_markup4) AS markup, g.level AS grant_level,
    (SELECT count(*) FROM custom_properties cp WHERE cp.project_id = p.id AND cp.archived_at IS NULL) AS property_count
  FROM projects p JOIN studios s ON s.id = p.studio_id
  LEFT JOIN project_grants g ON g.project_id = p.id AND g.member_id = ?
  WHERE p.id = ? AND p.studio_id = ?`);

const listQuery = db.prepare(`
  SELECT l.*, sup.name AS supplier_name, u.name AS unit_name, sec.title AS section_title
  FROM lines l JOIN sections sec ON sec.id = l.section_id
  LEFT JOIN suppliers sup ON sup.id = l.supplier_id
  LEFT JOIN units u ON u.id = l.unit_id
  WHERE l.project_id = ? AND l.archived_at IS NULL
  ORDER BY sec.position, l.position, l.id LIMIT 501`);

const projectSpecificationsQuery = db.prepare(`
  SELECT ls.line_id, ls.specification_id, ls.position, s.name, s.archived_at
  FROM line_specifications ls JOIN specifications s ON s.id = ls.specification_id
  WHERE ls.project_id = ? ORDER BY ls.line_id, ls.position`);

const updateLine = db.prepare('UPDATE lines SET finish = ?, updated_at = ?, version = ? WHERE id = ? AND version = ?');
const chainHead = db.prepare('SELECT seq, digest FROM audit_events WHERE studio_id = ? ORDER BY seq DESC LIMIT 1');
const insertAudit = db.prepare(`
  INSERT INTO audit_events (id, studio_id, seq, project_id, actor_kind, actor_id, actor_via, action, target_kind,
    target_id, at, summary, changes, prev_digest, digest)
  VALUES (?, ?, ?, ?, 'member', ?, 'api_token', 'update_line', 'line', ?, ?, ?, ?, ?, ?)`);

class Refusal extends Error {
  constructor(status, code) {
    super(code);
    this.status = status;
    this.code = code;
  }
}

function caller(req) {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const row = m && m[1].length <= 512 ? tokenQuery.get(sha256(m[1])) : undefined;
  if (!row || (row.expires_at && row.expires_at <= new Date().toISOString())) throw new Refusal(401, 'UNAUTHENTICATED');
  if (!PRICED_ROLES.has(row.role)) throw new Refusal(501, 'NOT_IN_PEER');
  return row;
}

function reaches(who, grantLevel, write) {
  if (ALL_PROJECT_ROLES.has(who.role)) return;
  if (!grantLevel) throw new Refusal(404, 'NOT_FOUND');
  if (write && grantLevel === 'view') throw new Refusal(403, 'FORBIDDEN');
}

// Money: scale-4 integer strings, rounded half away from zero, as the studio server computes them.
const ONE = 10_000n;
function divRound(n, d) {
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const q = an / d;
  const rounded = (an % d) * 2n >= d ? q + 1n : q;
  return negative ? -rounded : rounded;
}
const money = (amount4, currency) => (amount4 === null ? null : { amount4: amount4.toString(), currency });
const priced = (state, amount4, currency) => ({ price: state === 'set' ? money(amount4, currency) : null, state });

function clientPricing(row, defaultMarkup4) {
  const markup4 = BigInt(row.markup4 ?? defaultMarkup4);
  const quantity4 = BigInt(row.quantity4);
  const trade4 = row.trade_state === 'set' && row.trade4 !== null ? BigInt(row.trade4) : null;
  if (row.client_state !== null) {
    const manual4 = row.client_state === 'set' && row.client4 !== null ? BigInt(row.client4) : null;
    return {
      price: manual4,
      state: row.client_state,
      source: 'manual',
      total: manual4 === null ? null : divRound(quantity4 * manual4, ONE),
      margin: manual4 !== null && trade4 !== null ? manual4 - trade4 : null,
    };
  }
  if (trade4 === null) return { price: null, state: row.trade_state, source: 'derived', total: null, margin: null };
  return {
    price: divRound(trade4 * (ONE + markup4), ONE),
    state: 'set',
    source: 'derived',
    total: divRound(quantity4 * trade4 * (ONE + markup4), ONE * ONE),
    margin: divRound(trade4 * markup4, ONE),
  };
}

const specificationOf = (s) => ({
  id: s.specification_id,
  name: s.name,
  position: s.position,
  archived: s.archived_at !== null,
});

function present(row, currency, markup, specifications) {
  const c = clientPricing(row, markup);
  return {
    id: row.id,
    projectId: row.project_id,
    sectionId: row.section_id,
    position: row.position,
    code: row.code,
    heading: row.heading,
    description: row.description,
    status: row.status,
    supplierId: row.supplier_id,
    supplierName: row.supplier_id === null ? null : row.supplier_name,
    brand: row.brand,
    productCode: row.product_code,
    url: row.url,
    finish: row.finish,
    dimensions: row.dimensions,
    leadTimeDays: row.lead_time_days,
    quantity: { amount4: row.quantity4, unitId: row.unit_id },
    unitName: row.unit_name,
    markup: row.markup4 === null ? null : { ratio4: row.markup4 },
    tradePrice: priced(row.trade_state, row.trade4, currency),
    retailPrice: priced(row.retail_state, row.retail4, currency),
    clientPrice: { price: money(c.price, currency), state: c.state, source: c.source },
    deliveryPrice: priced(row.delivery_state, row.delivery4, currency),
    properties: [],
    specifications: specifications.map(specificationOf),
    ordering: NOT_ORDERED,
    margin: money(c.margin, currency),
    clientTotal: money(c.total, currency),
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archived_at: row.archived_at,
  };
}

/** The line as its owner's caller sees it, with its row; 404 for a line that is not in this project of this studio. */
function readLine(who, projectId, lineId, write) {
  const row = lineQuery.get(projectId, who.studio_id, who.member_id, lineId);
  if (!row) throw new Refusal(404, 'NOT_FOUND');
  reaches(who, row.grant_level, write);
  if (row.property_count > 0 || orderedQuery.get(lineId)) throw new Refusal(501, 'NOT_IN_PEER');
  return { row, line: present(row, row.p_currency, row.p_markup, specificationsQuery.all(lineId)) };
}

// The line's tag: its version, a digest of the body without its ordering (what If-Match compares), then a digest of the
// ordering alone (the ordering moves without the version; src/core/etag.ts).
const tagOf = (line) => {
  const { ordering, ...rest } = line;
  const guarded = `"${line.version}-${sha256(JSON.stringify(rest)).slice(0, 8)}`;
  return `${guarded}-${sha256(JSON.stringify({ ordering })).slice(0, 8)}"`;
};
const guardedPart = (tag) => tag.replace(/^("\d{1,15}-[0-9a-f]{8})-[0-9a-f]{8}"$/, '$1"');

function patchLine(who, projectId, lineId, ifMatch, patch) {
  const keys = patch && typeof patch === 'object' && !Array.isArray(patch) ? Object.keys(patch) : [];
  if (keys.length !== 1 || keys[0] !== 'finish') throw new Refusal(501, 'NOT_IN_PEER');
  const finish = patch.finish;
  if (finish !== null && (typeof finish !== 'string' || finish.length > 200)) throw new Refusal(400, 'VALIDATION');
  if (!ifMatch) throw new Refusal(428, 'PRECONDITION_REQUIRED');
  const { row, line } = readLine(who, projectId, lineId, true);
  if (row.p_archived_at !== null || row.archived_at !== null) throw new Refusal(409, 'ARCHIVED');
  const tags = ifMatch.split(',').map((t) => guardedPart(t.trim()));
  if (!tags.includes(guardedPart(tagOf(line)))) throw new Refusal(409, 'VERSION_CONFLICT');
  if (finish === row.finish) return line;
  const at = new Date().toISOString();
  const after = { ...line, finish, version: row.version + 1, updatedAt: at };
  if (updateLine.run(finish, at, row.version + 1, lineId, row.version).changes !== 1) {
    throw new Refusal(409, 'VERSION_CONFLICT');
  }
  const head = chainHead.get(who.studio_id);
  const seq = (head?.seq ?? 0) + 1;
  const prev = head?.digest ?? '0'.repeat(64);
  const id = randomUUID();
  const summary = `Updated line ${row.code ?? ''} ${row.heading}`.replace(/\s+/g, ' ');
  const changes = JSON.stringify({ finish: { from: row.finish, to: finish } });
  const digest = sha256(
    prev +
      JSON.stringify({
        action: 'update_line',
        actorId: who.member_id,
        actorKind: 'member',
        actorVia: 'api_token',
        at,
        changes,
        id,
        projectId,
        seq,
        studioId: who.studio_id,
        summary,
        targetId: lineId,
        targetKind: 'line',
      }),
  );
  insertAudit.run(id, who.studio_id, seq, projectId, who.member_id, lineId, at, summary, changes, prev, digest);
  return after;
}
const patchInTransaction = db.transaction(patchLine).immediate;

function listLines(who, projectId) {
  const p = projectQuery.get(who.member_id, projectId, who.studio_id);
  if (!p) throw new Refusal(404, 'NOT_FOUND');
  reaches(who, p.grant_level, false);
  if (p.property_count > 0 || projectOrderedQuery.get(projectId)) throw new Refusal(501, 'NOT_IN_PEER');
  const rows = listQuery.all(projectId);
  if (rows.length > 500) throw new Refusal(501, 'NOT_IN_PEER');
  const specifications = new Map();
  if (rows.length) {
    for (const s of projectSpecificationsQuery.all(projectId)) {
      const list = specifications.get(s.line_id);
      if (list) list.push(s);
      else specifications.set(s.line_id, [s]);
    }
  }
  const items = rows.map((r) => present(r, p.currency, p.markup, specifications.get(r.id) ?? []));
  const sections = new Map();
  for (const r of rows) if (!sections.has(r.section_id)) sections.set(r.section_id, r.section_title);
  return { items, nextCursor: null, sections: [...sections].map(([id, title]) => ({ id, title })) };
}

const app = Fastify({ logger: false });
app.addContentTypeParser('application/merge-patch+json', { parseAs: 'string' }, (_req, body, done) => {
  try {
    done(null, JSON.parse(body));
  } catch (err) {
    err.statusCode = 400;
    done(err);
  }
});
app.setErrorHandler((err, _req, reply) => {
  reply.code(err.status ?? err.statusCode ?? 500).send({ code: err.code ?? 'INTERNAL' });
});
const sendLine = (reply, line) => {
  const body = JSON.stringify(line);
  reply.header('etag', tagOf(line)).type('application/json; charset=utf-8').send(body);
};
app.get('/v1/projects/:projectId/items/:lineId', (req, reply) => {
  sendLine(reply, readLine(caller(req), req.params.projectId, req.params.lineId, false).line);
});
app.patch('/v1/projects/:projectId/items/:lineId', (req, reply) => {
  const who = caller(req);
  sendLine(reply, patchInTransaction(who, req.params.projectId, req.params.lineId, req.headers['if-match'], req.body));
});
app.get('/v1/projects/:projectId/items', (req, reply) => {
  reply.type('application/json; charset=utf-8').send(JSON.stringify(listLines(caller(req), req.params.projectId)));
});

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`peer server listening on ${address}`);
const close = async () => {
  await app.close();
  db.close();
  process.exit(0);
};
process.once('SIGINT', close);
process.once('SIGTERM', close);
