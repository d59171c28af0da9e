// The explorer on the stencil example, for test/ui/theme.test.tsx: loaded only after that test set
// FORCE_COLOR, so that Ink's frames carry their colours.
import { render } from 'ink-testing-library';
import { loadRegion } from '../../src/disasm/index.js';
import { buildExplorerSession, regionAnalysis } from '../../src/cli/explorerSession.js';
import { loadMachine } from '../../src/data/machines.js';
import { Explorer } from '../../src/ui/components/Explorer.js';
import { REFINED_MECHANISMS } from '../../src/sim/mechanisms.js';

export async function mountStencil(file: string) {
  const region = await loadRegion({ file });
  const s = await buildExplorerSession(regionAnalysis(region), loadMachine('SKL'), { inThread: true });
  const r = render(
    <Explorer
      mechanisms={REFINED_MECHANISMS}
      session={s}
      iterations={20}
      archs={[{ arch: 'SKL', name: s.archName }]}
      loadArch={async () => s}
      saveExport={async () => 'x'}
      size={{ columns: 100, rows: 40 }}
      color={true}
    />,
  );
  return { r, frames: () => r.frames };
}
