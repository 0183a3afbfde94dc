/**
 * How an action declared with `confirmation` behaves, in the words its description gives an agent (the one passage
 * every such action repeats, so they all say the same). Each part names confirm: true or a CONFIRMATION_ code, so
 * search_actions leaves it out of what the action is found by (it says how to call, not what the action does).
 */
export const CONFIRMED =
  "Needs the person's own confirmation: an MCP client that supports elicitation shows them the question and the act goes ahead only if they accept (your confirm: true does not replace their answer; a refusal answers CONFIRMATION_DECLINED and nothing changes). Elsewhere the answer is CONFIRMATION_REQUIRED with the question to put to them; repeat with confirm: true only once they have agreed.";
