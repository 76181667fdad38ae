export * from './client';
export * from './inspect';
export * from './reconcile';
export * from './session';
export * from './socket';
export * from './storage';
export * from './use-server-flow';
