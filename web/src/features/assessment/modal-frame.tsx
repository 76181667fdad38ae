/*
 * The assessment modal's frame, shared by the modal (modal.tsx, a Headless UI dialog) and the
 * capture screen the server draws into every page before the modal's code has run
 * (early-capture-markup.tsx): one look, written once. The modal adds its transitions.
 */

export const FRAME = {
  overlay: 'fixed inset-0 bg-ink/55 backdrop-blur-[2px]',
  placement: 'fixed inset-0 flex items-end justify-center sm:items-center sm:p-6',
  panel:
    'flex h-[100dvh] w-full flex-col bg-paper shadow-lift sm:h-auto sm:max-h-[min(92vh,64rem)] sm:max-w-2xl sm:rounded-[2rem] sm:border sm:border-line',
  header: 'flex items-start justify-between gap-4 border-b border-line px-5 pt-5 pb-4 sm:px-8 sm:pt-7 sm:pb-5',
  title: 'font-serif text-[1.7rem] leading-tight text-balance text-ink focus:outline-none sm:text-[2rem]',
  close: '-mr-2 flex size-11 shrink-0 items-center justify-center rounded-full text-muted transition-colors hover:bg-ink/5 hover:text-ink',
  body: 'flex-1 overflow-y-auto overscroll-contain px-5 py-6 sm:px-8 sm:py-8',
} as const;

/** The line above the title. */
export function FrameEyebrow() {
  return <p className="text-xs font-semibold tracking-[0.18em] text-brass-deep uppercase">Leadership assessment</p>;
}

/** The close button's cross. */
export function CloseIcon() {
  return (
    <svg viewBox="0 0 20 20" className="size-5" fill="currentColor" aria-hidden="true">
      <path d="M5.28 4.22a.75.75 0 0 0-1.06 1.06L8.94 10l-4.72 4.72a.75.75 0 1 0 1.06 1.06L10 11.06l4.72 4.72a.75.75 0 1 0 1.06-1.06L11.06 10l4.72-4.72a.75.75 0 0 0-1.06-1.06L10 8.94 5.28 4.22Z" />
    </svg>
  );
}
