// The keys, as one table per context (the explorer, a prompt, the architecture and model menus,
// the help), plus the keys of every context: what each key does, and how the footer and the
// help overlay name it. The footer and `?` are drawn from these tables; the controller
// (src/ui/controller.ts) looks keys up here.
import type { Key } from 'ink';
import { originLegend, originLetters, originList } from '../data/origins.js';
import { MECHANISM_INFO } from '../sim/mechanisms.js';
import { TABS, type VariantKey } from './types.js';
import type { ExplorerState } from './state.js';
import { DIFF_MARK } from './splitDiff.js';

/** One key as the terminal reported it. */
export interface KeyEvent {
  input: string;
  key: Key;
}

/** What the bindings can ask for (implemented by the controller). */
export interface KeyOps {
  step(by: number): void;
  home(): void;
  runToEnd(): void;
  nextIssue(): void;
  select(by: number): void;
  toggleVariant(v: VariantKey): void;
  toggleBranches(): void;
  /** the worst case of the loads through data beside the current run, or close it */
  toggleMemory(): void;
  openPrompt(what: 'goto' | 'iterations' | 'export' | 'search'): void;
  /** the help's previous page */
  helpBack(): void;
  openArch(): void;
  /** the core split: choose another core to show beside this one, or close the split */
  toggleCores(): void;
  /** 'help-page': the help's next page, staying on its last */
  toggleOverlay(kind: 'help' | 'help-page' | 'detail'): void;
  closeOverlay(): void;
  tab(to: 'next' | 'prev' | number): void;
  togglePlay(): void;
  speed(dir: 1 | -1): void;
  quit(how: 'quit' | 'interrupt'): void;
  // prompt
  promptType(text: string): void;
  promptBackspace(): void;
  promptKeep(): void;
  promptSubmit(): void;
  // architecture menu
  archMove(by: number): void;
  archPick(): void;
  // model menu (the mechanisms)
  openModel(): void;
  modelMove(by: number): void;
  modelPick(): void;
  /** the model's notes in full (from the model menu), and their pages */
  openNotes(): void;
  notesPage(by: number): void;
  /** run the region on this machine (hooks/useMeasure.ts) */
  measure(): void;
  /** Ctrl-Z: give the terminal back to the shell until it resumes the program */
  suspend(): void;
}

export interface Binding {
  /** the keys as the help lists them */
  keys: string;
  /** the keys as the footer names them when there is room (default: `keys`) */
  hint?: string;
  /** abbreviation for the footer at 80 columns */
  short: string;
  /** the footer's word */
  what: string;
  /** the help's line */
  help: string;
  /** footer priority (lower: kept first when the line is short); null: help only */
  priority: number | null;
  /** the footer names it only when the panes are tabs (it does nothing otherwise) */
  needsTabs?: boolean;
  /** the footer names it only when what is shown has several pages */
  needsPages?: boolean;
  match(input: string, key: Key): boolean;
  run(ops: KeyOps, state: ExplorerState, input: string, key: Key): void;
}

const is =
  (...chars: string[]) =>
  (input: string) =>
    chars.includes(input);

