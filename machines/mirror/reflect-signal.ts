// One thing the Mirror noticed in a message: what reflect-signals.ts and reflect-people.ts find and
// reflect-reading.ts gathers.

/** A kind of thing the Mirror can take up. */
export type SignalKind = 'decision' | 'person' | 'feeling' | 'hedge' | 'blame' | 'absolute' | 'time' | 'ownership' | 'pattern' | 'learning';

/** One thing noticed, with the visitor's own words to quote back. */
export interface Signal {
  kind: SignalKind;
  /** Short, markup-free words from the message. */
  quote: string;
  /** Person: how the Mirror names them in its own voice ("your co-founder", "Sam"). */
  name?: string;
  /** Decision: how the Mirror frames the quote ("whether to", "between", "about"). */
  frame?: 'whether to' | 'between' | 'about';
}
