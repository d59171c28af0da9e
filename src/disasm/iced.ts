// iced-x86, loaded with require(): it is a CommonJS package of ~1 MB, and importing it as ES
// module makes Node scan its whole source twice (module-format detection and the CommonJS
// export lexer), about 0.15 s of CPU at every start. The names below are the ones the disasm
// stage uses, as values and as types, exactly as `import { … } from 'iced-x86'` would give them.
import { createRequire } from 'node:module';
import type * as Iced from 'iced-x86';

const iced = createRequire(import.meta.url)('iced-x86') as typeof Iced;

export const Code = iced.Code; export type Code = Iced.Code;
export const ConditionCode = iced.ConditionCode; export type ConditionCode = Iced.ConditionCode;
export const CpuidFeature = iced.CpuidFeature; export type CpuidFeature = Iced.CpuidFeature;
export const Decoder = iced.Decoder; export type Decoder = Iced.Decoder;
export const DecoderOptions = iced.DecoderOptions; export type DecoderOptions = Iced.DecoderOptions;
export const FlowControl = iced.FlowControl; export type FlowControl = Iced.FlowControl;
export const Formatter = iced.Formatter; export type Formatter = Iced.Formatter;
export const FormatterSyntax = iced.FormatterSyntax; export type FormatterSyntax = Iced.FormatterSyntax;
export const Instruction = iced.Instruction; export type Instruction = Iced.Instruction;
export const InstructionInfoFactory = iced.InstructionInfoFactory; export type InstructionInfoFactory = Iced.InstructionInfoFactory;
export const MemorySizeExt = iced.MemorySizeExt; export type MemorySizeExt = Iced.MemorySizeExt;
export const Mnemonic = iced.Mnemonic; export type Mnemonic = Iced.Mnemonic;
export const OpAccess = iced.OpAccess; export type OpAccess = Iced.OpAccess;
export const OpCodeOperandKind = iced.OpCodeOperandKind; export type OpCodeOperandKind = Iced.OpCodeOperandKind;
export const OpKind = iced.OpKind; export type OpKind = Iced.OpKind;
export const Register = iced.Register; export type Register = Iced.Register;
export const RegisterExt = iced.RegisterExt; export type RegisterExt = Iced.RegisterExt;
export const RflagsBits = iced.RflagsBits; export type RflagsBits = Iced.RflagsBits;