export const EXPLORER_KEYS: Binding[] = [
  {
    keys: '→ / l, ← / h',
    hint: '←/→ h/l',
    short: '←→',
    what: 'step',
    help: 'step one cycle forward / back',
    priority: 0,
    match: (i, k) => k.rightArrow || k.leftArrow || i === 'l' || i === 'h',
    run: (o, _s, i, k) => o.step(k.rightArrow || i === 'l' ? 1 : -1),
  },
  {
    keys: '] / [, } / {',
    hint: '[ ] { }',
    short: '[]',
    what: '±10',
    help: '10 / 100 cycles forward / back',
    priority: 9,
    match: is(']', '[', '}', '{'),
    run: (o, _s, i) => o.step(({ ']': 10, '[': -10, '}': 100, '{': -100 } as Record<string, number>)[i]!),
  },
  {
    keys: 'g',
    short: 'g',
    what: 'go to',
    help: 'go to a cycle (type it, enter)',
    priority: 10,
    match: is('g'),
    run: (o) => o.openPrompt('goto'),
  },
  {
    keys: 'space, + / -',
    hint: 'space',
    short: '␣',
    what: 'play',
    help: 'play / pause; faster / slower',
    priority: 7,
    match: (i) => i === ' ' || i === '+' || i === '=' || i === '-',
    run: (o, _s, i) => (i === ' ' ? o.togglePlay() : o.speed(i === '-' ? -1 : 1)),
  },
  {
    keys: 'G / End, Home',
    hint: 'G',
    short: 'G',
    what: 'end',
    help: 'run to the end, back to cycle 0',
    priority: 11,
    match: (i, k) => i === 'G' || k.end || k.home,
    run: (o, _s, _i, k) => (k.home ? o.home() : o.runToEnd()),
  },
  {
    keys: 'n',
    short: 'n',
    what: 'next issue',
    help: 'run until the selected line next issues',
    priority: 13,
    match: is('n'),
    run: (o) => o.nextIssue(),
  },
  {
    keys: '/',
    short: '/',
    what: 'search',
    help: 'search the program: the next line whose instruction holds the text (/ enter again: the next one)',
    priority: 12,
    match: is('/'),
    run: (o) => o.openPrompt('search'),
  },
  {
    keys: '↑↓ k j PgUp/Dn',
    hint: '↑/↓',
    short: '↑↓',
    what: 'line',
    help: 'select a line (PgUp / PgDn: 10 lines)',
    priority: 8,
    match: (i, k) => k.upArrow || k.downArrow || k.pageUp || k.pageDown || i === 'k' || i === 'j',
    run: (o, _s, i, k) => o.select(k.pageUp ? -10 : k.pageDown ? 10 : k.upArrow || i === 'k' ? -1 : 1),
  },
  {
    keys: 'enter',
    short: '⏎',
    what: 'detail',
    help: 'detail of the selected line at this cycle (thesis §2.6)',
    priority: 12,
    match: (_i, k) => k.return,
    run: (o) => o.toggleOverlay('detail'),
  },
  {
    keys: 'f  p  d',
    hint: 'f p d',
    short: 'fpd',
    what: 'variants',
    help: 'variant: perfect front end, infinite ports, no dependencies',
    priority: 2,
    match: is('f', 'p', 'd'),
    run: (o, _s, i) => o.toggleVariant(i === 'f' ? 'perfectFrontEnd' : i === 'p' ? 'infinitePorts' : 'noDependencies'),
  },
  {
    keys: 'w',
    short: 'w',
    what: 'worst case',
    help: "worst case beside this run: each load that may read the previous iteration's store (only the data can tell) does (w again closes it)",
    priority: 17,
    match: is('w'),
    run: (o) => o.toggleMemory(),
  },
  {
    keys: 'b',
    short: 'b',
    what: 'branches',
    help: 'compare the two sides of the first branch inside the loop',
    priority: 3,
    match: is('b'),
    run: (o) => o.toggleBranches(),
  },
  {
    keys: 'a',
    short: 'a',
    what: 'arch',
    help: 'switch architecture (keeps the cycle)',
    priority: 4,
    match: is('a'),
    run: (o) => o.openArch(),
  },
  {
    keys: 'c',
    short: 'c',
    what: 'cores',
    help: 'compare with another core side by side (choose it from the architectures; c again closes it)',
    priority: 16,
    match: is('c'),
    run: (o) => o.toggleCores(),
  },
  {
    keys: 's',
    short: 's',
    what: 'switches',
    help: "the model's switches: toggle each mechanism, SUACA / refined, compare with the other model",
    priority: 15,
    match: is('s'),
    run: (o) => o.openModel(),
  },
  {
    keys: 'i',
    short: 'i',
    what: 'iters',
    help: 'change the number of iterations',
    priority: 14,
    match: is('i'),
    run: (o) => o.openPrompt('iterations'),
  },
  {
    keys: 'M',
    short: 'M',
    what: 'measure',
    help: 'measure the region on this machine (in the background): cycles/iteration beside the model in the header',
    priority: 15,
    match: is('M'),
    run: (o) => o.measure(),
  },
  {
    keys: 'x',
    short: 'x',
    what: 'export',
    help: 'export the session as a text report (asks for the path)',
    priority: 5,
    match: is('x'),
    run: (o) => o.openPrompt('export'),
  },
  {
    keys: 'tab / shift-tab / 1-4',
    hint: 'tab',
    short: 'tab',
    what: 'pane',
    help: 'switch pane (small terminals): the next, the previous, by number',
    priority: 6,
    needsTabs: true,
    match: (i, k) => k.tab || (/^[1-9]$/.test(i) && Number(i) <= TABS.length),
    run: (o, _s, i, k) => o.tab(k.tab ? (k.shift ? 'prev' : 'next') : Number(i) - 1),
  },
  {
    keys: '?  esc',
    hint: '?',
    short: '?',
    what: 'help',
    help: 'this help (again: its next page) / esc: close the detail, cancel slow work, hide the measurement',
    priority: 1,
    match: (i, k) => i === '?' || k.escape,
    run: (o, _s, i) => (i === '?' ? o.toggleOverlay('help') : o.closeOverlay()),
  },
  {
    keys: 'q',
    short: 'q',
    what: 'quit',
    help: 'quit (at once, even while work runs)',
    priority: 0,
    match: is('q'),
    run: (o) => o.quit('quit'),
  },
];

