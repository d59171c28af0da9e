import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

interface TerminalSize {
  columns: number;
  rows: number;
}

/** The terminal's size, followed on resize; `fixed` (tests) wins. */
export function useTerminalSize(fixed?: TerminalSize): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState<TerminalSize>(fixed ?? read());
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the fixed size's values; a caller's new object of the same size must not re-run it
  useEffect(() => {
    if (fixed) {
      setSize(fixed);
      return;
    }
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixed?.columns, fixed?.rows]);
  return size;
}
