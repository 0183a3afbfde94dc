/** The share page's template helper: what comes from data is text, never markup. */
import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from '../../src/surfaces/share-page/html.js';
import { sharePage } from '../../src/surfaces/share-page/page.js';

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

  it("puts a studio's name on the page as text, in the heading and the title", () => {
    const page = sharePage({ studioName: '</title><script>x()</script>' });
    expect(page).not.toContain('<script>');
    expect(page).toContain('<h1>&lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;</h1>');
  });
});
