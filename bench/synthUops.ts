// Generator of a synthetic instructions.xml in uops.info's full schema, at realistic size
// (default 15,000 instruction forms × 20 architectures ≈ 150+ MB). Figures of the filler forms are
// pseudo-random (a fixed seed) and named SYNTH…: they exist only to measure import speed and are
// never used for analysis. Forms passed as `seed` (the embedded data) are written first, verbatim,
// so that an import of the synthetic file can be compared with the embedded figures.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { formatPorts } from '../src/data/ports.js';
import { instructionXml } from '../src/data/xmlWrite.js';
import type { InstructionForm, PortGroup } from '../src/data/types.js';

export const SYNTH_ARCHS = [
  'CON',
  'WOL',
  'NHM',
  'WSM',
  'SNB',
  'IVB',
  'HSW',
  'BDW',
  'SKL',
  'SKX',
  'KBL',
  'CFL',
  'CNL',
  'CLX',
  'ICL',
  'TGL',
  'RKL',
  'ADL-P',
  'ADL-E',
  'ZEN4',
];

export interface SynthOptions {
  forms?: number;
  archs?: string[];
  seed?: InstructionForm[];
}

/** xorshift32: the same file on every run. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

const GPR64 = 'RAX,RCX,RDX,RBX,RSP,RBP,RSI,RDI,R8,R9,R10,R11,R12,R13,R14,R15';
const XMM = Array.from({ length: 16 }, (_, i) => `XMM${i}`).join(',');
const PORT_SETS = ['0156', '015', '06', '23', '237', '4', '01', '5', '0', '1', '05', '15', '49', '78', '0156B', '23A'];

/** The real file has a few hundred distinct port strings per architecture (the same port
 *  combinations recur); the filler draws from a fixed pool of that order. */
function portPool(r: () => number): PortGroup[][] {
  const pool: PortGroup[][] = [];
  for (let k = 0; k < 300; k++) {
    const n = 1 + Math.floor(r() * 3);
    const groups: PortGroup[] = [];
    for (let g = 0; g < n; g++)
      groups.push({
        count: 1 + Math.floor(r() * 2),
        ports: [...PORT_SETS[Math.floor(r() * PORT_SETS.length)]!].map((c) => '0123456789AB'.indexOf(c)),
      });
    pool.push(groups);
  }
  return pool;
}

function synthForm(i: number, archs: string[], r: () => number, pool: PortGroup[][]): string {
  const vec = r() < 0.5;
  const reg = vec ? XMM : GPR64;
  const kind = vec ? 'XMM' : 'R64';
  const mem = r() < 0.3;
  const name = `SYNTH${i}`;
  const string = `${name} (${kind}, ${mem ? (vec ? 'M128' : 'M64') : kind}${r() < 0.2 ? ', I8' : ''})`;
  const lines = [
    `  <instruction asm="${name}" category="SYNTH" extension="${vec ? 'SSE2' : 'BASE'}" iclass="${name}" iform="${name}_${kind}_${mem ? 'MEM' : kind}" isa-set="${vec ? 'SSE2' : 'I86'}" string="${string}" summary="synthetic benchmark form" url="uops.html" url-ref="https://www.felixcloutier.com/x86/">`,
  ];
  lines.push(
    `    <operand idx="1" name="REG0" r="1" type="reg" w="1" width="${vec ? 128 : 64}" xtype="${vec ? 'f64' : 'i64'}">${reg}</operand>`,
  );
  lines.push(
    mem
      ? `    <operand idx="2" memory-prefix="${vec ? 'xmmword' : 'qword'} ptr" name="MEM0" r="1" type="mem" width="${vec ? 128 : 64}" xtype="${vec ? 'f64' : 'i64'}"/>`
      : `    <operand idx="2" name="REG1" r="1" type="reg" width="${vec ? 128 : 64}" xtype="${vec ? 'f64' : 'i64'}">${reg}</operand>`,
  );
  lines.push(
    '    <operand flag_AF="w" flag_CF="w" flag_OF="w" flag_PF="w" flag_SF="w" flag_ZF="w" idx="3" name="REG2" suppressed="1" type="flags" w="1"/>',
  );
  for (const arch of archs) {
    const groups = pool[Math.floor(r() * pool.length)]!;
    const uops = groups.reduce((s, g) => s + g.count, 0);
    const amd = arch.startsWith('ZEN');
    const tp = (0.25 + Math.floor(r() * 8) * 0.25).toFixed(2);
    const lat = 1 + Math.floor(r() * 6);
    const lats: string[] = [
      `<latency cycles="${lat}" start_op="1" target_op="1"/>`,
      mem
        ? `<latency cycles_addr="${lat + 5}" cycles_addr_index="${lat + 5}" cycles_mem="${lat}" start_op="2" target_op="1"/>`
        : `<latency cycles="${lat}" cycles_same_reg="${lat}" start_op="2" target_op="1"/>`,
      `<latency cycles="1" start_op="1" target_op="3"/>`,
    ];
    if (r() < 0.1)
      lats.push(
        `<latency max_cycles="${lat + 3}" min_cycles="${lat}" min_cycles_is_upper_bound="1" start_op="2" target_op="3"/>`,
      );
    const extra = mem && r() < 0.5 ? ` ports_indexed="${formatPorts(groups)}" uops_indexed="${uops}"` : '';
    lines.push(`    <architecture name="${arch}">`);
    lines.push(
      `      <measurement TP_loop="${tp}" TP_unrolled="${tp}"${amd ? '' : ` ports="${formatPorts(groups)}"`} uops="${uops}" uops_MITE="${uops}" uops_retire_slots="${uops}" available_simple_decoders="3" complex_decoder="0"${extra}>`,
    );
    for (const l of lats) lines.push(`        ${l}`);
    lines.push('      </measurement>');
    if (!amd) lines.push(`      <IACA TP="${tp}" ports="${formatPorts(groups)}" uops="${uops}" version="3.0"/>`);
    lines.push('    </architecture>');
  }
  lines.push('  </instruction>');
  return lines.join('\n') + '\n';
}

/** Writes the file; returns its size in bytes. */
export async function writeSyntheticXml(path: string, opts: SynthOptions = {}): Promise<number> {
  const total = opts.forms ?? 15000;
  const archs = opts.archs ?? SYNTH_ARCHS;
  const seed = opts.seed ?? [];
  const out = createWriteStream(path);
  let bytes = 0;
  const write = async (s: string) => {
    bytes += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, 'drain');
  };
  await write(
    '<?xml version="1.0" ?>\n<!-- synthetic benchmark file (uopscope bench/synthUops.ts): not measurements -->\n<root date="2000-01-01">\n',
  );
  await write('<extension name="SEED">\n');
  for (const f of seed) await write(instructionXml(f));
  await write('</extension>\n<extension name="SYNTH">\n');
  const r = rng(0x5eed);
  const pool = portPool(r);
  for (let i = seed.length; i < total; i++) await write(synthForm(i, archs, r, pool));
  await write('</extension>\n</root>\n');
  out.end();
  await once(out, 'finish');
  return bytes;
}
