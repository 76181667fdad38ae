import { cx } from '../../components/ui/index.js';

export interface MirrorMessage {
  role: string;
  content: string;
}

/** A Mirror conversation as chat bubbles: the visitor's on the right, the Mirror's on the left. */
export function MirrorTranscript({ messages, label, visitor = 'Lead' }: { messages: MirrorMessage[]; label: string; visitor?: string }) {
  return (
    <ol className="flex flex-col gap-2" aria-label={label}>
      {messages.map((m, i) => (
        <li
          key={i}
          className={cx(
            'max-w-[85%] rounded-2xl px-4 py-2 break-words',
            m.role === 'user' ? 'self-end bg-ink text-white' : 'self-start bg-sand text-ink',
          )}
        >
          <span className="sr-only">{m.role === 'user' ? visitor : 'Mirror'}: </span>
          {m.content}
        </li>
      ))}
    </ol>
  );
}
