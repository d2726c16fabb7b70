export * from './core';
export * from './admin';
