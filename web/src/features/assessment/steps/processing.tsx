import { Button } from '#web/components/ui/index.js';
import type { Notice } from '#machines/protocol/common.js';
import { NoticeBox, Spinner } from '../ui.js';

/** processing: the notice; the result arrives by push, then shows after 1 s. */
export function ProcessingStep({ revealing, offline }: { revealing: boolean; offline: boolean }) {
  return (
    <div role="status" className="flex flex-col items-center gap-6 py-10 text-center">
      <span className="relative flex size-20 items-center justify-center rounded-full bg-ink text-brass">
        <Spinner className="size-10" />
      </span>
      <p className="font-serif text-2xl text-ink">{revealing ? 'Your results are ready' : 'Analyzing your responses'}</p>
      <p className="max-w-md text-base leading-relaxed text-muted">
        We are scoring your answers across six leadership dimensions and matching your profile to an archetype. This can take up to 3
        minutes, but usually takes about 1 minute.
      </p>
      {offline && (
        <p className="max-w-md text-sm text-muted">
          The connection dropped. Your answers are kept on this device and will be sent as soon as it is back.
        </p>
      )}
    </div>
  );
}

/** gaming_detected: the server's message or the default, and Retake Assessment. */
export function GamingStep({ notice, onRetake }: { notice: Notice | null; onRetake: () => void }) {
  return (
    <div className="flex flex-col gap-6">
      <NoticeBox notice={notice} tone="info" className="text-base" />
      <p className="text-base leading-relaxed text-muted">
        The diagnostic only helps when it reflects how you really lead. Take a breath, read each statement fully, and answer for an ordinary
        week. Your earlier answers are cleared and the diagnostic starts again.
      </p>
      <div>
        <Button size="lg" onClick={onRetake}>
          Retake Assessment
        </Button>
      </div>
    </div>
  );
}
