export * from './snapshot.js';
export * from './run.js';
export * from './verify.js';
export * from './checkpoint.js';
export * from './config.js';
export * from './report.js';
export * from './serve.js';
export * from './gate.js';
