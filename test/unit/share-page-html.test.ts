/** The share page's template helper and its document page: what comes from data is text, never markup. */
import { describe, expect, it } from 'vitest';
import type { SharedClientDocument } from '../../src/domain/shares/shared-document.js';
import { escapeHtml, html } from '../../src/surfaces/share-page/html.js';
import { documentPage } from '../../src/surfaces/share-page/page.js';

describe('html`…`', () => {
  it('escapes every interpolated value, keeps nested templates as markup, joins arrays and drops null and false', () => {
    const name = `<script>alert("x")</script> & 'co'`;
    expect(html`<h1>${name}</h1>`.value).toBe(
      '<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</h1>',
    );
    expect(html`<ul>${['a<', 'b'].map((x) => html`<li>${x}</li>`)}</ul>`.value).toBe(
      '<ul><li>a&lt;</li><li>b</li></ul>',
    );
    expect(html`<p>${null}${undefined}${false}${0}</p>`.value).toBe('<p>0</p>');
    expect(escapeHtml('"\'<>&')).toBe('&quot;&#39;&lt;&gt;&amp;');
  });
});

const HOSTILE = '</title><script>x()</script>';

/** A shared document whose every text field a studio or its client could write is markup-shaped. */
const shared = (accentColour: string): SharedClientDocument => ({
  intent: 'view',
  expiresAt: null,
  estimateRevision: null,
  document: {
    title: HOSTILE,
    introduction: HOSTILE,
    projectName: HOSTILE,
    studioName: HOSTILE,
    branding: { accentColour, logoText: HOSTILE },
    currency: 'GBP',
    showPrices: true,
    columns: ['brand'],
    piecesAsOf: '2026-11-22T10:15:00.000Z',
    photographsAsOf: '2026-11-22T10:15:00.000Z',
    sections: [
      {
        title: HOSTILE,
        pieces: [
          {
            reference: HOSTILE,
            heading: `"><img src=x onerror=alert(1)>`,
            description: HOSTILE,
            quantity: { amount4: '10000', unit: HOSTILE },
            priceState: 'set',
            unitPrice: { amount4: '12500000', currency: 'GBP' },
            total: { amount4: '12500000', currency: 'GBP' },
            // A shown column: the domain's type leaves the settings' columns open.
            ...({ brand: HOSTILE } as object),
            properties: [{ name: HOSTILE, kind: 'text', value: HOSTILE }],
            photographs: [
              {
                id: 'p1',
                width: 400,
                height: 600,
                alt: `"><img src=x onerror=alert(1)>`,
                url: '/s/t/photographs/p1?variant=display',
                thumbnailUrl: '/s/t/photographs/p1?variant=thumbnail',
              },
            ],
          },
        ],
        total: { amount4: '12500000', currency: 'GBP' },
      },
    ],
    removedPieces: [{ reference: HOSTILE, heading: HOSTILE, removedAt: '2026-11-22T10:15:00.000Z' }],
    totals: { pieceCount: 1, total: { amount4: '12500000', currency: 'GBP' }, piecesToConfirm: 0 },
  },
});

describe('the document page', () => {
  it("puts every text from the studio's data on the page as text, never as markup", () => {
    const { body } = documentPage(shared('#7a4b2a'));
    expect(body).not.toContain('<script>');
    expect(body).not.toContain('<img src=x');
    expect(body).toContain('<h1>&lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;</h1>');
    expect(body).toContain('alt="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
  });

  it('allows exactly its two stylesheets by hash, and an accent that is not #rrggbb never reaches the CSS', () => {
    const { body, headers } = documentPage(shared('#7a4b2a'));
    expect(body).toContain('--accent: #7a4b2a');
    expect(headers['content-security-policy']!.match(/'sha256-/g)).toHaveLength(2);
    expect(headers['content-security-policy']).toContain("img-src 'self'");
    // The print stylesheet hides the room bar with `display: none` of its own: the probe is a rule the page never has.
    const odd = documentPage(shared('red; } body { visibility: collapse'));
    expect(odd.body).not.toContain('visibility: collapse');
    expect(odd.body).not.toContain('--accent: red');
  });

  it('picks the masthead text that reads better on the accent: white on dark, near black on light', () => {
    expect(documentPage(shared('#1f2937')).body).toContain('--on-accent: #ffffff');
    expect(documentPage(shared('#f5e6c8')).body).toContain('--on-accent: #111827');
  });
});
