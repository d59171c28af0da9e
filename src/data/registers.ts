// Register names as uops.info writes them (RAX, EAX, AL, XMM3, …) → the resources the
// dependency graph tracks: the disasm stage's one normalization (src/disasm/registers.ts).
export { normalizeRegisterName as normalizeRegister } from '../disasm/registers.js';
