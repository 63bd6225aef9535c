// The middle and the range of a few measurements: what `pnpm bench` reports of its rounds.

/** The median of the values and their lowest and highest. */
export interface Spread {
  median: number;
  low: number;
  high: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Null for no values (no round had the figure). */
export function spread(values: number[]): Spread | null {
  if (values.length === 0) return null;
  return { median: median(values), low: Math.min(...values), high: Math.max(...values) };
}