export const PROMPT_KEYS: Binding[] = [
  {
    keys: 'type',
    short: 'type',
    what: 'replace',
    help: 'the proposed value is selected: typing replaces it',
    priority: 0,
    match: (i, k) =>
      i.length > 0 && !k.ctrl && !k.meta && !k.return && !k.escape && !k.tab && !k.backspace && !k.delete,
    run: (o, _s, i) => o.promptType(i),
  },
  {
    keys: '⌫',
    short: '⌫',
    what: 'delete',
    help: 'delete the last character (and keep the rest)',
    priority: 2,
    match: (_i, k) => k.backspace || k.delete,
    run: (o) => o.promptBackspace(),
  },
  {
    keys: '→ / End',
    short: '→',
    what: 'edit',
    help: 'keep the proposed value and edit its end',
    priority: 3,
    match: (_i, k) => k.rightArrow || k.end,
    run: (o) => o.promptKeep(),
  },
  {
    keys: 'enter',
    short: '⏎',
    what: 'ok',
    help: 'accept',
    priority: 0,
    match: (_i, k) => k.return,
    run: (o) => o.promptSubmit(),
  },
  {
    keys: 'esc',
    short: 'esc',
    what: 'cancel',
    help: 'cancel',
    priority: 1,
    match: (_i, k) => k.escape,
    run: (o) => o.closeOverlay(),
  },
];

export const ARCH_KEYS: Binding[] = [
  {
    keys: '↑ / ↓',
    short: '↑↓',
    what: 'choose',
    help: 'choose an architecture',
    priority: 0,
    match: (i, k) => k.upArrow || k.downArrow || k.pageUp || k.pageDown || i === 'k' || i === 'j',
    run: (o, _s, i, k) => o.archMove(k.pageUp ? -10 : k.pageDown ? 10 : k.upArrow || i === 'k' ? -1 : 1),
  },
  {
    keys: 'enter',
    short: '⏎',
    what: 'switch',
    help: 'switch to it (the cycle is kept)',
    priority: 0,
    match: (_i, k) => k.return,
    run: (o) => o.archPick(),
  },
  {
    keys: 'esc / q',
    short: 'esc',
    what: 'cancel',
    help: 'close the menu (no switch)',
    priority: 1,
    match: (_i, k) => k.escape || _i === 'q',
    run: (o) => o.closeOverlay(),
  },
];

