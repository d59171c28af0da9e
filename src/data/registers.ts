// Register names as uops.info writes them (RAX, EAX, AL, XMM3, …) → the normalized resources of
// src/disasm/types.ts (RAX, XMM3, K1, …).

const GPR64 = ['RAX', 'RCX', 'RDX', 'RBX', 'RSP', 'RBP', 'RSI', 'RDI'];
const ALIASES: Record<string, string> = {};
for (const r of GPR64) {
  const x = r.slice(1); // AX, CX, …, SP, BP, SI, DI
  ALIASES[r] = r;
  ALIASES[`E${x}`] = r;
  ALIASES[x] = r;
}
Object.assign(ALIASES, {
  AL: 'RAX', AH: 'RAX', CL: 'RCX', CH: 'RCX', DL: 'RDX', DH: 'RDX', BL: 'RBX', BH: 'RBX',
  SPL: 'RSP', BPL: 'RBP', SIL: 'RSI', DIL: 'RDI',
});

/** Normalizes one register name, or returns null for something that is not a tracked register
 *  (RIP, segment registers, …). */
export function normalizeRegister(name: string): string | null {
  const r = name.trim().toUpperCase();
  if (r === '' || r === 'RIP' || r === 'EIP' || r === 'IP') return null;
  const alias = ALIASES[r];
  if (alias) return alias;
  let m = /^R(\d+)[BWD]?$/.exec(r);
  if (m) return `R${m[1]}`;
  m = /^[XYZ]MM(\d+)$/.exec(r);
  if (m) return `XMM${m[1]}`;
  m = /^K([0-7])$/.exec(r);
  if (m) return `K${m[1]}`;
  if (/^(MM\d|ST\(?\d\)?|CR\d|DR\d|MXCSR|X87\w*|[CDEFGS]S|GDTR|IDTR|LDTR|TR|TSC|TSCAUX|XCR0|SSP|FPSW|FPCW|FPTAG)$/.test(r)) return r;
  return r;
}
