import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { MirrorTurn } from '#machines/protocol/common.js';
import { Button, cx } from '../../components/ui/index.js';

/**
 * The Mirror conversation's bubbles and the "reflecting" dots, shared by the modal step and the
 * /mirror page (their containers differ; `assistantClassName` gives the Mirror's bubble its surface).
 */
export function MirrorMessages({
  messages,
  pending,
  assistantClassName,
}: {
  messages: MirrorTurn[];
  pending: boolean;
  assistantClassName: string;
}) {
  return (
    <>
      {messages.map((message, index) => (
        <li key={index} className={cx('flex', message.role === 'user' ? 'justify-end' : 'justify-start')}>
          <p
            className={cx(
              'max-w-[85%] rounded-2xl px-4 py-3 text-[0.95rem] leading-relaxed whitespace-pre-wrap',
              message.role === 'user' ? 'rounded-br-md bg-ink text-white' : cx('rounded-bl-md text-ink', assistantClassName),
            )}
          >
            <span className="sr-only">{message.role === 'user' ? 'You: ' : 'Mirror: '}</span>
            {message.content}
          </p>
        </li>
      ))}
      {pending && (
        <li className="flex justify-start">
          <p className={cx('flex items-center gap-1.5 rounded-2xl rounded-bl-md px-4 py-3.5', assistantClassName)}>
            <span className="sr-only">The Mirror is reflecting…</span>
            {[0, 1, 2].map((dot) => (
              <span key={dot} className="size-2 animate-pulse rounded-full bg-brass-deep motion-reduce:animate-none" aria-hidden="true" />
            ))}
          </p>
        </li>
      )}
    </>
  );
}

/**
 * The Mirror's message box: Enter sends, Shift+Enter adds a line, with the optional
 * save checkbox. `onSend` says whether the message was taken; only then is the box cleared.
 */
export function MirrorComposer({
  canSend,
  save,
  onSaveChange,
  onSend,
  visibleLabel = false,
}: {
  canSend: boolean;
  save: boolean;
  onSaveChange: (save: boolean) => void;
  onSend: (text: string) => boolean;
  visibleLabel?: boolean;
}) {
  const [text, setText] = useState('');
  const ready = canSend && text.trim() !== '';
  const send = () => {
    if (ready && onSend(text.trim())) setText('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <form method="post" onSubmit={onSubmit} className="flex flex-col gap-3">
      <label htmlFor="mirror-input" className={visibleLabel ? 'text-sm font-medium text-ink' : 'sr-only'}>
        Your message
      </label>
      <textarea
        id="mirror-input"
        rows={3}
        maxLength={4000}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Type your answer. Enter sends, Shift+Enter adds a line."
        className="block w-full resize-none rounded-2xl border border-line bg-white px-4 py-3 text-base text-ink placeholder:text-muted hover:border-ink/40 focus:border-ink"
      />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        <label className="flex items-center gap-2 text-sm text-ink">
          <input type="checkbox" checked={save} onChange={(e) => onSaveChange(e.target.checked)} className="size-4 accent-ink" />
          Save this session (optional)
        </label>
        <Button type="submit" disabled={!ready}>
          Send
        </Button>
      </div>
    </form>
  );
}
