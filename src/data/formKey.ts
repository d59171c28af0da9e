import type { ArchForm, DataSource } from './types.js';

/** Identity of a form inside one architecture: its string plus distinguishing attributes. */
export function formKey(f: Pick<ArchForm, 'string' | 'attributes'>): string {
  const attrs = Object.keys(f.attributes)
    .sort()
    .map((k) => `${k}=${f.attributes[k]}`)
    .join(',');
  return attrs ? `${f.string}|${attrs}` : f.string;
}

/** `own` plus the forms of `parent` that `own` lacks (inheritance, MachineModel.inheritsDataFrom). */
function mergeInherited(own: ArchForm[], parent: ArchForm[]): { forms: ArchForm[]; inherited: number } {
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

/** Combines the lists of a core and the cores it inherits from (in `chain` order): its own forms
 *  first, then each ancestor's missing ones; null when no list has forms. */
export function combineChain(
  lists: (ArchForm[] | null)[],
  chain: readonly string[],
  base: Omit<DataSource, 'forms'>,
): { source: DataSource; forms: ArchForm[] } | null {
  let forms: ArchForm[] | null = null;
  let inheritedFrom: string | undefined;
  let inherited = 0;
  lists.forEach((list, i) => {
    if (!list) return;
    if (!forms) {
      forms = list;
      if (i > 0) {
        inheritedFrom = chain[i];
        inherited = list.length;
      }
      return;
    }
    const r = mergeInherited(forms, list);
    if (r.inherited) {
      forms = r.forms;
      inheritedFrom ??= chain[i];
      inherited += r.inherited;
    }
  });
  if (!forms) return null;
  const source: DataSource = { ...base, forms: (forms as ArchForm[]).length };
  if (inheritedFrom) {
    source.inheritedFrom = inheritedFrom;
    source.inheritedForms = inherited;
  }
  return { source, forms };
}

/** How the listing's footnote names a source of forms: 'imported data (FILE, DATE, N forms)'. */
export function describeSource(s: DataSource): string {
  return `${s.kind} data (${s.path}${s.date ? `, ${s.date}` : ''}, ${s.forms} forms${s.inheritedFrom ? `, ${s.inheritedForms ?? 0} inherited from ${s.inheritedFrom}` : ''})`;
}
