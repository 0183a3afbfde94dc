/**
 * The names an audit event's `action` can hold: every action defined in this process (defineAction registers each as
 * its module loads) and the few acts recorded outside the catalog (an OAuth consent), which their modules declare with
 * `recordedAct`. A filter on an action name checks against this set, so a misspelt name is a 400 naming the closest
 * ones rather than an empty list that looks like "nothing happened".
 */
const names = new Set<string>();

export function registerActionName(name: string): void {
  names.add(name);
}

/** An act recorded in the audit feed that is not a catalog action; answers its name. */
export function recordedAct<N extends string>(name: N): N {
  names.add(name);
  return name;
}

export const isRecordedActionName = (name: string): boolean => names.has(name);

/** Up to `n` known names sharing the most words with `name` (`update_line_x` → update_line, …). */
export function closestActionNames(name: string, n = 3): string[] {
  const words = new Set(
    name
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  );
  const scored = [...names].map((known) => {
    const shared = known.split('_').filter((w) => words.has(w)).length;
    return { known, score: shared * 100 - Math.abs(known.length - name.length) };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.known.localeCompare(b.known))
    .slice(0, n)
    .map((s) => s.known);
}
