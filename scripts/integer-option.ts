/**
 * An integer setting of a start command (PORT, CLUSTER_INSTANCES), checked strictly before
 * anything starts: Number() reads "abc" as NaN and "" as 0. Returns the problem in words
 * when `raw` is not an integer from `min` to `max`.
 */
export function parseIntegerOption(
  name: string,
  raw: string,
  min: number,
  max: number,
): { value: number } | { problem: string } {
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (value >= min && value <= max) return { value };
  return {
    problem: `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`,
  };
}
