export * from './core';
export * from './admin';
export * from './patients';
export * from './forms';
export * from './messaging';
export * from './care';
export * from './outreach';
