// The host's core, identified honestly (src/measure/host.ts): CPUID's signature against the
// machine records, checked against the feature flags and the L2 size, and the core the user names.
// The cpuinfo texts are built here in /proc/cpuinfo's layout; the first is the development VM's as
// docs/measure.md describes it (CPUID family 6 model 0xa7 stepping 1, "Intel(R) Xeon(R)
// Processor", AMX and AVX512-FP16 among its flags).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { identifyHost, hostIsa } from '../../src/measure/host.js';

const BASE =
  'fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology cpuid tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm abm 3dnowprefetch fsgsbase bmi1 avx2 smep bmi2 erms invpcid rdseed adx smap clflushopt clwb xsaveopt xsavec xgetbv1 xsaves';
const AVX512 =
  'sha_ni avx512f avx512dq avx512ifma avx512cd avx512bw avx512vl avx512vbmi avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid';
const GOLDEN_COVE_SERVER =
  'avx_vnni avx512_bf16 wbnoinvd arat umip pku ospke waitpkg la57 cldemote movdiri movdir64b fsrm md_clear serialize tsxldtrk amx_bf16 avx512_fp16 amx_tile amx_int8 arch_capabilities';

function cpuinfo(
  vendor: string,
  family: number,
  model: number,
  stepping: number,
  flags: string,
  name = 'Intel(R) Xeon(R) Processor',
): string {
  const one = (n: number) =>
    `processor\t: ${n}\nvendor_id\t: ${vendor}\ncpu family\t: ${family}\nmodel\t\t: ${model}\nmodel name\t: ${name}\nstepping\t: ${stepping}\nflags\t\t: ${flags}\n`;
  return `${one(0)}\n${one(1)}\n`;
}

const VM = cpuinfo('GenuineIntel', 6, 0xa7, 1, `${BASE} ${AVX512} ${GOLDEN_COVE_SERVER}`);

