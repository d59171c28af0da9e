// Sane bounds for the figures of uops.info's schema, checked when a file is read (data import,
// --uops-xml, the embedded data): a figure outside them is refused with one line naming the form
// and the file, instead of running the engine into hours of work, gigabytes of memory or a
// silent 32-bit wrap-around later. The bounds are far above anything measured on a real core
// (the most µops of one form in uops.info's data are in the hundreds, the longest latencies in
// the hundreds of cycles) and far below where the engine's int32 arrays or its progress guard
// (1,000,000 cycles without a retired instruction) would be reached.

/** µops of one form (`uops`, `uops_same_reg`, `uops_indexed`) and the sum of a port string's counts. */
export const MAX_UOPS = 10_000;
/** latency cycles (every `cycles*` attribute) and `div_cycles` */
export const MAX_CYCLES = 10_000;
/** `TP_loop`, `TP_unrolled` and their variants (cycles per instruction) */
export const MAX_THROUGHPUT = 10_000;
/** operand `idx`, `start_op`, `target_op`, operand `width` (bits) */
export const MAX_OPERAND_FIELD = 65_536;

// A core's shape, from a machine record or from the report's flags (--rs-size, --issue-width,
// --port-capacity): far above any real core (stations of a few hundred entries, widths ≤ 8, a
// dozen ports) and within what the engine serves (its port masks are 30 bits; its memory grows
// with the station's size times the µops of the largest instruction).

/** reservation-station entries (`rsSize`, --rs-size) */
export const MAX_RS_SIZE = 4096;
/** µops issued per cycle (`issueWidth`, --issue-width) and µops a port takes per cycle */
export const MAX_WIDTH = 1024;
/** ports of a core, and one more than the highest port number (the port notation's limit) */
export { MAX_PORTS } from './ports.js';
/** bytes of one machine record file (the shipped ones are a few KiB) */
export const MAX_MACHINE_FILE = 1 << 20;
