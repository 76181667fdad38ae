/**
 * A random version-4 UUID from `crypto.getRandomValues`, which every browser context and Node
 * have. `crypto.randomUUID` would be shorter, but browsers offer it only in secure contexts
 * (https and localhost): on plain http at any other address (a phone on the LAN, a staging
 * host) it is missing and the caller would crash.
 */
export function randomUuid(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
