import type { LineOutcome } from '../../../../db/vocabulary.js';
import type { SharedRevision } from '../../../domain/share-decisions/shared-revision.js';
import { PRICE_STATE_WORDS } from '../../../domain/documents/figures.js';
import { clientWords, localeOf } from '../../../domain/documents/client-words.js';
import { formatDate, formatMoney, formatNumber } from '../format.js';
import { masthead } from '../masthead.js';
import { type Html, html } from '../html.js';
import { acceptedTotals, type Answers } from './figures.js';

type Revision = SharedRevision['revision'];
type Piece = Revision['pieces'][number];

/** Where the client is in deciding, which decides the panel under the revision (and whether the pieces are a form). */
export type Step =
  | { kind: 'decided' }
  | { kind: 'closed' }
  | { kind: 'no_mail' }
  | { kind: 'verify'; sentTo: string; codeSent: boolean; alert?: string }
  | { kind: 'choose'; answers: Answers; name: string; comment: string; alert?: string }
  | { kind: 'confirm'; answers: Answers; name: string; comment: string; key: string };

export interface DecisionView {
  token: string;
  expiresAt: string | null;
  shared: SharedRevision;
  /** The studio's accent colour and mark, as the share page of its schedule shows them. */
  branding: { accentColour: string; logoText: string | null };
  step: Step;
}

const path = (view: DecisionView, action: string) => `/s/${view.token}/${action}`;

const wordsOf = (revision: Revision) => clientWords(localeOf(revision.currency));

/**
 * One piece on the share page's grid: its wording, reference and description on the left, its figures in the
 * right-aligned price column (quantity, unit price, net, tax, and the total in weight), then the answer under both
 * (asked, or as decided), after the figures it answers.
 */
function piece(p: Piece, view: DecisionView): Html {
  const words = wordsOf(view.shared.revision);
  const list: Array<[string, string]> = [['Quantity', words.quantity(p.quantity.amount4, p.quantity.unit)]];
  let last: Html;
  if (p.gross) {
    list.push(['Unit price', formatMoney(p.unitPrice!)], ['Net', formatMoney(p.net!)], ['Tax', formatMoney(p.tax!)]);
    last = html`<dt>Total</dt><dd class="amount">${formatMoney(p.gross)}</dd>`;
  } else {
    last = html`<dt>Price</dt><dd class="state">${p.priceState === 'set' ? '' : PRICE_STATE_WORDS[p.priceState]}</dd>`;
  }
  const answer = answerOf(p, view);
  const outside = !p.gross || p.excludedFromTotal ? html`<dt></dt><dd class="outside">Not in the total</dd>` : null;
  return html`<li class="piece"><article class="piece-grid no-photographs">
<div class="piece-body">
<div class="piece-head"><h3>${p.wording}</h3>${p.reference ? html`<p class="reference">Ref. ${p.reference}</p>` : null}</div>
${p.description ? html`<p class="description">${p.description}</p>` : null}
</div>
<dl class="figures">${list.map(([dt, dd]) => html`<dt>${dt}</dt><dd>${dd}</dd>`)}${last}${outside}</dl>
${answer ? html`<div class="piece-answer">${answer}</div>` : null}
</article></li>`;
}

/** At the top, as on the share page: how many pieces, which are still to be priced, the total and the deposit. */
function summary(revision: Revision): Html {
  const words = wordsOf(revision);
  const pending = revision.pieces.filter((p) => !p.gross).length;
  const items: Array<[string, string, string]> = [
    ['In this estimate', words.count(revision.pieces.length, 'piece'), 'count'],
    ['To be confirmed', pending ? words.count(pending, 'piece') : 'Nothing', 'pending'],
    ['Total', formatMoney(revision.totals.gross), 'total'],
  ];
  return html`<section class="summary" aria-label="Summary">
<dl class="summary-figures">${items.map(([dt, dd, kind]) => html`<div class="${kind}"><dt>${dt}</dt><dd>${dd}</dd></div>`)}</dl>
</section>`;
}

const OUTCOME_WORDS: Record<LineOutcome, string> = { accepted: 'Accepted', declined: 'Declined' };

