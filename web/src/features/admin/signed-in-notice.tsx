import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { signInSuccessNotice } from '#machines/sign-in/sign-in.machine.js';
import { useToast } from '../../components/ui/index.js';

/** The navigation state the sign-in page sends to the admin area, so the admin area says 'Welcome back!'. */
export const SIGNED_IN_STATE = { signedIn: true } as const;

/**
 * Shows the sign-in toast in the admin area (the sign-in page's own toasts leave with the public
 * layout), then drops the state so Back or a reload does not repeat it.
 */
export function SignedInNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const { toast } = useToast();
  const signedIn = (location.state as { signedIn?: unknown } | null)?.signedIn === true;
  useEffect(() => {
    if (!signedIn) return;
    toast({ title: signInSuccessNotice.title, description: signInSuccessNotice.description, variant: 'success' });
    // nothing waits for the navigation: the router shows any failure itself
    void navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true, state: null });
  }, [signedIn, toast, navigate, location.pathname, location.search, location.hash]);
  return null;
}
