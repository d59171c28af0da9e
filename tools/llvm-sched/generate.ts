// Regenerates assets/uarch/llvm/ from LLVM 19's X86 scheduling models (Debian: llvm-19,
// llvm-19-dev). Run: `npm run gen:llvm` (= node --import tsx tools/llvm-sched/generate.ts);
// `npm run gen:llvm -- --out DIR` writes the files into DIR instead (a new or empty directory, or
// one an earlier run wrote: only its *.json and LICENSE.TXT are replaced).
//
// 1. tools/llvm-sched/instances.ts makes one canonical machine-code instance per iced-x86 Code
//    (register, memory, same-register, masked and broadcast forms);
// 2. gen.cpp, built here with g++ against libLLVM-19, decodes each instance with LLVM's X86
//    disassembler and reads the scheduling class of the decoded opcode on each CPU (variant
//    classes resolved with that MCInst, as llvm-mca does);
// 3. this script turns LLVM's resource usage into uops.info-style port groups (implied group
//    usage subtracted as llvm-mca's InstrBuilder does), keeps only forms the core's ISA has,
//    marks placeholder classes, and writes compact per-core files plus the shared key list.
// The output depends only on the inputs (LLVM 19, iced-x86, the machine models): rerunning it
// gives byte-identical files (test/data/llvmGenerate.test.ts regenerates into a temporary
// directory and compares every file with the committed ones; test/data/llvmCrossCheck.test.ts
// compares the figures with llvm-mca-19's).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Code, Instruction } from 'iced-x86';
import { CpuidFeature } from 'iced-x86';
import { canonicalInstances, type CanonicalInstance } from './instances.js';
import { DIVIDER_LLVM_KEY } from '../../src/data/divider.js';
import { missingIsa } from '../../src/data/isa.js';
import { listMachines } from '../../src/data/machines.js';
import type { MachineModel } from '../../src/data/types.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** What the generator writes, and so the only files it replaces in an existing directory. */
const GENERATED = (name: string): boolean => name.endsWith('.json') || name === 'LICENSE.TXT';

class UsageError extends Error {}

/** The output directory from `--out DIR` (default assets/uarch/llvm), checked before any work:
 *  it may be missing, empty, or hold an earlier run's files (an index.json) — never anything
 *  else, so a wrong `--out` cannot delete a user's files. */
