// How much code uopscope analyses at once. A few bytes of assembly can expand without bound
// (`.fill 100000000, 1, 0x90`, `.rept 10000000`), and every later stage (decoding, the dependency
// graph, the simulation, the report) costs time and memory in the region's size, so a region —
// and an assembly file's code — larger than this is refused before it is decoded. The bound is
// in instructions (--max-instructions raises it); its byte form allows the longest x86
// instruction (15 bytes) for each.

/** Instructions in one region, and in the code of one assembly file, unless raised. 20,000 lines
 *  report in a few seconds (`report -i 1` of 20,000 nops: about 1.5 s of CPU and 350 MB). */
export const DEFAULT_MAX_INSTRUCTIONS = 20_000;
/** The longest x86 instruction. */
const MAX_INSTRUCTION_LENGTH = 15;
/** The largest --max-instructions accepted (disasm, graph and regions: no simulation). */
export const MAX_INSTRUCTIONS_LIMIT = 10_000_000;
/** The largest --max-instructions of the commands that simulate (report, the explorer): the
 *  engine's state and the report's tables cost about 15 KB per instruction even for one
 *  iteration with --fast (measured: 50,000 lines 0.78 GB, 100,000 lines 1.46 GB resident). */
export const MAX_SIMULATED_INSTRUCTIONS = 100_000;

export const maxCodeBytes = (maxInstructions: number): number => maxInstructions * MAX_INSTRUCTION_LENGTH;

/** A whole number with thousands separators (20,000). Not toLocaleString: its first call loads
 *  ICU's locale data, about 14 ms, and the option help that shows the default is built at every
 *  start. */
export const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The hint every refusal ends with. */
export const raiseHint = (maxInstructions: number): string =>
  `uopscope analyses at most ${grouped(maxInstructions)} instructions (${grouped(maxCodeBytes(maxInstructions))} bytes) at once; pick a smaller region (--region, --function, --range) or raise the bound with --max-instructions N`;
