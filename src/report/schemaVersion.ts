// The version of the layout of every JSON output (report, disasm, regions, data list, measure): one
// number for all of them, raised by one whenever a field is added, renamed, removed or changes
// meaning, so that a reader can tell which layout it has. Every JSON output puts it first.

/** The JSON outputs' layout version (docs/report.md, "JSON", lists what each version added). */
export const JSON_SCHEMA_VERSION = 2;

/** `o` with the layout version first. */
export function withSchemaVersion<T extends object>(o: T): { schemaVersion: number } & T {
  return { schemaVersion: JSON_SCHEMA_VERSION, ...o };
}
