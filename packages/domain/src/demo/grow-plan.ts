/**
 * How many rows `growDemoData` adds at a scale. Scale 1 is the production-like size the
 * benchmarks call "large": the figures are the ones the performance goals were set for.
 */
export const GROW_AT_SCALE_ONE = {
  users: 200_000,
  regions: 10_000,
  stores: 20_000,
  storeLogEntries: 1_000_000,
  /** Of storeLogEntries: in the demo store. */
  demoStoreLogEntries: 100_000,
  conversations: 100_000,
  messages: 1_000_000,
  /** Of messages: in the demo group conversation. */
  demoConversationMessages: 100_000,
  /** Conversations the demo store manager (alice) is in, counting the demo ones. */
  demoUserConversations: 300,
  bananas: 200_000,
  /** Of bananas: to the demo foodsaver (bob). */
  demoUserBananas: 5_000,
  reports: 100_000,
  /** Of reports: about the demo foodsaver (bob). */
  demoUserReports: 2_000,
  forumThreads: 50_000,
  forumPosts: 500_000,
  /** Open applications to the demo store. */
  demoStoreApplications: 2_000,
} as const;

export type GrowPlan = { -readonly [K in keyof typeof GROW_AT_SCALE_ONE]: number };

/** Above this the run takes longer than a coffee; nothing needs more to show flat costs. */
export const GROW_MAX_SCALE = 2;
/** Below this the proportions (states, cities, groups, teams) stop making sense. */
export const GROW_MIN_SCALE = 0.001;

export function growPlan(scale: number): GrowPlan {
  if (!Number.isFinite(scale) || scale < GROW_MIN_SCALE || scale > GROW_MAX_SCALE) {
    throw new RangeError(
      `The scale is a number from ${GROW_MIN_SCALE} to ${GROW_MAX_SCALE}, got ${scale}.`,
    );
  }
  const plan = Object.fromEntries(
    Object.entries(GROW_AT_SCALE_ONE).map(([key, count]) => [
      key,
      Math.max(1, Math.round(count * scale)),
    ]),
  ) as GrowPlan;
  // Alice is in two demo conversations already; she always gets grown ones besides.
  plan.demoUserConversations = Math.max(3, plan.demoUserConversations);
  return plan;
}
