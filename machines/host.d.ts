/*
 * The two host facilities machines/ uses, which every browser context and Node provide alike:
 * declared here so that its tsconfig can leave out the DOM and Node libraries entirely.
 */
interface HostConsole {
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  info(...data: unknown[]): void;
}

interface HostCrypto {
  getRandomValues<T extends Uint8Array>(array: T): T;
}

declare global {
  // `var` (not let or const): only a var declaration becomes a property of globalThis
  var console: HostConsole;
  var crypto: HostCrypto;
}

export {};
