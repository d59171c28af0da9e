// Operand semantics of single instructions: signatures in uops.info style, normalized
// registers, implicit operands, flags per bit, memory operands, branches, idioms.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadRegion, type DecodedInstruction } from '../../src/disasm/index.js';

async function one(hex: string): Promise<DecodedInstruction> {
  const r = await loadRegion({ hex });
  assert.equal(r.instructions.length, 1, `${hex} is one instruction`);
  return r.instructions[0]!;
}
const set = (a: string[]) => [...a].sort();

test('signatures follow uops.info: XED mnemonics, operand kinds, immediate widths', async () => {
  const cases: [string, string][] = [
    ['480303', 'ADD (R64, M64)'],
    ['c5fd5801', 'VADDPD (YMM, YMM, M256)'],
    ['7505', 'JNZ (Rel8)'],
    ['0f8500000000', 'JNZ (Rel32)'],
    ['7705', 'JNBE (Rel8)'],
    ['7c05', 'JL (Rel8)'],
    ['0f94c0', 'SETZ (R8)'],
    ['480f4fc1', 'CMOVNLE (R64, R64)'],
    ['48c7c001000000', 'MOV (R64, I32)'],
    ['48b80100000000000000', 'MOV (R64, I64)'],
    ['4883f900', 'CMP (R64, I8)'],
    ['483d00010000', 'CMP (RAX, I32)'],
    ['48d3e0', 'SHL (R64, CL)'],
    ['48d1e0', 'SHL (R64, 1)'],
    ['488d0448', 'LEA (R64, AGEN)'],
    ['0fa2', 'CPUID'],
    ['e800000000', 'CALL_NEAR (Rel32)'],
    ['ffd0', 'CALL_NEAR (R64)'],
    ['c3', 'RET_NEAR'],
    ['f0480fc10b', 'XADD_LOCK (M64, R64)'],
    ['f0480fb10b', 'CMPXCHG_LOCK (M64, R64)'],
    ['f3a4', 'REP_MOVSB'],
    ['f20f10c1', 'MOVSD_XMM (XMM, XMM)'],
    ['a5', 'MOVSD'],
    ['f2ae', 'REPNE_SCASB'],
    ['66410f6fc1', 'MOVDQA (XMM, XMM)'],
    ['62f1fd4958c2', 'VADDPD (ZMM, K, ZMM, ZMM)'],
  ];
  for (const [hex, sig] of cases) assert.equal((await one(hex)).signature, sig, hex);
});

test('iforms for the common integer forms', async () => {
  assert.equal((await one('4801d8')).iform, 'ADD_GPRv_GPRv_01');
  assert.equal((await one('4803c3')).iform, 'ADD_GPRv_GPRv_03');
  assert.equal((await one('480303')).iform, 'ADD_GPRv_MEMv');
  assert.equal((await one('4883d001')).iform, 'ADC_GPRv_IMMb');
  assert.equal((await one('7505')).iform, 'JNZ_RELBRb');
  assert.equal((await one('48f7f1')).iform, 'DIV_GPRv');
  assert.equal((await one('f0480104 24'.replace(' ', ''))).iform, 'ADD_LOCK_MEMv_GPRv');
  assert.equal((await one('c5fd5801')).iform, null);
});

test('registers are normalized to the architectural register', async () => {
  const i = await one('00e0'); // add al, ah
  assert.deepEqual(i.reads, ['RAX']);
  assert.deepEqual(i.writes, ['RAX']);
  assert.deepEqual(
    i.operands.map((o) => [o.kind, o.register, o.written]),
    [
      ['R8', 'RAX', 'al'],
      ['R8', 'RAX', 'ah'],
    ],
  );
  const v = await one('c5fd58c2'); // vaddpd ymm0, ymm0, ymm2
  assert.deepEqual(set(v.reads), ['XMM0', 'XMM2']);
  assert.deepEqual(v.writes, ['XMM0']);
  const r8 = await one('4500c1'); // add r9b, r8b
  assert.deepEqual(set(r8.reads), ['R8', 'R9']);
  assert.equal(r8.operands[0]!.written, 'r9b');
});

test('implicit operands: div, mul, push/pop/call/ret, cpuid, string ops', async () => {
  const div = await one('48f7f1'); // div rcx
  assert.deepEqual(set(div.reads), ['RAX', 'RCX', 'RDX']);
  assert.deepEqual(set(div.writes), ['RAX', 'RDX']);
  const mul = await one('48f7e3'); // mul rbx
  assert.deepEqual(set(mul.reads), ['RAX', 'RBX']);
  assert.deepEqual(set(mul.writes), ['RAX', 'RDX']);
  const push = await one('53');
  assert.deepEqual(set(push.reads), ['RBX', 'RSP']);
  assert.deepEqual(push.writes, ['RSP']);
  assert.equal(push.memory?.write, true);
  const pop = await one('5b');
  assert.deepEqual(set(pop.writes), ['RBX', 'RSP']);
  assert.equal(pop.memory?.read, true);
  const ret = await one('c3');
  assert.deepEqual(ret.reads, ['RSP']);
  assert.equal(ret.branch?.kind, 'return');
  const call = await one('e800000000');
  assert.equal(call.branch?.kind, 'call');
  assert.ok(call.reads.includes('RSP') && call.writes.includes('RSP'));
  const cpuid = await one('0fa2');
  assert.deepEqual(set(cpuid.writes), ['RAX', 'RBX', 'RCX', 'RDX']);
  assert.deepEqual(set(cpuid.reads), ['RAX', 'RCX']);
  const movsb = await one('f3a4');
  assert.deepEqual(set(movsb.reads), ['RCX', 'RDI', 'RSI']);
  assert.deepEqual(movsb.flagsRead, ['DF']);
  assert.deepEqual(movsb.prefixes, ['rep']);
});

