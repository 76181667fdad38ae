import { ButtonLink } from '../../components/ui/index.js';
import { ScreenHeader } from './states.js';

/** An address under /admin that names no screen: say so inside the admin shell, with a way back. */
export function AdminNotFoundScreen() {
  return (
    <>
      <title>Not found | Admin | Leadership Coaching</title>
      <ScreenHeader title="Not found" />
      <div className="flex flex-col items-center gap-4 rounded-3xl border border-dashed border-ink/20 bg-white/70 px-6 py-16 text-center">
        <p className="max-w-md text-lg text-ink">There is no admin screen at this address.</p>
        <p className="max-w-md text-muted">Check the address, or go back to the overview.</p>
        <ButtonLink to="/admin" variant="secondary" size="sm">
          Back to Overview
        </ButtonLink>
      </div>
    </>
  );
}