function answerOf(p: Piece, view: DecisionView): Html | null {
  const step = view.step;
  if (step.kind === 'decided') {
    const outcome = view.shared.decision?.pieces.find((x) => x.pieceId === p.pieceId)?.outcome;
    return outcome ? html`<p class="outcome outcome-${outcome}">${OUTCOME_WORDS[outcome]}</p>` : null;
  }
  if (step.kind === 'confirm') {
    const outcome = step.answers.get(p.pieceId) ?? 'accepted';
    return html`<p class="outcome outcome-${outcome}">${OUTCOME_WORDS[outcome]}</p>`;
  }
  if (step.kind !== 'choose') return null;
  const chosen = step.answers.get(p.pieceId) ?? 'accepted';
  const radio = (value: LineOutcome, label: string) =>
    html`<label><input type="radio" name="piece.${p.pieceId}" value="${value}"${chosen === value ? html` checked` : null}> ${label}</label>`;
  return html`<fieldset class="answer"><legend class="visually-hidden">Your answer for ${p.wording}</legend>${radio('accepted', 'Accept')}${radio('declined', 'Decline')}</fieldset>`;
}

/** The revision's own figures as issued: totals, what is left out, the deposit and the terms. */
function terms(revision: Revision): Html {
  const left = revision.leftOutOfTotal;
  return html`<section class="document-section totals" aria-labelledby="totals">
<h2 id="totals">The offer</h2>
<dl class="figures">
<dt>Net</dt><dd>${formatMoney(revision.totals.net)}</dd>
<dt>Tax</dt><dd>${formatMoney(revision.totals.tax)}</dd>
<dt>Total</dt><dd class="amount">${formatMoney(revision.totals.gross)}</dd>
<dt>Deposit</dt><dd>${formatMoney(revision.deposit.amount)} (${formatNumber(revision.deposit.percent.ratio4 === '0' ? '0' : String(BigInt(revision.deposit.percent.ratio4) * 100n))}%)</dd>
</dl>
${left.length ? html`<p class="note">Not in the total: ${left.map((l) => l.wording).join(', ')}.</p>` : null}
${revision.paymentTerms ? html`<p class="description">${revision.paymentTerms}</p>` : null}
</section>`;
}

/** The running total of what the client's answers accept. */
function running(revision: Revision, answers: Answers): Html {
  const t = acceptedTotals(revision, answers);
  return html`<dl class="figures running">
<dt>Accepted</dt><dd>${t.acceptedCount} of ${wordsOf(revision).count(revision.pieces.length, 'piece')}</dd>
<dt>Net</dt><dd>${formatMoney(t.net)}</dd>
<dt>Tax</dt><dd>${formatMoney(t.tax)}</dd>
<dt>Total</dt><dd><strong>${formatMoney(t.gross)}</strong></dd>
<dt>Deposit</dt><dd>${formatMoney(t.deposit)}</dd>
</dl>`;
}