test("a VM whose CPUID says Rocket Lake but whose flags are Sapphire Rapids' is identified as SPR, and says why", () => {
  const h = identifyHost({ cpuinfo: VM, l2KiB: 2048 });
  assert.equal(h.cpuidArch, 'RKL');
  assert.equal(h.arch, 'SPR');
  assert.equal(h.virtual, true);
  assert.match(
    h.why,
    /CPUID GenuineIntel family 6 model 0xa7 stepping 1 names RKL, but the host shows .*AVX512_FP16, …, which RKL does not have/,
  );
  assert.match(
    h.why,
    /SPR \(Sapphire Rapids.*\) has every extension the host shows \(as do EMR; SPR fits the rest best\); its L2 \(2048 KiB per core\) is SPR's/,
  );
  assert.match(h.note!, /identified by its features, not its CPUID model.*UOPSCOPE_HOST_ARCH/);
  // the L2 size is evidence, said when it disagrees
  assert.match(identifyHost({ cpuinfo: VM, l2KiB: 512 }).why, /its L2 \(512 KiB per core\) is not SPR's/);
});

test("a host whose flags agree with its CPUID keeps the CPUID's core", () => {
  const rkl = identifyHost({ cpuinfo: cpuinfo('GenuineIntel', 6, 0xa7, 1, `${BASE} ${AVX512}`), l2KiB: 512 });
  assert.deepEqual([rkl.arch, rkl.cpuidArch, rkl.note], ['RKL', 'RKL', undefined]);
  assert.match(rkl.why, /names RKL; its feature flags agree, L2 512 KiB per core/);
  // a derivative mapped to its core says so; an L2 that is not the core's is noted
  const cml = identifyHost({ cpuinfo: cpuinfo('GenuineIntel', 6, 0xa5, 2, BASE), l2KiB: 1024 });
  assert.equal(cml.arch, 'CFL');
  assert.match(cml.note!, /Comet Lake, mapped to Coffee Lake.*its L2 \(1024 KiB per core\) is not CFL's \(256 KiB\)/);
  // Skylake's CPUID with AVX-512 flags: not the client core; the server core fits with the fewest extra extensions
  const skx = identifyHost({
    cpuinfo: cpuinfo('GenuineIntel', 6, 0x4e, 3, `${BASE} avx512f avx512dq avx512cd avx512bw avx512vl`),
  });
  assert.deepEqual([skx.cpuidArch, skx.arch], ['SKL', 'SKX']);
});

const ZEN4_FLAGS = `${BASE} ${AVX512} sse4a avx512_bf16 clzero`;

test("AMD hosts: CPUID families 0x17, 0x19 and 0x1A with Linux's model ranges name the Zen cores", () => {
  // the development host: AMD EPYC, family 25 model 0x11 (Genoa)
  const genoa = identifyHost({ cpuinfo: cpuinfo('AuthenticAMD', 25, 0x11, 1, ZEN4_FLAGS, 'AMD EPYC'), l2KiB: 1024 });
  assert.deepEqual([genoa.arch, genoa.cpuidArch, genoa.note], ['ZEN4', 'ZEN4', undefined]);
  assert.match(genoa.why, /^CPUID AuthenticAMD family 25 model 0x11 stepping 1 names ZEN4; its feature flags agree/);
  const sig = (family: number, model: number) =>
    identifyHost({ cpuinfo: cpuinfo('AuthenticAMD', family, model, 0, BASE, 'AMD') }).cpuidArch;
  // Zen 2: 0x30–0x4f, 0x60–0x7f, 0x90–0x91, 0xa0–0xaf; Zen 1 (0x00–0x2f) is not modelled
  assert.deepEqual(
    [0x31, 0x47, 0x71, 0x90, 0xa0, 0x01, 0x92].map((m) => sig(0x17, m)),
    ['ZEN2', 'ZEN2', 'ZEN2', 'ZEN2', 'ZEN2', null, null],
  );
  // Zen 3: 0x00–0x0f, 0x20–0x5f; Zen 4: 0x10–0x1f, 0x60–0xaf
  assert.deepEqual(
    [0x01, 0x21, 0x50, 0x10, 0x1f, 0x61, 0xaf, 0xb0].map((m) => sig(0x19, m)),
    ['ZEN3', 'ZEN3', 'ZEN3', 'ZEN4', 'ZEN4', 'ZEN4', 'ZEN4', null],
  );
  // Zen 5: 0x00–0x2f, 0x40–0x4f, 0x60–0x7f; 0x50 is Zen 6's in Linux, not modelled
  assert.deepEqual(
    [0x02, 0x24, 0x44, 0x70, 0x50].map((m) => sig(0x1a, m)),
    ['ZEN5', 'ZEN5', 'ZEN5', 'ZEN5', null],
  );
  // an Intel family and model on an AMD vendor string names nothing
  assert.equal(sig(6, 0x55), null);
});

test("an AMD guest's CPUID is checked against its flags, among AMD's cores only", () => {
  // Zen 3's CPUID with AVX-512 among the flags: not Zen 3; Zen 4 is the AMD core that has them
  const h = identifyHost({ cpuinfo: cpuinfo('AuthenticAMD', 25, 0x21, 0, ZEN4_FLAGS, 'AMD EPYC') });
  assert.deepEqual([h.cpuidArch, h.arch], ['ZEN3', 'ZEN4']);
  assert.match(h.why, /names ZEN3, but the host shows AVX512F, .* which ZEN3 does not have; ZEN4 \(AMD Zen 4\)/);
  // AMX on an AMD guest: no AMD core has it, and an Intel core is never chosen for an AMD host
  const amx = identifyHost({ cpuinfo: cpuinfo('AuthenticAMD', 25, 0x11, 1, `${ZEN4_FLAGS} ${GOLDEN_COVE_SERVER}`) });
  assert.equal(amx.arch, null);
  assert.match(amx.why, /names ZEN4, but the host shows .*AMX/);
});

test('what no record names is not guessed', () => {
  const hygon = identifyHost({ cpuinfo: cpuinfo('HygonGenuine', 24, 0, 1, BASE, 'Hygon') });
  assert.deepEqual([hygon.arch, hygon.cpuidArch], [null, null]);
  assert.match(hygon.why, /no core of vendor HygonGenuine is modelled/);
  const atom = identifyHost({ cpuinfo: cpuinfo('GenuineIntel', 6, 0x5c, 9, BASE) });
  assert.equal(atom.arch, null);
  assert.match(atom.why, /names no core uopscope models/);
});

test('the user names the core; evidence against it is said; an unknown name is ignored with a note', () => {
  const named = identifyHost({ cpuinfo: VM, named: 'adl-p' });
  assert.equal(named.arch, 'ADL-P');
  assert.match(named.why, /named by UOPSCOPE_HOST_ARCH \(CPUID .* names RKL\)/);
  assert.match(named.note!, /the host shows AVX512F, .* which ADL-P does not have/);
  const bad = identifyHost({ cpuinfo: VM, named: 'P4' });
  assert.equal(bad.arch, 'SPR');
  assert.match(
    bad.note!,
    /^UOPSCOPE_HOST_ARCH='P4' names no core uopscope models .*it was ignored; identified by its features/,
  );
  // an AMD host the user names as an Intel core (to predict for it): named wins
  assert.equal(identifyHost({ cpuinfo: cpuinfo('AuthenticAMD', 25, 0x11, 1, BASE), named: 'SKL' }).arch, 'SKL');
});

test("only instruction-set families count as evidence, with Linux's flag names mapped", () => {
  const isa = hostIsa([
    'sha_ni',
    'abm',
    'sse4_1',
    'pni',
    'avx512vbmi',
    'amx_tile',
    'pku',
    'waitpkg',
    'hypervisor',
    'fpu',
  ]);
  assert.deepEqual([...isa].sort(), ['AMX_TILE', 'AVX512_VBMI', 'SHA', 'SSE3', 'SSE4.1']);
});