export const MODEL_KEYS: Binding[] = [
  {
    keys: '↑ / ↓',
    short: '↑↓',
    what: 'choose',
    help: 'choose a mechanism, a preset or the comparison',
    priority: 0,
    match: (i, k) => k.upArrow || k.downArrow || i === 'k' || i === 'j',
    run: (o, _s, i, k) => o.modelMove(k.upArrow || i === 'k' ? -1 : 1),
  },
  {
    keys: 'enter / space',
    hint: '⏎/space',
    short: '⏎',
    what: 'toggle',
    help: 'toggle it (the run is simulated again; the cycle is kept)',
    priority: 0,
    match: (i, k) => k.return || i === ' ',
    run: (o) => o.modelPick(),
  },
  {
    keys: 'n',
    short: 'n',
    what: 'notes',
    help: "the model's notes on this core in full (as the report prints them)",
    priority: 0,
    match: is('n'),
    run: (o) => o.openNotes(),
  },
  {
    keys: 'esc / s / q',
    short: 'esc',
    what: 'close',
    help: 'close the menu',
    priority: 1,
    match: (i, k) => k.escape || i === 's' || i === 'q',
    run: (o) => o.closeOverlay(),
  },
];

/** The model's notes in full (n in the model menu): pages, and back to the menu. */
export const NOTES_KEYS: Binding[] = [
  {
    keys: '→ / PgDn / space',
    hint: '→',
    short: '→',
    what: 'next page',
    help: "the notes' next page",
    priority: 0,
    needsPages: true,
    match: (i, k) => k.rightArrow || k.pageDown || k.downArrow || i === ' ' || i === 'l' || i === 'j',
    run: (o) => o.notesPage(1),
  },
  {
    keys: '← / PgUp',
    short: '←',
    what: 'back',
    help: "the notes' previous page",
    priority: 1,
    needsPages: true,
    match: (i, k) => k.leftArrow || k.pageUp || k.upArrow || i === 'h' || i === 'k',
    run: (o) => o.notesPage(-1),
  },
  {
    keys: 'esc / n / q',
    short: 'esc',
    what: 'menu',
    help: 'back to the model menu',
    priority: 0,
    match: (i, k) => k.escape || i === 'n' || i === 'q',
    run: (o) => o.closeOverlay(),
  },
];

/** The help is modal: its own keys only, nothing acts behind it. */
export const HELP_KEYS: Binding[] = [
  {
    keys: '? / → / PgDn',
    hint: '?/→',
    short: '?→',
    what: 'next page',
    help: "the help's next page (? closes after the last)",
    priority: 0,
    match: (i, k) => i === '?' || k.rightArrow || k.pageDown || i === 'l' || i === ' ',
    run: (o, _s, i) => (i === '?' ? o.toggleOverlay('help') : o.toggleOverlay('help-page')),
  },
  {
    keys: '← / PgUp',
    short: '←',
    what: 'back',
    help: "the help's previous page",
    priority: 1,
    match: (i, k) => k.leftArrow || k.pageUp || i === 'h',
    run: (o) => o.helpBack(),
  },
  {
    keys: 'esc / q',
    short: 'esc',
    what: 'close',
    help: 'close the help',
    priority: 0,
    match: (i, k) => k.escape || i === 'q',
    run: (o) => o.closeOverlay(),
  },
];

/** The detail (enter) is shown: enter or esc closes it; the explorer's other keys act as usual
 *  (stepping moves the detail's cycle). */
export const DETAIL_KEYS: Binding[] = [
  {
    keys: 'enter / esc',
    hint: '⏎/esc',
    short: '⏎',
    what: 'close detail',
    help: 'close the detail',
    priority: 0,
    match: (_i, k) => k.return || k.escape,
    run: (o) => o.closeOverlay(),
  },
  ...EXPLORER_KEYS.filter((b) => b.keys !== 'enter'),
];

