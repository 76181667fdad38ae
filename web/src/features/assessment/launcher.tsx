import { createContext, lazy, Suspense, useContext, useMemo, useState, type ReactNode } from 'react';

/** Which screen the assessment modal opens as (spec: the Mirror CTA opens it as 'Decision Mirror'). */
export type AssessmentMode = 'assessment' | 'mirror';

interface Launcher {
  open: (mode?: AssessmentMode) => void;
}

const LauncherContext = createContext<Launcher>({ open: () => {} });

// The modal and the machines behind it load only when a visitor opens it.
const AssessmentModal = lazy(() => import('./modal'));

/** Provides `open()` to every call to action and mounts the modal while it is open. */
export function AssessmentProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<AssessmentMode | null>(null);
  const launcher = useMemo<Launcher>(() => ({ open: (next = 'assessment') => setMode(next) }), []);
  return (
    <LauncherContext.Provider value={launcher}>
      {children}
      {mode && (
        <Suspense fallback={null}>
          <AssessmentModal mode={mode} onClose={() => setMode(null)} />
        </Suspense>
      )}
    </LauncherContext.Provider>
  );
}

/** The assessment launcher: `useAssessment().open()` from any call to action. */
export function useAssessment(): Launcher {
  return useContext(LauncherContext);
}
