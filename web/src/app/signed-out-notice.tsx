import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useToast } from '../components/ui/index.js';

/** The sign-out toasts. */
export const SIGNED_OUT_TOAST = { title: 'Signed out', description: "You've been successfully signed out." } as const;
export const SIGN_OUT_FAILED_TOAST = { title: 'Error', description: 'Failed to sign out. Please try again.' } as const;

/** The navigation state a page sends to the site after signing out, so the site says so. */
export const SIGNED_OUT_STATE = { signedOut: true } as const;

/**
 * Shows the signed-out toast when the site is reached by a sign-out elsewhere (the admin area has
 * toasts of its own, which leave with it), then drops the state so Back or a reload does not
 * repeat it.
 */
export function SignedOutNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const { toast } = useToast();
  const signedOut = (location.state as { signedOut?: unknown } | null)?.signedOut === true;
  useEffect(() => {
    if (!signedOut) return;
    toast(SIGNED_OUT_TOAST);
    // nothing waits for the navigation: the router shows any failure itself
    void navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true, state: null });
  }, [signedOut, toast, navigate, location.pathname, location.search, location.hash]);
  return null;
}
