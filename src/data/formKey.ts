import type { ArchForm } from './types.js';

/** Identity of a form inside one architecture: its string plus distinguishing attributes. */
export function formKey(f: Pick<ArchForm, 'string' | 'attributes'>): string {
  const attrs = Object.keys(f.attributes).sort().map((k) => `${k}=${f.attributes[k]}`).join(',');
  return attrs ? `${f.string}|${attrs}` : f.string;
}

/** `own` plus the forms of `parent` that `own` lacks (inheritance, MachineModel.inheritsDataFrom). */
export function mergeInherited(own: ArchForm[], parent: ArchForm[]): { forms: ArchForm[]; inherited: number } {
  const have = new Set(own.map(formKey));
  const extra = parent.filter((f) => !have.has(formKey(f)));
  return { forms: extra.length ? own.concat(extra) : own, inherited: extra.length };
}

/** Drops later duplicates (same string and attributes), keeping the first. */
export function dedupe(forms: ArchForm[]): ArchForm[] {
  const seen = new Set<string>();
  return forms.filter((f) => {
    const k = formKey(f);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