test('flags are read and written bit by bit', async () => {
  assert.deepEqual((await one('7505')).flagsRead, ['ZF']);
  assert.deepEqual((await one('7205')).flagsRead, ['CF']);
  assert.deepEqual(set((await one('7705')).flagsRead), ['CF', 'ZF']);
  assert.deepEqual(set((await one('7c05')).flagsRead), ['OF', 'SF']);
  const adc = await one('4883d001');
  assert.deepEqual(adc.flagsRead, ['CF']);
  assert.deepEqual(set(adc.flagsWritten), ['AF', 'CF', 'OF', 'PF', 'SF', 'ZF']);
  const inc = await one('49ffc7');
  assert.deepEqual(set(inc.flagsWritten), ['AF', 'OF', 'PF', 'SF', 'ZF']); // inc leaves CF alone
  assert.deepEqual((await one('48c7c001000000')).flagsWritten, []);
  // shift by cl: flags are unchanged when cl = 0, so they are also inputs
  assert.ok((await one('48d3e0')).flagsRead.includes('CF'));
  assert.deepEqual((await one('fc')).flagsWritten, ['DF']); // cld
});

test('memory operands: base/index are reads, indexed, load vs store, LEA has no access', async () => {
  const st = await one('c4817b1174fc08'); // vmovsd [r12+r15*8+0x8], xmm6
  assert.deepEqual(st.memory, {
    base: 'R12',
    index: 'R15',
    scale: 8,
    displacement: 8,
    segment: null,
    size: 8,
    read: false,
    write: true,
  });
  assert.ok(st.indexed);
  assert.deepEqual(set(st.reads), ['R12', 'R15', 'XMM6']);
  assert.deepEqual(st.writes, []);
  const rmw = await one('48010424'); // add [rsp], rax
  assert.equal(rmw.memory?.read, true);
  assert.equal(rmw.memory?.write, true);
  assert.equal(rmw.indexed, false);
  const lea = await one('488d0448');
  assert.equal(lea.memory?.read, false);
  assert.equal(lea.memory?.size, 0);
  const rip = await one('488b0500000000'); // mov rax, [rip+0]
  assert.equal(rip.memory?.base, 'RIP');
  assert.deepEqual(rip.reads, []);
  const fs = await one('64488b042528000000'); // mov rax, fs:[0x28]
  assert.equal(fs.memory?.segment, 'FS');
});

test('same-register forms and zero idioms', async () => {
  const x = await one('31c0'); // xor eax, eax
  assert.ok(x.sameReg && x.zeroIdiom);
  assert.deepEqual(x.reads, []);
  const vx = await one('c5f1efc9'); // vpxor xmm1, xmm1, xmm1
  assert.ok(vx.zeroIdiom);
  assert.deepEqual(vx.reads, []);
  const pc = await one('660f76c0'); // pcmpeqd xmm0, xmm0: dependency-breaking
  assert.ok(pc.zeroIdiom);
  assert.deepEqual(pc.reads, []);
  const andn = await one('660fdfc0'); // pandn xmm0, xmm0: dependency-breaking
  assert.ok(andn.zeroIdiom);
  assert.deepEqual(andn.reads, []);
  const sbb = await one('19c0'); // sbb eax, eax: same register, still reads CF and (for XED) eax
  assert.ok(sbb.sameReg && !sbb.zeroIdiom);
  assert.deepEqual(sbb.flagsRead, ['CF']);
  const add = await one('4801c0'); // add rax, rax: same register, not an idiom
  assert.ok(add.sameReg && !add.zeroIdiom);
  assert.deepEqual(add.reads, ['RAX']);
  assert.ok(!(await one('4801d8')).sameReg);
});

test('branches: kind, target, target line, backward', async () => {
  // 0: add rax, 1 / 1: jne 0 (backward) / 2: jmp rax (indirect)
  const { instructions: ins } = await loadRegion({ hex: '4883c001 75fa ffe0', baseAddress: 0x1000, region: 1 });
  assert.deepEqual(ins[1]!.branch, { kind: 'conditional', target: 0x1000, targetLine: 0, backward: true });
  assert.deepEqual(ins[2]!.branch, { kind: 'indirect', target: null, targetLine: null, backward: false });
  assert.equal(ins[0]!.branch, null);
});

test('AT&T text, lines from 0, bytes as lower-case hex', async () => {
  const { instructions: ins } = await loadRegion({ hex: '4801d8 4883c001' });
  assert.deepEqual(
    ins.map((i) => [i.line, i.bytes, i.intel, i.att]),
    [
      [0, '4801d8', 'add rax, rbx', 'addq %rbx, %rax'],
      [1, '4883c001', 'add rax, 0x1', 'addq $0x1, %rax'],
    ],
  );
});
