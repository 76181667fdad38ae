import { renderToStaticMarkup } from 'react-dom/server';
import { EARLY_CAPTURE_ELEMENT } from './early-capture.js';
import { CloseIcon, FRAME, FrameEyebrow } from './modal-frame.js';
import { CaptureStep } from './steps/capture.js';
import { TestLeadNote } from './ui.js';

/**
 * The assessment's capture screen as the modal draws it (the same frame, modal-frame.tsx, the same CaptureStep),
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
        <div className={FRAME.overlay} aria-hidden="true" />
        <div className={FRAME.placement} data-early-outside="">
          <div role="dialog" aria-modal="true" aria-labelledby="hf-early-capture-title" className={FRAME.panel}>
            {/* not a <header>: a second banner landmark beside the site's */}
            <div className={FRAME.header}>
              <div className="flex min-w-0 flex-col gap-1">
                <FrameEyebrow />
                <h2 id="hf-early-capture-title" tabIndex={-1} className={FRAME.title}>
                  Welcome
                </h2>
              </div>
              <button type="button" data-early-close="" className={FRAME.close} aria-label="Close">
                <CloseIcon />
              </button>
            </div>
            <div className={FRAME.body} data-step="capture">
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
