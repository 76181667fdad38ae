import { useEffect, useRef, useState } from 'react';
import { RESULTS_DELAY_MS } from '#machines/assessment-flow/assessment-flow.machine.js';

/**
 * True for RESULTS_DELAY_MS after this screen saw the flow go from processing to its results: the
 * processing notice says the results are ready for a moment before they show (decision 0029). A
 * flow opened at its results, or reached any other way, shows them at once.
 */
export function useRevealPause(step: string): boolean {
  const previous = useRef(step);
  const [pausing, setPausing] = useState(false);
  useEffect(() => {
    const from = previous.current;
    previous.current = step;
    if (from !== 'processing' || step !== 'results') return;
    setPausing(true);
    const timer = setTimeout(() => setPausing(false), RESULTS_DELAY_MS);
    return () => {
      clearTimeout(timer);
      setPausing(false);
    };
  }, [step]);
  return pausing && step === 'results';
}
