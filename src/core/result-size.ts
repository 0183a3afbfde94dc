/**
 * The most JSON one agent-facing answer carries (an MCP tool result, an agent-results response): a larger read is
 * answered page by page (src/surfaces/result-pages, docs/result-pages.md), and a write that would answer more sends a
 * summary of what it touched. The contract's figure (design: "Large results"), so domain code can size answers to it.
 */
export const PAGE_BYTES = 8000;