/** Keys of every context, looked up first. */
export const GLOBAL_KEYS: Binding[] = [
  {
    keys: 'Ctrl-C',
    short: '^C',
    what: 'quit',
    help: 'quit at once, even while work runs (status 130)',
    priority: null,
    match: (i, k) => k.ctrl && i === 'c',
    run: (o) => o.quit('interrupt'),
  },
  {
    keys: 'Ctrl-Z',
    short: '^Z',
    what: 'suspend',
    help: 'suspend to the shell (fg resumes)',
    priority: null,
    match: (i, k) => k.ctrl && i === 'z',
    run: (o) => o.suspend(),
  },
];

export type KeyContext = 'explorer' | 'detail' | 'prompt' | 'arch' | 'model' | 'notes' | 'help';

export function bindingsOf(ctx: KeyContext): Binding[] {
  switch (ctx) {
    case 'prompt':
      return PROMPT_KEYS;
    case 'arch':
      return ARCH_KEYS;
    case 'model':
      return MODEL_KEYS;
    case 'notes':
      return NOTES_KEYS;
    case 'help':
      return HELP_KEYS;
    case 'detail':
      return DETAIL_KEYS;
    default:
      return EXPLORER_KEYS;
  }
}

/** The binding a key runs in a context, if any (the keys of every context first). */
export function lookup(ctx: KeyContext, input: string, key: Key): Binding | undefined {
  return GLOBAL_KEYS.find((b) => b.match(input, key)) ?? bindingsOf(ctx).find((b) => b.match(input, key));
}

/** Several keys in one chunk (fast typing, a terminal's burst, a paste): one key event each. */
export function splitKeys(input: string, key: Key): KeyEvent[] {
  if (input.length <= 1 || key.ctrl || key.meta) return [{ input, key }];
  const none: Key = { ...key, return: false, backspace: false, delete: false, tab: false, escape: false, shift: false };
  return [...input].map((ch) => {
    if (ch === '\r' || ch === '\n') return { input: '', key: { ...none, return: true } };
    if (ch === '\u007F' || ch === '\b') return { input: '', key: { ...none, backspace: true } };
    if (ch === '\t') return { input: '', key: { ...none, tab: true } };
    return { input: ch, key: { ...none, shift: /[A-Z]/.test(ch) } };
  });
}

/**
 * The legend: every notation the screen shows, by where it shows it, for the help overlay (`?`
 * opens on it). The symbols are those of src/ui/format.ts; the mechanisms' abbreviations and
 * the figures' sources are read from their own tables (src/sim/mechanisms.ts,
 * src/data/origins.ts), so the legend cannot drift from what the panes print.
 */
const ALL_ORIGINS = originList().map((o) => o.id);

interface LegendSection {
  title: string;
  rows: [string, string][];
}