function outputDir(argv: string[]): string {
  let values: { out?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { out: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message} — usage: generate.ts [--out DIR]`);
  }
  const dir = values.out === undefined ? join(root, 'assets', 'uarch', 'llvm') : resolve(values.out);
  if (!existsSync(dir)) return dir;
  if (!statSync(dir).isDirectory())
    throw new UsageError(`--out ${dir} is not a directory — name a new or empty directory`);
  const names = readdirSync(dir);
  if (names.length && !names.includes('index.json'))
    throw new UsageError(
      `--out ${dir} is not empty and holds no index.json of an earlier run — name a new or empty directory`,
    );
  const foreign = names.filter((n) => !GENERATED(n) || !statSync(join(dir, n)).isFile());
  if (foreign.length)
    throw new UsageError(
      `--out ${dir} holds files the generator did not write (${foreign.slice(0, 3).join(', ')}) — name a new or empty directory`,
    );
  return dir;
}

/** uopscope architecture → LLVM 19 CPU name (its -mcpu), from each machine record's
 *  identity.llvmCpu, in the records' order. (LLVM has no Kaby Lake / Coffee Lake CPU: their
 *  records name `skylake`, the core they share.) */
function llvmCpus(): Map<string, { cpu: string; isa: string[]; pipes: string }> {
  return new Map(
    listMachines()
      .filter((m) => m.identity?.llvmCpu)
      .map((m) => [m.arch, { cpu: m.identity!.llvmCpu!, isa: m.isa, pipes: pipeArg(m) }]),
  );
}

/** gen.cpp's pipe map of a core whose LLVM resources are named by pipe (identity.llvmPipes):
 *  `=Zn4ALU0:0,Zn4FP45:13+14`, the record's port names turned into its port numbers; '' when the
 *  core has none (its resources are named …Port<N>). */
function pipeArg(m: MachineModel): string {
  const pipes = m.identity?.llvmPipes;
  if (!pipes || !m.portNames) return '';
  const portOf = (name: string) => m.ports[m.portNames!.indexOf(name)]!;
  return `=${Object.entries(pipes)
    .map(([res, names]) => `${res}:${names.map(portOf).join('+')}`)
    .join(',')}`;
}

interface Raw {
  cpu: string;
  k: string;
  op?: string;
  err?: string;
  uops?: number;
  lat?: number;
  rtp?: number;
  res?: [string, number, number[], number[]?][];
  div?: number;
  defs?: [string, number][];
  ra?: [string, number][];
  load?: number;
  store?: number;
}

const portChar = (p: number): string => (p < 10 ? String(p) : String.fromCharCode(55 + p)); // 10 → A, 11 → B, … 29 → T

/** llvm-mca's InstrBuilder::initializeUsedResources: resources sorted by size (units before
 *  groups, small groups before large); each one's cycles are subtracted from every later group
 *  containing its ports, because TableGen adds a unit's usage to the groups that contain it. What is
 *  left are the µops each port set executes. */
export function portGroups(res: [string, number, number[], number[]?][]): { count: number; ports: number[] }[] {
  const merged = new Map<string, { count: number; ports: number[] }>();
  for (const it of portUses(res)) {
    const key = it.ports.join(',');
    const m = merged.get(key);
    if (m) m.count += it.cycles;
    else merged.set(key, { count: it.cycles, ports: it.ports });
  }
  return [...merged.values()];
}

/** The resource usages left after initializeUsedResources' subtraction, each with its port set
 *  and cycles (those with none left dropped), in portGroups' order. */
function portUses(res: [string, number, number[], number[]?][]): { ports: number[]; cycles: number }[] {
  // containment is LLVM's (its unit resources) where gen.cpp gives them (a model named by pipe,
  // whose map may rename a group's pipes), else the ports'
  const items = res
    .filter((r) => r[2].length > 0)
    .map((r) => ({ ports: [...r[2]].sort((a, b) => a - b), cycles: r[1], units: r[3] ?? r[2] }));
  items.sort((a, b) => a.units.length - b.units.length);
  for (let i = 0; i < items.length; i++) {
    const a = items[i]!;
    for (let j = i + 1; j < items.length; j++) {
      const b = items[j]!;
      // a group of the same ports counts too (AMD's models name one pair of pipes by several
      // groups, FPFAdd01 and FPFCvt01 both FP2+FP3): TableGen adds a usage to every group holding
      // its units, and llvm-mca subtracts it from each later one, equal sets included
      if (b.units.length >= a.units.length && a.units.every((u) => b.units.includes(u)))
        b.cycles -= Math.max(0, a.cycles);
    }
  }
  return items.filter((it) => it.cycles > 0).map((it) => ({ ports: it.ports, cycles: it.cycles }));
}

/** A model named by pipe (AMD's), as llvm-mca runs it: each resource usage left after the
 *  subtraction is one µop that takes one pipe of its set and holds it for the usage's cycles
 *  (ResourceManager::issueInstruction: `selectPipe`, then `BusyResources[Pipe] += CS.size()`), not
 *  that many µops. `Zn4ALU0123` used 4 cycles (`adc r64, imm8`) is one µop holding one ALU 4
 *  cycles. The groups (one µop each, usages of the same set and cycles counted together) and the
 *  holds, `p0123:4` per set held more than one cycle; the pipe of a division's held divider
 *  (`dividerPort`) holds one cycle: its cycles are the divider's. */
export function heldUses(
  res: [string, number, number[], number[]?][],
  dividerPort: number | null,
): { groups: { count: number; ports: number[] }[]; holds: string } {
  const merged = new Map<string, { count: number; ports: number[]; hold: number }>();
  for (const it of portUses(res)) {
    const hold = dividerPort !== null && it.ports.length === 1 && it.ports[0] === dividerPort ? 1 : it.cycles;
    const key = it.ports.join(',');
    const m = merged.get(key);
    if (!m) merged.set(key, { count: 1, ports: it.ports, hold });
    else if (m.hold === hold) m.count++;
    // two usages of one set held for different cycles: not expressible per set
    else throw new Error(`two usages of pipes ${key} held ${m.hold} and ${hold} cycles`);
  }
  const groups = [...merged.values()];
  const holds = groups
    .filter((g) => g.hold > 1)
    .map((g) => `p${g.ports.map(portChar).join('')}:${g.hold}`)
    .sort()
    .join(',');
  return { groups: groups.map((g) => ({ count: g.count, ports: g.ports })), holds };
}

export function portString(groups: { count: number; ports: number[] }[]): string {
  return groups
    .map((g) => `${g.count}*p${g.ports.map(portChar).join('')}`)
    .sort()
    .join('+');
}

/** A def or read name in the instance → 'o<iced operand index>' for explicit registers. */
function token(name: string, inst: CanonicalInstance): string {
  const i = inst.regs[name];
  return i === undefined ? name : `o${i}`;
}

/** The record of one instance on one core: [uops, latency, rthroughput, ports, divider,
 *  defs ('o0:6,EFLAGS:6'), read advances ('o1:5'), flags ('P' = LLVM's placeholder class)] and,
 *  only when some µop holds its pipe more than one cycle (a model named by pipe: heldUses), the
 *  holds ('p0123:4'). */
type Rec =
  | [number, number, number, string, number, string, string, string]
  | [number, number, number, string, number, string, string, string, string];

/** LLVM's Golden Cove models (alderlake, sapphirerapids) number the fifth ALU port 10 and the
 *  third load port 11, as Intel's diagrams do; uops.info and uopscope's machine models use the
 *  performance-counter numbering (load 10 = A, ALU 11 = B). */
const SWAP_10_11 = new Set(['alderlake', 'sapphirerapids']);

function record(r: Raw, inst: CanonicalInstance): Rec | null {
  if (r.err || r.uops === undefined) return null;
  const res = SWAP_10_11.has(r.cpu)
    ? (r.res ?? []).map(
        ([n, c, ps]) =>
          [n, c, ps.map((p) => (p === 10 ? 11 : p === 11 ? 10 : p))] as [string, number, number[], number[]?],
      )
    : (r.res ?? []);
  let groups = portGroups(res);
  let div = r.div ?? 0;
  const held = div === 0 ? heldDividerPipe(inst.key, res, groups) : null;
  if (held) {
    div = held.count;
    held.count = 1;
  }
  let holds = '';
  if (res.some((x) => x[3] !== undefined)) ({ groups, holds } = heldUses(res, held ? held.ports[0]! : null));
  const lat = r.lat ?? 0;
  // WriteMicrocoded / WriteSystem: LLVM's X86 models give microcoded and system instructions
  // they do not describe one µop of nominal latency 100 on the ALU port group — not figures. The
  // znver3/znver4 models write the same placeholder as 100 µops of latency 100 on the four ALUs.
  // (Long real figures exist: IDIV r64 on skylake is 66 µops, latency 102; ADL-P's RDRAND r16
  // 25 µops, latency 1386; those are kept.)
  const placeholder = lat === 100 && (r.uops <= 1 || r.uops === 100);
  const defs = (r.defs ?? []).map(([n, c]) => `${token(n, inst)}:${c}`).join(',');
  const ra = (r.ra ?? []).map(([n, c]) => `${token(n, inst)}:${c}`).join(',');
  const rec: Rec = [r.uops, lat, r.rtp ?? 0, portString(groups), div, defs, ra, placeholder ? 'P' : ''];
  return holds ? [...rec, holds] : rec;
}

/** AMD's models (named by pipe) give a division or square root no divider resource: they hold
 *  the divider's pipe for its cycles instead (znver3/4: `defvar Zn4Divider = Zn4ALU0`, and
 *  Zn4FPFDiv, FP1, held 3 to 18 cycles; znver2: its FP divisions hold FPU3), which portGroups
 *  turns into that many µops on the pipe. Those cycles are the divider's occupancy: the record
 *  keeps one µop on the pipe and the cycles as divider cycles, the shape of Zen 2's integer
 *  division (Zn2Divider beside ALU2). The group of one pipe used more than one cycle, or null
 *  when the form is no division, the model is not named by pipe, or no such group is alone. */
function heldDividerPipe(
  key: string,
  res: [string, number, number[], number[]?][],
  groups: { count: number; ports: number[] }[],
): { count: number; ports: number[] } | null {
  if (!DIVIDER_LLVM_KEY.test(key) || !res.some((x) => x[3] !== undefined)) return null;
  const held = groups.filter((g) => g.ports.length === 1 && g.count > 1);
  return held.length === 1 ? held[0]! : null;
}

function cpuidOf(code: string): string[] {
  const ins = Instruction.create(Code[code as keyof typeof Code]);
  try {
    return Array.from(ins.cpuidFeatures(), (f) => CpuidFeature[f]!);
  } finally {
    ins.free();
  }
}

function main(finalDir: string): void {
  const llvmVersion = execFileSync('llvm-config-19', ['--version'], { encoding: 'utf8' }).trim();
  const cxxflags = execFileSync('llvm-config-19', ['--cxxflags'], { encoding: 'utf8' }).trim().split(/\s+/);
  const ldflags = execFileSync('llvm-config-19', ['--ldflags'], { encoding: 'utf8' }).trim().split(/\s+/);
  const work = mkdtempSync(join(tmpdir(), 'uopscope-llvm-'));
  // the files are written here first and moved into finalDir only when all of them are complete
  mkdirSync(dirname(finalDir), { recursive: true });
  const staging = mkdtempSync(join(dirname(finalDir), `.${basename(finalDir)}-`));
  try {
    const bin = join(work, 'gen');
    execFileSync('g++', ['-O1', ...cxxflags, join(here, 'gen.cpp'), '-o', bin, ...ldflags, '-lLLVM-19'], {
      stdio: 'inherit',
    });
    const instances = canonicalInstances();
    const input = instances.map((i) => `${i.key} ${i.hex}\n`).join('');
    const LLVM_CPU = llvmCpus();
    const cpus = [...new Set([...LLVM_CPU.values()].map((c) => c.cpu + c.pipes))];
    const out = execFileSync(bin, cpus, { input, maxBuffer: 1 << 30, encoding: 'utf8' });
    const byCpu = new Map<string, Map<string, Raw>>();
    for (const line of out.split('\n')) {
      if (!line) continue;
      const r = JSON.parse(line) as Raw;
      let m = byCpu.get(r.cpu);
      if (!m) byCpu.set(r.cpu, (m = new Map()));
      m.set(r.k, r);
    }
    const cpuid = new Map<string, string[]>();
    for (const i of instances) if (!cpuid.has(i.code)) cpuid.set(i.code, cpuidOf(i.code));

    // keys: every instance some core has figures for, in instance order
    const perArch = new Map<string, (Rec | null)[]>();
    for (const [arch, machine] of LLVM_CPU) {
      const raws = byCpu.get(machine.cpu)!;
      perArch.set(
        arch,
        instances.map((inst) => {
          if (missingIsa(machine.isa, cpuid.get(inst.code)!).length) return null;
          return record(raws.get(inst.key)!, inst);
        }),
      );
    }
    const used = instances.map((_, i) => [...perArch.values()].some((l) => l[i] !== null));
    const keys = instances.filter((_, i) => used[i]!);

    const files = new Map<string, string>(); // content digest → file name
    const archs: Record<string, { cpu: string; file: string; forms: number; placeholders: number }> = {};
    for (const [arch, list] of perArch) {
      const kept = list.filter((_, i) => used[i]!);
      const table: Rec[] = [];
      const seen = new Map<string, number>();
      const index = kept.map((r) => {
        if (!r) return -1;
        const s = JSON.stringify(r);
        let n = seen.get(s);
        if (n === undefined) {
          n = table.length;
          table.push(r);
          seen.set(s, n);
        }
        return n;
      });
      const body = `{"cpu":${JSON.stringify(LLVM_CPU.get(arch)!.cpu)},"records":[\n${table.map((r) => JSON.stringify(r)).join(',\n')}\n],"index":${JSON.stringify(index)}}\n`;
      const digest = createHash('sha256').update(body).digest('hex').slice(0, 16);
      let file = files.get(digest);
      if (!file) {
        file = `${arch}.json`;
        files.set(digest, file);
        writeFileSync(join(staging, file), body);
      }
      archs[arch] = {
        cpu: LLVM_CPU.get(arch)!.cpu,
        file,
        forms: kept.filter((r) => r && r[7] !== 'P').length,
        placeholders: kept.filter((r) => r && r[7] === 'P').length,
      };
    }
    const iced = JSON.parse(readFileSync(join(root, 'node_modules', 'iced-x86', 'package.json'), 'utf8')) as {
      version: string;
    };
    const meta = {
      what: 'Scheduling figures derived from the LLVM 19 X86 scheduling models (a model, not measurements)',
      generator: 'tools/llvm-sched/generate.ts + gen.cpp',
      llvm: llvmVersion,
      icedX86: iced.version,
      record: [
        'uops',
        'latency',
        'reciprocal throughput',
        'ports (uops.info notation)',
        'divider cycles',
        'per-def latency (oN = iced operand N)',
        'read advance',
        'P = placeholder class',
        'holds: pipes a µop holds more than one cycle (p0123:4), a model named by pipe only',
      ],
      archs,
      keys: keys.map((k) => k.key),
    };
    writeFileSync(
      join(staging, 'index.json'),
      `${JSON.stringify({ ...meta, keys: undefined }, null, 1).replace(/\n}$/, '')},\n "keys": [\n${meta.keys.map((k) => JSON.stringify(k)).join(',\n')}\n ]\n}\n`,
    );
    const apache = readFileSync('/usr/share/common-licenses/Apache-2.0', 'utf8');
    const copyright = readFileSync('/usr/share/doc/llvm-19/copyright', 'utf8');
    const exc =
      /---- LLVM Exceptions to the Apache 2.0 License ----[\s\S]*?(?=\n\S[^\n]*:\s|\n\n\S+:)/.exec(copyright)?.[0] ??
      '';
    writeFileSync(
      join(staging, 'LICENSE.TXT'),
      `The figures in this directory are derived from the X86 scheduling models of LLVM ${llvmVersion}\n` +
        `(llvm/lib/Target/X86/X86Sched*.td, as compiled into Debian's libLLVM-19), read through LLVM's MC\n` +
        `layer by tools/llvm-sched. LLVM is distributed under the Apache License v2.0 with LLVM Exceptions:\n\n` +
        `${apache}\n${exc.trim()}\n`,
    );
    const written = readdirSync(staging).sort();
    mkdirSync(finalDir, { recursive: true });
    for (const n of readdirSync(finalDir)) if (GENERATED(n) && !written.includes(n)) rmSync(join(finalDir, n));
    for (const n of written) renameSync(join(staging, n), join(finalDir, n));
    process.stderr.write(`wrote ${written.join(', ')} (${keys.length} keys) to ${finalDir}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}

try {
  main(outputDir(process.argv.slice(2)));
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  process.stderr.write(`generate.ts: ${e.message}\n`);
  process.exit(2);
}
