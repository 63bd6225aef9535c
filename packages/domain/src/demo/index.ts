export { loadDemoData, loadDemoDataIfEmpty, type DemoDataOptions } from './demo-data.ts';
export * from './demo-ids.ts';
export { prepareDemoDatabase } from './demo-database.ts';
