// Procedures of the shares domain: links that let a client open one document of a project, issued and revoked.
export * from './shares.js';
export * from './revocations.js';