export const LEGEND: LegendSection[] = [
  {
    title: 'Header and comparison line',
    rows: [
      ['c/iter', 'cycles per iteration: cycles ÷ iterations complete (end: all)'],
      ['done/run', 'c/iter over the iterations done so far / the whole run'],
      ['diverge at N', 'the first cycle at which the two panes differ; │ separates'],
      [
        DIFF_MARK,
        "split views: before a figure (bold), it differs from the other side's at this cycle; alone: the other side has a figure there",
      ],
      ['[2 Reservation]', 'the pane shown (small terminals: tab or 1-4 switch)'],
      ['SKL beside ZEN4', 'two cores side by side (c): the left pane runs the first, the right the other'],
      [
        'worst case',
        "w: the right pane, where each load that may read the previous iteration's store does (the report's line beside the baseline)",
      ],
      ['−macro-fus', 'the model with a mechanism off (+: on); see the last section'],
    ],
  },
  {
    title: 'Program',
    rows: [
      ['>', 'the selected line (↑/↓)'],
      ['W R E D', 'instances (one per iteration) waiting, ready, executing, done'],
      ['F', 'a macro-fused pair: a flag-setting line and its Jcc, one µop'],
      [
        originLetters(ALL_ORIGINS),
        `where a line's figures come from: ${originLegend(ALL_ORIGINS).replace(/, \? no figures$/, '')}`,
      ],
      ['?', 'no figures: a placeholder without µops, dependencies kept (the message says)'],
      ['lines 0-6 of 8', 'the lines shown, by their numbers, of how many'],
    ],
  },
  {
    title: 'Reservation station',
    rows: [
      ['L3#50', 'line 3 of iteration 50: an instance'],
      ['+ ◌ ○ ▶ ✓', 'loading, waiting on an operand, ready (waits for a port), executing, done'],
      ['2µ', "the instance's µops"],
      ['█░', "a bar's filled share: the station's fill, a port's use so far"],
    ],
  },
  {
    title: "Scheduler queues (AMD's Zen cores, in the Reservation pane)",
    rows: [
      ['INT1 24/24', 'a scheduler queue: its entries / its size; it issues to its own pipes only'],
      ['macro-op entries', 'an entry is an instruction (a load-op is one), not a µop'],
      ['NSQ 0/64', 'the non-scheduling queue: ops steered to a full FP queue wait there in order, unable to issue'],
      [
        'dispatch stalled',
        'a steering stall: the queue the next op was steered to is full, so dispatch stops, whatever room the others have',
      ],
      ['steering even', 'an op several queues can take goes to them in turn, whatever their fill'],
      ['holds 24: oldest', "the stalled queue's entries, and what its oldest waits for"],
      ['◌ L3#2 1µ FPQ0', 'an instance and the queue its waiting µops are in'],
      ['ALU0 FP2', "pipes by their names (AMD's cores); Intel's ports by number: p0 p1"],
    ],
  },
  {
    title: 'Ports and front end',
    rows: [
      ['·', 'no µop on the port this cycle'],
      ['L3#25+2', 'the µop on the port this cycle and 2 more (infinite ports)'],
      ['○L3#25', 'its instance has µops still waiting for a port: ready, not executing'],
      ['L6#…', "an instance's label cut to fit (its iteration)"],
      ['count', 'µops the port took so far; the bar: its use (µops ÷ cycles)'],
      ['ready: … +3', 'instances ready for a port; +3: three more not shown'],
      ['MITE DSB LSD', 'µops from: legacy decoders, µop cache, loop stream detector'],
      ['—', 'the front end delivered nothing this cycle'],
      ['IDQ 3/64', 'the µop queue before the station: µops in it / its size (Q3)'],
      ['delivered, in', 'µops put into the IDQ this cycle; issued: into the station'],
      ['FE', 'the front end'],
    ],
  },
  {
    title: 'Statistics (per iteration done so far)',
    rows: [
      ['wait', 'cycles per instance in the station waiting (operand, port); grows as they queue'],
      ['caused', 'cycles per iteration others waited for it (result or port)'],
      ['p0 p1 …', 'µops per iteration on each port; blank: none, 0.00: < 0.005'],
      ['µops/c', 'µops that took a port, per cycle'],
      ['… 4 more lines', 'rows that do not fit (the total includes them)'],
      ['hidden: p1', 'ports without a column (in use or unused)'],
    ],
  },
  {
    title: 'Detail (enter)',
    rows: [
      ['lat→L lat←L', 'latency from this line to line L, from L to this line'],
      ['L waits', 'c/iter L waited for this line; this waits: this line for L'],
    ],
  },
  {
    title: 'Everywhere',
    rows: [
      ['–', 'no value yet (nothing completed), or none'],
      ['12k  1.2M', 'counts abbreviated: thousands, millions'],
      ['text…', 'cut to fit (names and labels; a figure is never cut)'],
      ['fall-through', 'and taken: the two sides of a branch (b, M, report --branch)'],
      ['⏎ ␣ ^C ^Z', 'in the footer: enter, space, Ctrl-C, Ctrl-Z (keys below)'],
    ],
  },
  {
    title: "The model's mechanisms (s; the header abbreviates them)",
    rows: [
      ['❯ [x] [ ] ● ○', 'in the menus: the row chosen; on, off; the preset in force, another'],
      ...MECHANISM_INFO.map((m): [string, string] => [m.short, `${m.label}; --no-${m.flag} turns it off`]),
    ],
  },
];
