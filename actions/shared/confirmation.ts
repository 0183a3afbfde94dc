/**
 * How an action declared with `confirmation` behaves, in the words its description gives an agent (the one sentence
 * every such action repeats, so they all say the same).
 */
export const CONFIRMED =
  'The person must agree first. An MCP client that supports elicitation shows them the question itself and the act goes ahead only if they accept (your confirm: true does not replace their answer; a refusal answers CONFIRMATION_DECLINED and nothing changes). Elsewhere the answer is CONFIRMATION_REQUIRED with the question to put to them; repeat with confirm: true only once they have agreed.';
