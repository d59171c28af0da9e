// The architecture's name as a typed value (no imports: the CLI's start-up reads it).
import type { ArchName } from './types.js';

/**
 * The one place a name the user wrote ('skl', ' ADL-P ') becomes an ArchName: trimmed and
 * upper-cased as uops.info and the machine models spell it; null when it cannot be one. Whether
 * the architecture exists is loadMachine's (machines.ts) to say.
 */
export function parseArchName(value: unknown): ArchName | null {
  const s = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return /^[A-Z][A-Z0-9-]*$/.test(s) ? (s as ArchName) : null;
}
