// Which forms use the divider, and why a division's figures may leave it idle. Imports nothing
// heavy: the engine's program (src/sim/program.ts), loaded by its worker threads, reads it.
import { originText } from './origins.js';
import type { ResolvedInstruction } from './types.js';

/** Divisions and square roots: the forms that occupy a divider unit. */
export const DIVIDER_MNEMONIC = /^(I?DIV|V?DIV[SP][SDH]|V?SQRT[SP][SDH])$/i;

/** The same forms among the LLVM-derived records' keys (iced-x86 Code names: `Idiv_rm32`,
 *  `VEX_Vdivpd_ymm_ymm_ymmm256`, `EVEX_Vsqrtph_…`). */
export const DIVIDER_LLVM_KEY = /^(EVEX_|VEX_)?(V?(Div|Sqrt)(p|s)[sdh]|I?div)_/i;

/**
 * Why a division's figures leave the divider idle, or null when they do not: a division or
 * square root with µops and no divider cycles (e.g. LLVM's Skylake and Golden Cove models give
 * `idiv` no divider resource: a fixed µop sequence on the ALU ports). The viewer shows it where
 * the divider is, the report as a note, rather than a divider that looks free for no reason.
 */
export function missingDivider(mnemonic: string, r: ResolvedInstruction): { why: string; short: string } | null {
  if (!DIVIDER_MNEMONIC.test(mnemonic) || r.unknown || r.divCycles > 0 || r.uops === 0) return null;
  if (r.origin === 'llvm') {
    const model = r.provenance?.text.replace(/ \(.*\)$/, '') ?? 'the LLVM model';
    return {
      why: `${model} gives this form no divider resource (only its µops on the ports)`,
      short: "no divider in LLVM's model",
    };
  }
  const name = r.form ? r.form.asm : (r.provenance?.key ?? 'this form');
  return {
    why: `the figures for ${name} (${originText(r.origin)}) give it no divider cycles`,
    short: 'no divider cycles in its figures',
  };
}
