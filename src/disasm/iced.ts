// iced-x86, loaded with require(): it is a CommonJS package of ~1 MB, and importing it as ES
// module makes Node scan its whole source twice (module-format detection and the CommonJS
// export lexer), about 0.15 s of CPU at every start. The names below are the ones the disasm
// stage uses, as values and as types, exactly as `import { … } from 'iced-x86'` would give them.
//
// Loading it compiles and instantiates its WebAssembly module, with two V8 settings changed for
// that moment only:
// - a larger tiering budget (ICED_TIERING_BUDGET). V8 runs WebAssembly with its baseline compiler
//   (Liftoff) and recompiles a function with its optimizing compiler (TurboFan) once the function
//   has spent its budget. Building the decoder's and the formatter's tables on first use spends
//   the default budget at once, so every command would set off TurboFan work on V8's background
//   threads that competes with the command on a small machine and that Node waits for before
//   exiting (docs/report.md, "What start-up costs"). With the larger budget the table building
//   does not trigger it; code that runs for long (decoding millions of instructions) still does.
// - lazy validation: each function is validated when first compiled instead of all ~3,000 when
//   the module is made (the module is iced-x86's own, valid, build).
// V8 reads both when the module and its instance are made. They are put back right after,
// because V8 checks a hash of all its settings before it uses a code cache (Node's own modules',
// the start-up bundle's): test/disasm/icedLoad.test.ts checks that a cache is still accepted.
// Its memory is made with a small reservation, which matters under an address-space limit
// (ICED_MEMORY_PAGES, src/wasmReservation.ts).
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type * as Iced from 'iced-x86';
import { withWasmReservation } from '../wasmReservation.js';

/** The tiering budget iced-x86's instance is made with. */
const ICED_TIERING_BUDGET = 100_000_000;
/** V8's own settings, by V8 major version: V8 11 (Node 20) is the only one this file knows; under
 *  another, or with UOPSCOPE_V8_DEFAULTS=1 (to measure the difference), nothing is changed. */
const V8_DEFAULTS: Record<string, string[]> = { 11: ['--wasm-tiering-budget=1800000', '--no-wasm-lazy-validation'] };
const ICED_SETTINGS = [`--wasm-tiering-budget=${ICED_TIERING_BUDGET}`, '--wasm-lazy-validation'];
/** The pages (64 KiB) reserved for iced-x86's memory (it declares 22, no maximum) under an
 *  address-space limit (src/wasmReservation.ts): 16 MiB, twice what it holds once 100,000 lines
 *  are decoded (3 MiB for 20,000, 7.4 MiB for 100,000, measured). */
const ICED_MEMORY_PAGES = 256;

function loadIced(): typeof Iced {
  const defaults =
    process.env.UOPSCOPE_V8_DEFAULTS === '1' ? undefined : V8_DEFAULTS[process.versions.v8.split('.')[0]!];
  if (defaults) for (const f of ICED_SETTINGS) setFlagsFromString(f);
  try {
    return withWasmReservation(ICED_MEMORY_PAGES, () => createRequire(import.meta.url)('iced-x86') as typeof Iced);
  } finally {
    if (defaults) for (const f of defaults) setFlagsFromString(f);
  }
}

const iced = loadIced();

export const Code = iced.Code;
export type Code = Iced.Code;
export const CodeExt = iced.CodeExt;
export type CodeExt = Iced.CodeExt;
export const ConditionCode = iced.ConditionCode;
export type ConditionCode = Iced.ConditionCode;
export const CpuidFeature = iced.CpuidFeature;
export type CpuidFeature = Iced.CpuidFeature;
export const Decoder = iced.Decoder;
export type Decoder = Iced.Decoder;
export const Encoder = iced.Encoder;
export type Encoder = Iced.Encoder;
export const DecoderOptions = iced.DecoderOptions;
export type DecoderOptions = Iced.DecoderOptions;
export const FlowControl = iced.FlowControl;
export type FlowControl = Iced.FlowControl;
export const Formatter = iced.Formatter;
export type Formatter = Iced.Formatter;
export const FormatterSyntax = iced.FormatterSyntax;
export type FormatterSyntax = Iced.FormatterSyntax;
export const Instruction = iced.Instruction;
export type Instruction = Iced.Instruction;
export const InstructionInfoFactory = iced.InstructionInfoFactory;
export type InstructionInfoFactory = Iced.InstructionInfoFactory;
export const MemorySizeExt = iced.MemorySizeExt;
export type MemorySizeExt = Iced.MemorySizeExt;
export const MemoryOperand = iced.MemoryOperand;
export type MemoryOperand = Iced.MemoryOperand;
export const Mnemonic = iced.Mnemonic;
export type Mnemonic = Iced.Mnemonic;
export const OpAccess = iced.OpAccess;
export type OpAccess = Iced.OpAccess;
export const OpCodeOperandKind = iced.OpCodeOperandKind;
export type OpCodeOperandKind = Iced.OpCodeOperandKind;
export const OpKind = iced.OpKind;
export type OpKind = Iced.OpKind;
export const Register = iced.Register;
export type Register = Iced.Register;
export const RegisterExt = iced.RegisterExt;
export type RegisterExt = Iced.RegisterExt;
export const RflagsBits = iced.RflagsBits;
export type RflagsBits = Iced.RflagsBits;
