import { useEffect, useRef } from 'react';

/** While playing, advances `speed` cycles per second (at most ~30 frames per second). */
export function usePlayback(playing: boolean, speed: number, stepBy: (n: number) => void): void {
  // a tick that fires after a pause but before the effect's cleanup must not step
  const playingRef = useRef(playing);
  playingRef.current = playing;
  useEffect(() => {
    if (!playing) return;
    const interval = Math.max(33, Math.round(1000 / speed));
    const perTick = Math.max(1, Math.round((speed * interval) / 1000));
    const t = setInterval(() => { if (playingRef.current) stepBy(perTick); }, interval);
    return () => clearInterval(t);
  }, [playing, speed, stepBy]);
}