/** The panel under the revision: what the client can do now. */
function panel(view: DecisionView): Html {
  const { step, shared } = view;
  const revision = shared.revision;
  switch (step.kind) {
    case 'decided': {
      const d = shared.decision!;
      return html`<section class="panel" aria-labelledby="decided"><h2 id="decided">Decided</h2>
<p>${d.deciderName} ${d.outcome === 'declined' ? 'declined this estimate' : d.outcome === 'accepted' ? 'accepted this estimate' : 'accepted part of this estimate'} on ${formatDate(d.decidedAt)}.</p>
<dl class="figures running"><dt>Accepted total</dt><dd><strong>${formatMoney(d.accepted.gross)}</strong></dd><dt>Deposit</dt><dd>${formatMoney(d.deposit)}</dd></dl>
${d.comment ? html`<p class="description">${d.comment}</p>` : null}
<p class="note">The studio has your decision; it does not change.</p></section>`;
    }
    case 'closed':
      return html`<section class="panel"><h2>This revision can no longer be decided</h2>
<p>${revision.state === 'expired' ? `The offer was valid until ${revision.validUntil}.` : 'The studio has replaced or withdrawn it.'} Ask the studio for the current one.</p></section>`;
    case 'no_mail':
      return html`<section class="panel"><h2>Tell the studio your decision</h2>
<p>This page cannot confirm your email address, so it cannot take your decision. Tell the studio which pieces you accept; they will record your decision themselves.</p></section>`;
    case 'verify':
      return html`<section class="panel" aria-labelledby="verify"><h2 id="verify">Confirm it is you</h2>
${step.alert ? html`<p class="alert" role="alert">${step.alert}</p>` : null}
${
  step.codeSent
    ? html`<p class="info">We emailed a 6-digit code to ${step.sentTo}. It works for 10 minutes.</p>
<form method="post" action="${path(view, 'verify')}"><div class="form-row"><label for="code">Code from the email</label>
<input id="code" name="code" class="code-input" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required></div>
<div class="buttons"><button type="submit">Confirm</button></div></form>
<form method="post" action="${path(view, 'code')}"><div class="buttons"><button type="submit" class="secondary">Send another code</button></div></form>`
    : html`<p>To decide, confirm you can read email at ${step.sentTo}: we send a 6-digit code there.</p>
<form method="post" action="${path(view, 'code')}"><div class="buttons"><button type="submit">Email me a code</button></div></form>`
}</section>`;
    case 'choose':
      return html`<section class="panel" aria-labelledby="choose"><h2 id="choose">Your decision</h2>
${step.alert ? html`<p class="alert" role="alert">${step.alert}</p>` : null}
<p>Accept or decline each piece above. The total of what you accept:</p>
${running(revision, step.answers)}
<div class="buttons"><button type="submit" class="secondary" formaction="${path(view, 'answers')}" formnovalidate>Update the total</button></div>
<div class="form-row"><label for="name">Your name</label><input id="name" name="name" autocomplete="name" maxlength="200" value="${step.name}" required></div>
<div class="form-row"><label for="comment">A note to the studio (optional)</label><textarea id="comment" name="comment" maxlength="5000">${step.comment}</textarea></div>
<div class="buttons"><button type="submit">Review my decision</button></div></section>`;
    case 'confirm':
      return html`<section class="panel" aria-labelledby="confirm"><h2 id="confirm">Confirm your decision</h2>
<p>${step.name}, you are about to ${summaryOf(step.answers)} this estimate. Once sent, it does not change.</p>
${running(revision, step.answers)}
${step.comment ? html`<p class="description">${step.comment}</p>` : null}
<form method="post" action="${path(view, 'decision')}">${hidden(view, step)}<input type="hidden" name="key" value="${step.key}">
<div class="buttons"><button type="submit">Send my decision</button><button type="submit" class="secondary" formaction="${path(view, 'answers')}">Change my answers</button></div></form></section>`;
  }
}

const summaryOf = (answers: Answers) => {
  const values = [...answers.values()];
  if (values.every((o) => o === 'accepted')) return 'accept all of';
  if (values.every((o) => o === 'declined')) return 'decline all of';
  return `accept ${values.filter((o) => o === 'accepted').length} of ${values.length} pieces of`;
};

/** The answers, name and comment carried from the review to the confirmation as form fields. */
function hidden(view: DecisionView, step: { answers: Answers; name: string; comment: string }): Html {
  return html`${view.shared.revision.pieces.map((p) => html`<input type="hidden" name="piece.${p.pieceId}" value="${step.answers.get(p.pieceId) ?? 'accepted'}">`)}<input type="hidden" name="name" value="${step.name}"><input type="hidden" name="comment" value="${step.comment}">`;
}

/** The page's body: masthead, the revision as the client sees it, the panel for the step, and whose it is. */
export function decisionBody(view: DecisionView): Html {
  const revision = view.shared.revision;
  const pieces = html`<ul class="offer">${revision.pieces.map((p) => piece(p, view))}</ul>`;
  const until = view.expiresAt
    ? `This link works until ${formatDate(view.expiresAt)}.`
    : 'This link works until the studio withdraws it.';
  const body = html`<section class="document-section" aria-labelledby="pieces"><h2 id="pieces">The pieces</h2>${pieces}</section>
${terms(revision)}
${panel(view)}`;
  return html`${masthead(revision.studioName, view.branding.logoText)}
<main>
<div class="title-block">
<h1>${revision.title}</h1>
<p class="reference">Estimate ${revision.estimateNumber}, revision ${revision.revisionNumber}, issued ${formatDate(revision.issuedAt)}${revision.validUntil ? `; valid until ${revision.validUntil}` : ''}. Prices in ${revision.currency}.</p>
${revision.introduction ? html`<p class="introduction">${revision.introduction}</p>` : null}
</div>
${summary(revision)}
${view.step.kind === 'choose' ? html`<form method="post" action="${path(view, 'review')}">${body}</form>` : body}
</main>
<footer class="colophon"><p>Prepared for you by ${revision.studioName} for ${revision.projectName}.</p>
<p>${until} Anyone who has it can open this page, so please keep it to yourself.</p></footer>`;
}
