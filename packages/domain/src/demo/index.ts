export { loadDemoData, loadDemoDataIfEmpty, type DemoDataOptions } from './demo-data.ts';
export * from './demo-ids.ts';
export { prepareDemoDatabase } from './demo-database.ts';
export {
  growDemoData,
  type GrowDemoDataOptions,
  type GrowDemoDataResult,
} from './grow-demo-data.ts';
export {
  GROW_AT_SCALE_ONE,
  GROW_MAX_SCALE,
  GROW_MIN_SCALE,
  growPlan,
  type GrowPlan,
} from './grow-plan.ts';
