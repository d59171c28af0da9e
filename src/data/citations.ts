// The sources the refined model's rules and the machine records cite, by short id. A machine
// file's figure names its source as `id` or `id detail` (e.g. `uica DSBWidth`), several joined by
// '; '; the loader (machines.ts) expands the ids to these texts. docs/engine.md cites each in full.

export const SRC = {
  /** Intel 64 and IA-32 Architectures Optimization Reference Manual (248966), §3.4.2.2
   *  "Optimizing for Macro-fusion" (Sandy Bridge table of fusible pairs) */
  macroFusionManual: 'intel-opt-manual §3.4.2.2',
  /** corsix.org "x86 macro-op fusion notes" (P. Cawley): which pairs fuse from Core to Zen 3;
   *  Ice Lake dropped INC/DEC and memory-operand fusion */
  macroFusionCorsix: 'corsix x86 macro-op fusion notes',
  macroFusibleXml: 'uops.info attribute macro_fusible',
  retireSlotsXml: 'uops.info attribute uops_retire_slots',
  uopsMiteXml: 'uops.info attribute uops_MITE',
  uopsMsXml: 'uops.info attribute uops_MS',
  /** the manual's Sandy Bridge "Micro-op Queue and the Loop Stream Detector" passage: micro-fused
   *  µops with an index register unlaminate */
  unlaminationSnb: 'intel-opt-manual §2.5.2.4 (SnB unlamination)',
  /** the manual's Haswell "Unlamination" section, with P. Cordes's measurements on HSW/SKL
   *  (stackoverflow.com/q/26046634): an indexed form stays fused only with 2 operands whose
   *  destination register is also a source */
  unlaminationHsw: 'intel-opt-manual §2.4.5 (HSW unlamination); stackoverflow q/26046634',
  microFusion: 'intel-opt-manual §3.4.2.1 (micro-fusion: load+op, store-address+store-data)',
  robExecuted:
    'uops.info paper §3.1 (the reorder buffer executes NOPs, zero idioms, eliminated moves: fused-domain µops)',
  zeroIdiom: 'intel-opt-manual §3.5.1.8; uops.info paper §7.3.6',
  zeroIdiomXml: 'uops.info _same_reg measurement',
  zeroIdiomPaper: 'uops.info paper §7.3.6 ((V)PCMPGT* dependency-breaking)',
  moveElimination: 'intel-opt-manual §3.5.1.13 (zero-latency MOV, Ivy Bridge and later)',
  moveElimIcl:
    'Intel Ice Lake spec update erratum ICL065 (GPR move elimination disabled by microcode); uiCA microArchConfigs ICL moveEliminationGPRSlots=0',
  jccErratum: 'Intel white paper "Mitigations for Jump Conditional Code Erratum" (2019)',
  /** which cores Gather Data Sampling affects, and that the mitigation is on by default; no
   *  per-instruction figure under it is published */
  gds: 'Intel "Gather Data Sampling" (technical paper ID 785676, 2023: the affected processors; the mitigation is a microcode update) and "Gather Data Sampling Mitigation Performance Analysis" (ID 785681, 2024: on by default, may be disabled; gathers in hot paths slow down); Linux arch/x86/kernel/cpu/common.c cpu_vuln_blacklist, the GDS bit',
  uica: 'uiCA microArchConfigs.py (github.com/andreas-abel/uiCA, commit 53aeef6)',
  uicaLsdUnroll: 'uiCA microArchConfigs.py (github.com/andreas-abel/uiCA, commit b86ce90) LSDUnrolling',
  /** the later configuration, where SKX, KBL, CFL and CLX are copies of SKL's (CLX with the LSD
   *  on) and TGL and RKL copies of ICL's */
  uicaB86: 'uiCA microArchConfigs.py (github.com/andreas-abel/uiCA, commit b86ce90)',
  /** uiCA's front end: the LSD streams a loop when all its 32-byte blocks can be cached and its
   *  µops fit the IDQ; its issue limit is ceil(µops · unroll / issue width) / unroll */
  uicaLsdRule:
    'uiCA uiCA.py (commit b86ce90): LSD when all blocks can be cached and the µops fit the IDQ; LSD limit ceil(µops·unroll/issueWidth)/unroll',
  /** uiCA's µop-cache delivery: a 32-byte window's µops in blocks (ways) of 6 entries (its
   *  getDSBBlocks, after Agner Fog's microarchitecture guide §9.3), up to two blocks per cycle, the
   *  slots left after the first block's end set by its DSB.cycle */
  uicaDsb:
    'uiCA uiCA.py DSB.cycle and getDSBBlocks (github.com/andreas-abel/uiCA, commit 6ebeeab): µop-cache blocks of 6 µops, up to two blocks delivered per cycle',
  /** uiCA's microcode sequencer: it delivers up to 4 µops per cycle and the front end nothing else
   *  meanwhile; entered from the legacy decoders it stalls 1 cycle before and 1 after (entered
   *  from the µop cache: DSB_MS_Stall before, none after) */
  uicaMs:
    'uiCA uiCA.py MicrocodeSequencer (cycle, addUops), Decoder.cycle and DSB.cycle (github.com/andreas-abel/uiCA, commit 6ebeeab): 4 µops per cycle from the sequencer, nothing else meanwhile; from the legacy decoders 1 stall cycle before and 1 after',
  uicaLsdMs:
    'uiCA instructions.py Instr.canBeUsedByLSD (github.com/andreas-abel/uiCA, commit 6ebeeab): the LSD does not stream a loop with µops from the microcode sequencer',
  lsdErratum: 'Intel 6th-gen spec update erratum SKL150 (LSD disabled by microcode); uiCA LSDEnabled=False',
  legacyDecode: 'intel-opt-manual ch. 2 (legacy decode pipeline: 16 aligned bytes fetched per cycle, 4 decoders)',
  goldenCove:
    'intel-opt-manual, Golden Cove section / Intel Architecture Day 2021 (6 decoders, 32 bytes per cycle, 8 µops per cycle from the µop cache)',
  lsdSnb: 'intel-opt-manual §2.5.2.4 (SnB micro-op queue and LSD)',
  goldenCoveIdq:
    'intel-opt-manual, Golden Cove section / Intel Architecture Day 2021 (a 144-entry micro-op queue; the loop stream detector streams loops that fit in it)',
  llvmPredecessor:
    'intel-opt-manual, Golden Cove section (Golden Cove follows Sunny Cove, with the same execution port numbers); LLVM 19 X86SchedIceLake.td models Sunny Cove',
  /** the only public statements found (none from Intel): additions executed at rename */
  goldenCoveImmAdd:
    'github.com/name99-org/AArch64-Explore/issues/3 (2025): AnandTech\'s Golden Cove article says the core executes some simple additions at rename; computerenhance.com "The case of the missing increment" measured dependent additions faster than 1 per cycle on Alder Lake P-cores',
  /** which forms: those LLVM's Golden Cove models give no µops */
  llvmGoldenCoveZeroUops:
    "LLVM 19's alderlake and sapphirerapids scheduling models (X86SchedAlderlakeP.td, X86SchedSapphireRapids.td): add/sub r64, imm8 and inc/dec r64 take no µops",
  machines: 'uopscope shared reference machines.md (load / store-address / store-data ports)',
  decoded: 'decoded instruction (iced-x86)',
  /** uops.info's latency through memory (`cycles_mem`) from a read-modify-write form's memory
   *  operand to itself: the store → load round trip of one instance to the next */
  cyclesMemXml: 'uops.info latency cycles_mem (memory operand to itself)',
  /** how a core is named by CPUID, compilers and LLVM */
  cpuid:
    'Intel SDM vol. 4 table 2-1; Linux arch/x86/include/asm/intel-family.h (CPUID family, model and stepping of each core)',
  compilerNames:
    "gcc's x86 -march names (gcc manual, x86 Options); LLVM 19's -mcpu names (llvm/lib/Target/X86/X86.td, llvm-mca-19 -mcpu=help)",
  cacheSizes:
    "Intel 64 and IA-32 Architectures Optimization Reference Manual (248966), ch. 2, each microarchitecture's cache parameters; wikichip's per-core L2 sizes (the L2 per core a host's /sys reports)",
} as const;

type CitationId = keyof typeof SRC;

/**
 * A machine file's source text with its ids expanded: 'uica DSBWidth; jccErratum' →
 * '<uica's text> DSBWidth; <jccErratum's text>'. `extra` adds a file's own citations. Throws a
 * message (the caller names the file) when a part does not start with a known id.
 */
export function expandSource(text: string, extra: Readonly<Record<string, string>> = {}): string {
  return text
    .split(/;\s*/)
    .map((part) => {
      const m = /^(\S+)(.*)$/.exec(part.trim());
      const id = m?.[1] ?? '';
      const known = Object.hasOwn(extra, id) ? extra[id] : Object.hasOwn(SRC, id) ? SRC[id as CitationId] : undefined;
      if (known === undefined) throw new Error(`source '${part.trim()}' does not start with a known source id`);
      return `${known}${m![2]}`;
    })
    .join('; ');
}
