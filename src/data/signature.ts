// Normalized signatures so that a decoded instruction and a uops.info `string` compare equal:
// upper case, no spaces, the opcode-variant suffix dropped (ADD_01 → ADD), condition-code
// aliases folded to uops.info's spelling (JNE → JNZ, CMOVAE → CMOVNB, SETG → SETNLE), XED's
// MOVSD_XMM / CMPSD_XMM folded to MOVSD / CMPSD.

const CC: Record<string, string> = {
  E: 'Z',
  NE: 'NZ',
  C: 'B',
  NAE: 'B',
  AE: 'NB',
  NC: 'NB',
  A: 'NBE',
  NA: 'BE',
  GE: 'NL',
  G: 'NLE',
  NGE: 'L',
  NG: 'LE',
  PE: 'P',
  PO: 'NP',
};

/** Drops a uops.info opcode-variant suffix: ADD_01 → ADD, MOV_8B → MOV, NOP_0F1F → NOP. */
function stripVariant(mnemonic: string): { base: string; variant: string | null } {
  // LEA's suffix names the address shape (LEA_B_D8), not an opcode
  if (mnemonic.startsWith('LEA_')) return { base: mnemonic, variant: null };
  const m = /^(.*?)_((?:[0-9A-F]{2}){1,2})$/.exec(mnemonic);
  return m ? { base: m[1]!, variant: m[2]! } : { base: mnemonic, variant: null };
}

/** XED's iclasses for the SSE forms that share a string instruction's mnemonic (the decoder writes
 *  'MOVSD_XMM (XMM, M64)'); folded to the assembler mnemonic so that either spelling in a uops.info
 *  `string` matches. The operand list keeps them apart from the string instructions. */
const XMM_ICLASS: Record<string, string> = { MOVSD_XMM: 'MOVSD', CMPSD_XMM: 'CMPSD' };

export function canonicalMnemonic(mn: string): string {
  const u = mn.toUpperCase();
  const xmm = XMM_ICLASS[u];
  if (xmm) return xmm;
  for (const prefix of ['CMOV', 'SET', 'J']) {
    if (u.startsWith(prefix)) {
      const cc = CC[u.slice(prefix.length)];
      if (cc) return prefix + cc;
    }
  }
  return u;
}

interface SplitSignature {
  /** prefixes written before the mnemonic (LOCK, REP, …) */
  prefixes: string[];
  mnemonic: string;
  variant: string | null;
  operands: string[];
}

const PREFIXES = new Set([
  'LOCK',
  'REP',
  'REPE',
  'REPZ',
  'REPNE',
  'REPNZ',
  'DATA16',
  'ADDR32',
  'BND',
  'NOTRACK',
  'XACQUIRE',
  'XRELEASE',
]);

/** Splits 'LOCK ADD_01 (M64, R64)' into prefixes, mnemonic, variant and operand kinds. */
export function splitSignature(sig: string): SplitSignature {
  const s = sig.trim().toUpperCase();
  const paren = s.indexOf('(');
  const head = (paren === -1 ? s : s.slice(0, paren)).trim().split(/\s+/).filter(Boolean);
  const ops =
    paren === -1
      ? []
      : s
          .slice(paren + 1, s.lastIndexOf(')') === -1 ? undefined : s.lastIndexOf(')'))
          .split(',')
          .map((o) => o.replace(/\s+/g, ''))
          .filter(Boolean);
  const prefixes: string[] = [];
  while (head.length > 1 && PREFIXES.has(head[0]!)) prefixes.push(head.shift()!);
  let mn = head.join(' ');
  // uops.info writes locked and repeated forms as ADD_LOCK, REP_STOSB / STOSB_REP (iclass style)
  for (;;) {
    const suffix = /^(.+)_(LOCK|REP|REPE|REPNE)$/.exec(mn);
    if (suffix) {
      prefixes.push(suffix[2]!);
      mn = suffix[1]!;
      continue;
    }
    const prefix = /^(LOCK|REP|REPE|REPNE)_(.+)$/.exec(mn);
    if (prefix) {
      prefixes.push(prefix[1]!);
      mn = prefix[2]!;
      continue;
    }
    break;
  }
  prefixes.sort();
  const { base, variant } = stripVariant(mn);
  return { prefixes, mnemonic: canonicalMnemonic(base), variant, operands: ops };
}

/** A gather's or scatter's signature as uops.info writes it: the memory operand named by its
 *  vector index's width (`VGATHERDPD (YMM, VSIB_XMM, YMM)`), where the decoder writes the width of
 *  each element loaded (`M64`), which does not tell `vgatherqps xmm, [ymm]` (four lanes) from
 *  `vgatherqps xmm, [xmm]` (two); null for other instructions. */
export function vsibSignature(d: {
  signature: string;
  memory?: { vsib?: 'XMM' | 'YMM' | 'ZMM' } | null;
}): string | null {
  const v = d.memory?.vsib;
  const m = v ? /^([^(]*\()(.*)\)$/.exec(d.signature) : null;
  if (!m) return null;
  const ops = m[2]!.split(', ');
  const at = ops.findIndex((o) => /^M(\d+|EM)$/.test(o));
  if (at < 0) return null;
  ops[at] = `VSIB_${v}`;
  return `${m[1]}${ops.join(', ')})`;
}

/** The key both sides are indexed by: 'ADD(R64,M64)' (prefixes kept, 'LOCK ADD(M64,R64)'). */
export function signatureKey(sig: string): string {
  const s = splitSignature(sig);
  return `${s.prefixes.length ? s.prefixes.join(' ') + ' ' : ''}${s.mnemonic}(${s.operands.join(',')})`;
}

/** Operand kind classes for relaxed matching: immediates and branch offsets of any width. */
export function operandClass(kind: string): string {
  const k = kind.toUpperCase();
  if (/^I(8|16|32|64)$/.test(k) || /^IMM/.test(k)) return 'IMM';
  if (/^REL(8|16|32)$/.test(k)) return 'REL';
  return k;
}

/** Width in bits named by an operand kind (R64 → 64, M128 → 128, XMM → 128, I8 → 8), or null. */
export function operandWidth(kind: string): number | null {
  const k = kind.toUpperCase();
  if (k === 'XMM') return 128;
  if (k === 'YMM') return 256;
  if (k === 'ZMM') return 512;
  const m = /^(?:R|M|I|REL|IMM)(\d+)$/.exec(k);
  return m ? Number(m[1]) : null;
}
