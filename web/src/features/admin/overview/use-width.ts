import { useCallback, useState } from 'react';

/**
 * The width of the element the returned ref is put on, kept current as it resizes. The overview's
 * charts draw in real pixels at that width, so their text keeps its size from 390 px to 1280 px
 * where a scaled viewBox would shrink it.
 */
export function useWidth<T extends Element>(): [(node: T | null) => () => void, number] {
  const [width, setWidth] = useState(0);
  const ref = useCallback((node: T | null) => {
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    if (node) observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
