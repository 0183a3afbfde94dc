export * from './v1/index.js';
export * from './projects/index.js';
export * from './sections/index.js';
export * from './schedule/index.js';
export * from './audit/index.js';
export * from './account/index.js';
export * from './studio/index.js';
export * from './suppliers/index.js';
