import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/index.js';

/** The look of a button that starts something irreversible. */
export const DANGER_BUTTON =
  'inline-flex min-h-9 items-center justify-center gap-2 rounded-full bg-danger px-4 text-sm font-semibold tracking-tight text-white shadow-soft transition-colors hover:bg-danger/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass disabled:cursor-not-allowed disabled:opacity-60';

/** Asks before an admin action that cannot be undone; it cannot be dismissed while the action runs. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busyLabel = 'Working...',
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busyLabel?: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={() => !busy && onClose()} className="fixed inset-0 z-50 flex items-center justify-center p-4">
      <DialogBackdrop className="fixed inset-0 bg-ink/50" />
      <div className="relative w-full max-w-md">
        <DialogPanel className="w-full rounded-3xl bg-white p-6 shadow-lift">
          <DialogTitle className="font-serif text-2xl tracking-tight text-ink">{title}</DialogTitle>
          <div className="mt-3 text-ink-700">{children}</div>
          <div className="mt-6 flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <button type="button" onClick={onConfirm} disabled={busy} aria-busy={busy || undefined} className={DANGER_BUTTON}>
              {busy ? busyLabel : confirmLabel}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
