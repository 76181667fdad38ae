import { useCallback, useEffect, useState } from 'react';

/** The sidebar cookie: 'true' expanded, 'false' collapsed to icons; kept 7 days. */
const SIDEBAR_COOKIE = 'sidebar_state';
const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
/** Below 768 px the sidebar is a sheet over the page. */
const MOBILE_QUERY = '(max-width: 767px)';

function readSidebarCookie(): boolean {
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${SIDEBAR_COOKIE}=`));
  return match ? match.slice(SIDEBAR_COOKIE.length + 1) !== 'false' : true;
}

function writeSidebarCookie(expanded: boolean) {
  document.cookie = `${SIDEBAR_COOKIE}=${expanded}; path=/admin; max-age=${SIDEBAR_COOKIE_MAX_AGE}; samesite=lax`;
}

function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(() => window.matchMedia(MOBILE_QUERY).matches);
  useEffect(() => {
    const query = window.matchMedia(MOBILE_QUERY);
    const onChange = () => setMobile(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return mobile;
}

export interface SidebarState {
  mobile: boolean;
  /** Desktop: full width (true) or icons only (false); remembered in the cookie. */
  expanded: boolean;
  /** Mobile: the sheet is open. */
  sheetOpen: boolean;
  setSheetOpen: (open: boolean) => void;
  toggle: () => void;
}

/** The sidebar's state, toggled by the button or ctrl/meta+B anywhere in the admin area. */
export function useSidebarState(): SidebarState {
  const mobile = useIsMobile();
  const [expanded, setExpanded] = useState(readSidebarCookie);
  const [sheetOpen, setSheetOpen] = useState(false);
  // the sheet is the narrow screen's sidebar: it closes when the screen widens
  if (!mobile && sheetOpen) setSheetOpen(false);

  const toggle = useCallback(() => {
    if (mobile) {
      setSheetOpen((open) => !open);
      return;
    }
    setExpanded((current) => {
      writeSidebarCookie(!current);
      return !current;
    });
  }, [mobile]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'b' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  return { mobile, expanded, sheetOpen, setSheetOpen, toggle };
}
