import { escapeHtml, Html } from '../share-page/html.js';

/**
 * The inline Markdown the catalog's texts use (`code` and **bold**), as HTML; everything else is text, escaped. Code is
 * taken first, so an asterisk inside it stays an asterisk.
 */
export function inlineMarkdown(text: string): Html {
  const parts = text.split(/(`[^`]+`)/);
  const out = parts.map((part) =>
    part.startsWith('`') && part.endsWith('`') && part.length > 1
      ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
      : escapeHtml(part).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>'),
  );
  return new Html(out.join(''));
}

/**
 * Markdown prose made of paragraphs and `- ` lists (blocks apart by a blank line; a list item's lines after its first
 * are indented), as HTML.
 */
export function markdownBlocks(text: string): Html {
  const blocks = text.trim().split(/\n\s*\n/);
  return new Html(
    blocks
      .map((block) => {
        if (!block.startsWith('- ')) return `<p>${inlineMarkdown(block.replace(/\s*\n\s*/g, ' ')).value}</p>`;
        const items = block.split(/\n(?=- )/).map((item) => item.slice(2).replace(/\s*\n\s*/g, ' '));
        return `<ul>${items.map((item) => `<li>${inlineMarkdown(item).value}</li>`).join('')}</ul>`;
      })
      .join('\n'),
  );
}
