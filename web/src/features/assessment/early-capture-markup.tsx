import { renderToStaticMarkup } from 'react-dom/server';
import { EARLY_CAPTURE_ELEMENT } from './early-capture.js';
import { CaptureStep } from './steps/capture.js';
import { TestLeadNote } from './ui.js';

/**
 * The assessment's capture screen as the modal draws it (the same frame, the same CaptureStep),
 * as a template (inert, out of the page until used), for the server to put beside every rendered page: the page's first script shows it on
 * a tap and hands what is typed to the modal (early-capture.ts). Its ids are prefixed so they
 * never meet the page's own.
 */
export function earlyCaptureMarkup(): string {
  return renderToStaticMarkup(<EarlyCaptureScreen />, { identifierPrefix: 'hf-early-' });
}

function EarlyCaptureScreen() {
  return (
    <template id={EARLY_CAPTURE_ELEMENT}>
      <div data-early-capture="" className="relative z-50">
        <div className="fixed inset-0 bg-ink/55 backdrop-blur-[2px]" aria-hidden="true" />
        <div className="fixed inset-0 flex items-end justify-center sm:items-center sm:p-6" data-early-outside="">
          <div
            role="dialog"
            aria-modal="true"
            aria-labelledby="hf-early-capture-title"
            className="flex h-[100dvh] w-full flex-col bg-paper shadow-lift sm:h-auto sm:max-h-[min(92vh,64rem)] sm:max-w-2xl sm:rounded-[2rem] sm:border sm:border-line"
          >
            <header className="flex items-start justify-between gap-4 border-b border-line px-5 pt-5 pb-4 sm:px-8 sm:pt-7 sm:pb-5">
              <div className="flex min-w-0 flex-col gap-1">
                <p className="text-xs font-semibold tracking-[0.18em] text-brass-deep uppercase">Leadership assessment</p>
                <h2
                  id="hf-early-capture-title"
                  tabIndex={-1}
                  className="font-serif text-[1.7rem] leading-tight text-balance text-ink focus:outline-none sm:text-[2rem]"
                >
                  Welcome
                </h2>
              </div>
              <button
                type="button"
                data-early-close=""
                className="-mr-2 flex size-11 shrink-0 items-center justify-center rounded-full text-muted transition-colors hover:bg-ink/5 hover:text-ink"
                aria-label="Close"
              >
                <svg viewBox="0 0 20 20" className="size-5" fill="currentColor" aria-hidden="true">
                  <path d="M5.28 4.22a.75.75 0 0 0-1.06 1.06L8.94 10l-4.72 4.72a.75.75 0 1 0 1.06 1.06L10 11.06l4.72 4.72a.75.75 0 1 0 1.06-1.06L11.06 10l4.72-4.72a.75.75 0 0 0-1.06-1.06L10 8.94 5.28 4.22Z" />
                </svg>
              </button>
            </header>
            <div className="flex-1 overflow-y-auto overscroll-contain px-5 py-6 sm:px-8 sm:py-8" data-step="capture">
              <CaptureStep mode="assessment" testing={false} saving={false} notice={null} defaultEmail="" onSubmit={() => {}} />
            </div>
          </div>
        </div>
        <template data-early-test-note="">
          <TestLeadNote />
        </template>
      </div>
    </template>
  );
}
